import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { entityList } from '@kodi/domain';
import { isLanguage, preferredLanguage, type Language } from '@kodi/domain/i18n/web';
import { SESSION_COOKIE } from './session.ts';

/**
 * A request the web app answers with its index.html: a GET outside the API and the built assets,
 * for a path without a file extension (a client route: /units, /payments/7/receipt), from a
 * client that takes HTML (`text/html`, any type, or no Accept at all). A missing script or image
 * (`/assets/x.js`, `/logo.png`) stays a 404: HTML in its place would only hide the error.
 */
export const isPageRequest = (request: FastifyRequest) => {
  if (request.method !== 'GET') return false;
  const pathname = request.url.split('?', 1)[0] ?? '';
  if (pathname.startsWith('/rentapi') || pathname.startsWith('/assets/')) return false;
  if (/\.[a-z0-9]+$/i.test(pathname)) return false;
  const accept = request.headers.accept;
  return !accept || accept.includes('text/html') || accept.includes('*/*');
};

/** The page of `/r/{code}`: a receipt's public check (apps/web/receipt.html). */
export const RECEIPT_PAGE = 'receipt.html';
export const isReceiptCheck = (request: FastifyRequest) => /^\/r\/[^/?]+\/?(\?|$)/.test(request.url);
/**
 * A page of the portals: the tenant portal's `/portal` and the owner portal's `/owner` (issue 27: the
 * same page, its owner view), and what is under them (never the staff app's `/owners`).
 */
export const isPortalPage = (request: FastifyRequest) => /^\/(portal|owner)(\/|$|\?)/.test(request.url);

/** `dist/.vite/route-preloads.json`, written by the web's build (apps/web/vite-route-preloads.ts). */
type RoutePreloads = {
  routes: { path: string; guard: string; files: string[] }[];
  entity: string[];
  catalogues?: Record<string, string>;
};

/** The cookie the web app keeps the language it shows in (apps/web/src/lib/i18n.ts). */
export const LANGUAGE_COOKIE = 'kodi_lang';

/**
 * The language the app will show a page in, as far as the server can tell before it runs: the one
 * it last showed in this browser (its cookie), else the browser's (Accept-Language), as the app's
 * own first choice does (`initialLanguage`).
 */
