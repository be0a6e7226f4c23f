import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.ts';
import { catalogues } from './vite-catalogues.ts';

// The tenant portal's own build (portal.html → src/portal-main.tsx), run after the staff app's into
// the same dist/ (its files are named by their content; nothing is emptied): a build of its own, so
// that none of the staff app's chunks (its shell, MUI) is ever shared with it (docs/decisions.md).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // the portal's texts only (its own chunk per language, none shared with the staff app's)
  plugins: [react(), precompress(), catalogues(['glossary', 'common', 'validation', 'auth', 'portal'])],
  publicDir: false,
  resolve: {
    alias: [
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: false,
    sourcemap: false,
    manifest: '.vite/portal-manifest.json',
    rolldownOptions: {
      input: { portal: fileURLToPath(new URL('./portal.html', import.meta.url)) },
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]packages[\\/]domain[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
