import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** What `dist/.vite/route-preloads.json` holds (read by the server, apps/server/src/plugins/web.ts). */
export type RoutePreloads = {
  /** each page of the route table (src/app/routes.tsx): its path and the scripts it loads before it shows */
  routes: { path: string; guard: string; files: string[] }[];
  /** an entity's list page (its routes are made from the definitions): the scripts it loads */
  entity: string[];
  /**
   * each language's catalogue (`virtual:kodi-catalogue/<language>`): the app shows nothing before
   * one is in, so the page names the one it will ask for beside the entry (issue 26)
   */
  catalogues: Record<string, string>;
};

const ROUTES = 'src/app/routes.tsx';
/** `path: '/x', guard: …, ...lazyPage(() => import('…'), …)`: each route of the table, as written there */
const ROUTE = /path: '([^']+)',\s*guard: ([^\n]+?),?\n\s*\.\.\.lazyPage\(\s*\(\) => import\('([^']+)'\)/g;

type OutputChunk = {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  isEntry: boolean;
  imports: string[];
};

/**
 * Writes, for each page of the route table, the scripts its first visit needs beyond the entry's own
 * (the page's chunk and its static imports, transitively), so that the server names them in the
 * page's HTML (`<link rel="modulepreload">`): a phone then fetches the page's code beside the entry
 * instead of after it (issue 26). The route table is read from its source (src/app/routes.tsx): a
 * route written otherwise than the others fails the build rather than being left out silently.
 */
export const routePreloads = (): Plugin => {
  let root = '';
  let outDir = '';
  return {
    name: 'kodi-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = config.build.outDir;
    },
    writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is typeof c & OutputChunk => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, into = new Set<string>()) => {
        if (into.has(file)) return into;
        into.add(file);
        for (const imported of byFile.get(file)?.imports ?? []) closure(imported, into);
        return into;
      };
      const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('index.html'));
      if (!entry) return; // another build (the portal's)
      const inEntry = closure(entry.fileName);
      const chunkOf = (source: string) => {
        const found = chunks.find((c) => c.facadeModuleId === source);
        if (!found) throw new Error(`route-preloads: no chunk for ${source}`);
        return found.fileName;
      };
      const needs = (...sources: string[]) => {
        const files = new Set<string>();
        for (const source of sources) closure(chunkOf(source), files);
        return [...files].filter((f) => !inEntry.has(f)).map((f) => `/${f}`);
      };
      const routesFile = path.join(root, ROUTES);
      const text = fs.readFileSync(routesFile, 'utf8');
      const routes = [...text.matchAll(ROUTE)].map(([, routePath, guard, specifier]) => ({
        path: routePath as string,
        guard: (guard as string).replaceAll(/\s+/g, ' '),
        files: needs(path.resolve(path.dirname(routesFile), specifier as string)),
      }));
      const written = [...text.matchAll(/^ {4}path: '([^']+)'/gm)].map((m) => m[1]).filter((p) => p !== '*');
      const missing = written.filter((p) => !routes.some((r) => r.path === p));
      if (missing.length > 0) throw new Error(`route-preloads: routes not understood: ${missing.join(', ')}`);
      const app = (file: string) => path.join(root, 'src', 'app', file);
      const catalogues = Object.fromEntries(
        chunks.flatMap((c) => {
          const language = /virtual:kodi-catalogue\/([a-z]+)$/.exec(c.facadeModuleId ?? '')?.[1];
          return language ? [[language, `/${c.fileName}`]] : [];
        }),
      );
      const preloads: RoutePreloads = {
        routes,
        entity: needs(app('entity-routes.tsx'), app('entity-route.tsx')),
        catalogues,
      };
      fs.mkdirSync(path.join(outDir, '.vite'), { recursive: true });
      fs.writeFileSync(path.join(outDir, '.vite', 'route-preloads.json'), JSON.stringify(preloads, null, 1));
    },
  };
};
