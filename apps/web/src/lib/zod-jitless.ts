// What the web's build answers for `import ... from 'zod'` (vite.config.ts, resolve.alias): zod
// itself, configured first (`z.config({ jitless: true })`, zod-config.ts) wherever it is first
// loaded, so the first page's download does not take zod to configure it.
import './zod-config.ts';

export * from 'zod/v4';
export { default } from 'zod/v4';