export const pageLanguage = (request: FastifyRequest): Language => {
  const kept = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]+)`).exec(request.headers.cookie ?? '')?.[1];
  return isLanguage(kept) ? kept : preferredLanguage(request.headers['accept-language']);
};

/**
 * What a page's HTML names: the scripts its first visit needs, and for an entity's list page the
 * list its first screen shows, which public/early.js asks for beside the scripts (issue 26).
 */
export type PagePreloads = { files: string[]; list?: { entity: string; byProperty: boolean } };

/** The tag that tells public/early.js which list the page shows first (put before early.js's tag). */
export const firstListTag = (list: NonNullable<PagePreloads['list']>) =>
  `<meta name="kodi-first-list" content="${list.entity}"${list.byProperty ? ' data-by-property=""' : ''}>`;

/**
 * The scripts each page's first visit needs beyond the entry's, from the web build's
 * route-preloads.json: `(pathname, signedIn, language) => { files, list }`. A page for signed-in users asked
 * without a session cookie preloads the login page's instead (where the app will send it). Every page
 * of the app also names its language's catalogue: the app renders once it is in, and would otherwise
 * ask for it only after the entry has run (issue 26). None without the file.
 */
export const routePreloadsOf = (webDir: string) => {
  const file = path.join(webDir, '.vite', 'route-preloads.json');
  if (!fs.existsSync(file)) return undefined;
  const preloads = JSON.parse(fs.readFileSync(file, 'utf8')) as RoutePreloads;
  const pattern = (routePath: string) =>
    new RegExp(`^${routePath.replaceAll(/:[^/]+/g, '[^/]+').replaceAll(/[.]/g, '\\.')}/?$`);
  type Route = { test: RegExp; open: boolean; files: string[]; list?: PagePreloads['list'] };
  const routes: Route[] = [
    ...preloads.routes.map((r) => ({
      test: pattern(r.path),
      open: /^'(none|guest)'$/.test(r.guard),
      files: r.files,
    })),
    // the entities' list pages, from their definitions (the web's router adds them the same way)
    ...entityList.map((def) => ({
      test: pattern(def.page.path),
      open: false,
      files: preloads.entity,
      list: { entity: def.name, byProperty: def.byProperty === true },
    })),
  ];
  const login = routes.find((r) => r.test.test('/login'));
  return (pathname: string, signedIn: boolean, language: Language): PagePreloads => {
    const route = routes.find((r) => r.test.test(pathname));
    if (!route) return { files: [] };
    const catalogue = preloads.catalogues?.[language];
    const files = [
      ...(catalogue ? [catalogue] : []),
      ...(route.open || signedIn ? route.files : (login?.files ?? [])),
    ];
    return route.list && signedIn ? { files, list: route.list } : { files };
  };
};

/**
 * The built web app at /, its files served precompressed (`.br`, `.gz` written next to them at
 * build, apps/web/vite-precompress.ts) by the client's Accept-Encoding; a client route answers
 * index.html (isPageRequest), anything else not found the API's JSON 404.
 */
export const registerWeb = async (app: FastifyInstance, webDir: string) => {
  const hasWeb = fs.existsSync(path.join(webDir, 'index.html'));
  // the public receipt check (`/r/{code}`, a receipt's QR code) is a page of its own: none of the app
  const hasReceiptPage = fs.existsSync(path.join(webDir, RECEIPT_PAGE));
  const hasPortal = fs.existsSync(path.join(webDir, 'portal.html'));
  // the app's page names the scripts of the page asked (issue 26: a phone fetches them beside the
  // entry's instead of after it has run), when the build wrote them down
  // (read again when a new build has replaced them)
  let built: { at: number; preloadsOf: ReturnType<typeof routePreloadsOf>; html: string } | undefined;
  const preloaded = () => {
    const at = fs.statSync(path.join(webDir, 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (built?.at !== at) {
      const preloadsOf = routePreloadsOf(webDir);
      built = {
        at,
        preloadsOf,
        html: preloadsOf ? fs.readFileSync(path.join(webDir, 'index.html'), 'utf8') : '',
      };
    }
    return built;
  };
  if (hasWeb) {
    // files under assets/ are named by their content's hash: kept a year without asking again, so
    // a page load does not revalidate every chunk; index.html is always asked (no-cache, below)
    const assetsDir = `${path.sep}assets${path.sep}`;
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(assetsDir)) res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (hasWeb && isPageRequest(request)) {
      // always asked again (its scripts' names change with each build); send's own `max-age=0` left out;
      // the receipt check and the portals are pages of their own, never the staff app
      const page =
        hasReceiptPage && isReceiptCheck(request)
          ? RECEIPT_PAGE
          : hasPortal && isPortalPage(request)
            ? 'portal.html'
            : 'index.html';
      const { preloadsOf, html } = page === 'index.html' ? preloaded() : { preloadsOf: undefined, html: '' };
      if (preloadsOf) {
        const pathname = request.url.split('?', 1)[0] ?? '/';
        const signedIn = (request.headers.cookie ?? '').includes(`${SESSION_COOKIE}=`);
        const { files, list } = preloadsOf(pathname, signedIn, pageLanguage(request));
        const links = files.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`).join('');
        const head = list ? html.replace('<head>', `<head>${firstListTag(list)}`) : html;
        return reply
          .header('Cache-Control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(head.replace('</head>', `${links}</head>`));
      }
      return reply.header('Cache-Control', 'no-cache').sendFile(page, { cacheControl: false });
    }
    return reply.code(404).send({ error: 'Not found.', code: 'not_found' });
  });
};
