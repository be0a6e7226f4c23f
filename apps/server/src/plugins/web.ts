import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { DEFAULT_CURRENCY, entityList } from '@kodi/domain';
import { catalogues } from '@kodi/domain/i18n';
import { intlLocales, isLanguage, preferredLanguage, type Language } from '@kodi/domain/i18n/web';
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

/** Text for an HTML element's content. */
const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * The heading of a signed-in page the app shows under its top bar, in `language`, when the server
 * can name it before the app runs: Home, Arrears and the entities' list pages (issue 26).
 */
export const pageHeading = (pathname: string, language: Language): string | undefined => {
  const text = (key: string, english: string) => catalogues[language][key] ?? english;
  const route = pathname.replace(/\/+$/, '') || '/';
  if (route === '/') return text('dashboard.title', catalogues.en['dashboard.title'] ?? '');
  if (route === '/arrears') return text('arrears.title', catalogues.en['arrears.title'] ?? '');
  const def = entityList.find((d) => d.page.path === route);
  return def && text(`entity.${def.name}.title`, def.ui.title);
};

/**
 * The page's frame drawn by its HTML (issue 26): the top bar's band and the page's heading where the
 * app draws them (MUI's AppBar, Toolbar and an h4 h1: apps/web/src/app/app-shell.tsx), so that a
 * phone shows the heading at its first paint instead of after the entry and the page's code have
 * run. It is inside #root: the app's first render replaces it (nothing of it moves, no layout shift).
 */
export const SHELL_STYLE =
  '<style>body{margin:0;background:#f5f7fb}' +
  '.kodi-shell-bar{position:fixed;top:0;left:0;right:0;height:56px;background:#1565c0;z-index:1201;' +
  'box-shadow:0 2px 1px -1px rgba(0,0,0,.2),0 1px 1px 0 rgba(0,0,0,.14),0 1px 3px 0 rgba(0,0,0,.12)}' +
  '.kodi-shell-main{padding:72px 16px 16px}' +
  '.kodi-shell-h1{margin:0;font-family:Roboto,system-ui,-apple-system,"Segoe UI","Helvetica Neue",Arial,sans-serif;' +
  'font-weight:400;font-size:2.125rem;line-height:1.235;color:rgba(0,0,0,.87)}' +
  '@media (orientation:landscape){.kodi-shell-bar{height:48px}.kodi-shell-main{padding-top:64px}}' +
  '@media (min-width:600px){.kodi-shell-bar{height:64px}.kodi-shell-main{padding-top:80px}}' +
  '.kodi-shell-p{margin:0;font-family:Roboto,system-ui,-apple-system,"Segoe UI","Helvetica Neue",Arial,sans-serif;' +
  'font-weight:400;font-size:.875rem;line-height:1.43;color:rgba(0,0,0,.6)}' +
  '@media (min-width:900px){.kodi-shell-main{margin-left:248px;padding:88px 24px 24px}}</style>';

/**
 * What the page's HTML draws above the app: its heading, and for Arrears the line under it (its
 * largest text), whose date, the browser's day, public/early.js writes in (`data-kodi-today`).
 */
export type PageShell = { heading: string; today?: { text: string; locale: string } };

export const pageShell = ({ heading, today }: PageShell) =>
  '<div class="kodi-shell-bar"></div><div class="kodi-shell-main">' +
  `<h1 class="kodi-shell-h1">${escapeHtml(heading)}</h1>` +
  (today
    ? `<p class="kodi-shell-p" data-kodi-today="${escapeHtml(today.text)}" data-locale="${escapeHtml(today.locale)}"></p>`
    : '') +
  '</div>';

/** The signed-in user's company as far as a page's HTML needs it (the Arrears page's currency). */
export type PageCompany = (request: FastifyRequest) => Promise<{ currency: string | null } | null>;

/** The page's shell, or none when the server cannot tell its heading (or, on Arrears, its currency). */
export const shellOf = async (
  request: FastifyRequest,
  pathname: string,
  language: Language,
  company: PageCompany | undefined,
): Promise<PageShell | undefined> => {
  const heading = pageHeading(pathname, language);
  if (!heading) return undefined;
  if ((pathname.replace(/\/+$/, '') || '/') !== '/arrears' || !company) return { heading };
  const found = await company(request).catch(() => null);
  if (!found) return { heading };
  // the app's own default currency when the company has none (apps/web/src/lib/resources.ts)
  const currency = found.currency || DEFAULT_CURRENCY;
  const intro = catalogues[language]['arrears.intro'] ?? catalogues.en['arrears.intro'] ?? '';
  return {
    heading,
    today: { text: intro.replaceAll('{currency}', currency), locale: intlLocales[language] },
  };
};

/**
 * The built web app at /, its files served precompressed (`.br`, `.gz` written next to them at
 * build, apps/web/vite-precompress.ts) by the client's Accept-Encoding; a client route answers
 * index.html (isPageRequest), anything else not found the API's JSON 404.
 */
export const registerWeb = async (app: FastifyInstance, webDir: string, company?: PageCompany) => {
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
  app.setNotFoundHandler(async (request, reply) => {
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
        const language = pageLanguage(request);
        const shell =
          signedIn && !process.env.KODI_NO_SHELL
            ? await shellOf(request, pathname, language, company)
            : undefined;
        const head = list ? html.replace('<head>', `<head>${firstListTag(list)}`) : html;
        const body = shell
          ? head.replace('<div id="root"></div>', `<div id="root">${pageShell(shell)}</div>`)
          : head;
        return reply
          .header('Cache-Control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(body.replace('</head>', `${shell ? SHELL_STYLE : ''}${links}</head>`));
      }
      return reply.header('Cache-Control', 'no-cache').sendFile(page, { cacheControl: false });
    }
    return reply.code(404).send({ error: 'Not found.', code: 'not_found' });
  });
};
