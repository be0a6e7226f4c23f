import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

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
      return reply.header('Cache-Control', 'no-cache').sendFile(page, { cacheControl: false });
    }
    return reply.code(404).send({ error: 'Not found.', code: 'not_found' });
  });
};
