import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.ts';
import { catalogues } from './vite-catalogues.ts';
import { routePreloads } from './vite-route-preloads.ts';

type ModuleGraph = {
  getModuleIds: () => Iterable<string>;
  getModuleInfo: (id: string) => { importedIds: readonly string[] } | null;
};

/**
 * The modules a root module needs before it runs: itself and its static imports, transitively, as
 * imported (a barrel's every module, also those tree-shaking drops: more than it loads, never less).
 */
const staticClosure = (graph: ModuleGraph, root: RegExp, into: Set<string>) => {
  into.clear();
  const queue = [...graph.getModuleIds()].filter((id) => root.test(id));
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (into.has(id)) continue;
    into.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
};

const LOGIN_PAGE = /[\\/]src[\\/]features[\\/]auth[\\/]login-page\.tsx$/;
/** What the login page loads before it shows (its budget: scripts/check-bundle.mjs). */
const loginFirst = new Set<string>();
/** What the entries load before they run: the app's (index.html) and the receipt check's. */
const entriesFirst = new Set<string>();
const firstLoads = () => ({
  name: 'kodi-first-loads',
  buildEnd(this: ModuleGraph) {
    staticClosure(this, LOGIN_PAGE, loginFirst);
    staticClosure(this, /[\\/](index\.html|receipt\.html|src[\\/](main|receipt-main)\.tsx)$/, entriesFirst);
  },
});

const api = { '/rentapi': { target: 'http://localhost:3000', changeOrigin: false } };

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // precompress: each built file's .br and .gz, sent as they are by the server
  plugins: [react(), precompress(), firstLoads(), routePreloads(), catalogues()],
  resolve: {
    // zod, configured not to eval (the CSP has no 'unsafe-eval'), wherever it is first loaded
    alias: [
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)) },
    ],
  },
  server: { port: 5173, strictPort: true, proxy: api },
  preview: { port: 4173, proxy: api },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: scripts/check-bundle.mjs follows each page's imports to check its budget
    manifest: true,
    // The entry chunk (React, the router, MUI's core) is ~510 kB minified, ~160 KB gzipped; the gzip
    // budgets of scripts/check-bundle.mjs are the check that counts.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // two pages: the app (index.html) and the public receipt check (receipt.html, `/r/{code}`), which
      // loads React and its own page only
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        receipt: fileURLToPath(new URL('./receipt.html', import.meta.url)),
      },
      // @kodi/domain has no import side effects: its zod schemas then only ship with the pages using them.
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]packages[\\/]domain[\\/]src[\\/]/, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          // Everything the entry imports statically (React, the router, MUI's core, the top bar) in one
          // chunk: every page loads all of it anyway, and rolldown would otherwise split the modules the
          // pages share with the entry into a dozen small chunks, each compressed on its own (~4 KB more
          // gzipped on every page).
          // What the public receipt page (receipt.html) shares with the app (React, Vite's preload and modulepreload
          // helper) is a chunk of its own, so that the receipt page never loads the app's.
          groups: [
            {
              name: 'react',
              tags: ['$initial'],
              // and the pages' language (issue 30: Lingui, src/lib/i18n.ts and what it needs of @kodi/domain)
              test: /node_modules[\\/](react|react-dom|scheduler|@lingui[\\/][a-z]+)[\\/]|preload-helper|modulepreload-polyfill|src[\\/]lib[\\/]i18n\.ts$|packages[\\/]domain[\\/]src[\\/](i18n[\\/](web|languages|keys)\.ts|validation\.ts)$/,
              priority: 2,
            },
            {
              name: 'index',
              tags: ['$initial'],
              // not the receipt page's entry (receipt.html and its script)
              test: (id) => !/[\\/](receipt\.html|src[\\/]receipt-main\.tsx)$/.test(id),
              priority: 1,
            },
            // The MUI parts the login page loads before it shows, beyond the entry (the text fields,
            // links, stacks), in one chunk: the other pages share most of them, and wait for one chunk
            // instead of a dozen ~1 KB ones (issue 26: on a phone's network each request costs a round
            // trip, a few at a time). The login page loads the same code, in fewer requests.
            {
              name: 'forms',
              test: (id) =>
                loginFirst.has(id) && !entriesFirst.has(id) && /[\\/]node_modules[\\/]@mui[\\/]/.test(id),
              includeDependenciesRecursively: false,
            },
            // The entities' value formatting (field by name, a reference's text), a chunk of its own:
            // in the entities' route chunk, the upload helpers the Import page shares with the
            // entities' forms imported it from there, and the Import page counted the entities'
            // route and all it loads later (issue 30: its budget).
            {
              name: 'resource-format',
              test: /src[\\/]components[\\/]resource[\\/]format\.tsx$/,
              includeDependenciesRecursively: false,
            },
            // The rest of what two pages or more share: grouped by the pages that use them, the
            // groups under 4 kB merged into a neighbour (some code a page does not use, far fewer
            // requests). Never the login page's or the entries' first modules (their budgets).
            {
              name: 'kit',
              test: (id) => !loginFirst.has(id) && !entriesFirst.has(id),
              minShareCount: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 4_000,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
