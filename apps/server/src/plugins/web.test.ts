import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { resetDatabase, testConfig, testDatabase, testDriver } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { validUnit } from '../test/entities.ts';

/** The answer's body as sent, decoded by its Content-Encoding. */
const decoded = (res: LightMyRequestResponse): string => {
  const raw = res.rawPayload;
  switch (res.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(raw).toString('utf8');
    case 'gzip':
      return zlib.gunzipSync(raw).toString('utf8');
    case undefined:
      return raw.toString('utf8');
    default:
      throw new Error(`unexpected content-encoding ${String(res.headers['content-encoding'])}`);
  }
};

const MAIN_SCRIPT = '/assets/index-Ab12Cd34.js';
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Kodi</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(80)}<script type="module" src="${MAIN_SCRIPT}"></script></body></html>`;
const RECEIPT_HTML = `<!doctype html><html lang="en"><head><title>Receipt check</title></head><body><div id="root"></div><script type="module" src="/assets/receipt-Ef56Gh78.js"></script></body></html>`;
const PORTAL_HTML = `<!doctype html><html lang="en"><head><title>Tenant portal</title></head><body><div id="root"></div>${'<!-- portal -->'.repeat(80)}</body></html>`;
const script = Array.from({ length: 3000 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n');

/** A built web app as `vite build` leaves it: each file with its `.br` and `.gz` next to it. */
const writeWebDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  for (const [name, text] of [
    ['index.html', INDEX_HTML],
    ['receipt.html', RECEIPT_HTML],
    ['portal.html', PORTAL_HTML],
    [MAIN_SCRIPT.slice(1), script],
  ] as const) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text, { level: 9 }));
  }
  return dir;
};

describe(`compressed answers and the web app (${testDriver})`, { timeout: 120_000 }, () => {
  let app: FastifyInstance;
  let admin: TestClient;
  let webDir: string;

  beforeAll(async () => {
    webDir = writeWebDir();
    const database = await testDatabase();
    await resetDatabase(database);
    app = await buildApp(testConfig(), database, { webDir });
    await app.ready();
    const company = await buildCompany(database);
    const user = await buildUser(database, { company_id: company.id });
    admin = new TestClient(app);
    expect((await admin.login(user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < 30; i++) {
      const res = await admin.post('/units', validUnit({ name: `Compressed ${String(i).padStart(2, '0')}` }));
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  /** A signed-in GET whose body the test decodes itself (TestClient reads JSON bodies as they come). */
  const getRaw = (url: string, headers: Record<string, string>) =>
    app.inject({
      method: 'GET',
      url: `/rentapi/api${url}`,
      headers: { ...headers, cookie: admin.cookie ?? '' },
    });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers a large list brotli or gzip by Accept-Encoding, the same JSON as uncompressed', async () => {
    const url = '/units?page_size=25&sort=name';
    const plain = await admin.get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(4000);
    const rows = plain.json() as { name: string }[];
    expect(rows).toHaveLength(25);

    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await getRaw(url, { 'accept-encoding': accept });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-total-count']).toBe('30');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(decoded(res)).toBe(plain.body);
    }
  });

  it('leaves small answers and downloads that are compressed already as they are', async () => {
    const health = await getRaw('/health', { 'accept-encoding': 'br, gzip' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });

    const xlsx = await admin.get('/units/export?fmt=xlsx', { 'accept-encoding': 'br, gzip' });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]?.rowCount).toBe(31);

    const pdf = await admin.get('/units/export?fmt=pdf', { 'accept-encoding': 'br, gzip' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('serves the main script precompressed, brotli or gzip, the same bytes once decoded', async () => {
    const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: MAIN_SCRIPT, headers });
    const plain = await get({});
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    for (const [accept, encoding, file] of [
      ['gzip, deflate, br', 'br', `${MAIN_SCRIPT}.br`],
      ['gzip', 'gzip', `${MAIN_SCRIPT}.gz`],
    ] as const) {
      const res = await get({ 'accept-encoding': accept });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers['content-type'])).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      // the file written at build, sent as it is (not compressed again at request time)
      expect(res.rawPayload.equals(fs.readFileSync(path.join(webDir, file)))).toBe(true);
      expect(decoded(res)).toBe(script);
    }
  });

  it('answers index.html for a page route asked with Accept: */* or text/html; API and asset 404s stay JSON', async () => {
    for (const accept of ['*/*', 'text/html,application/xhtml+xml,*/*;q=0.8', undefined]) {
      const res = await app.inject({
        method: 'GET',
        url: '/units',
        headers: { ...(accept ? { accept } : {}), 'accept-encoding': 'br' },
      });
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(decoded(res)).toBe(INDEX_HTML);
    }
    const deep = await app.inject({
      method: 'GET',
      url: '/payments/7/receipt?x=1',
      headers: { accept: '*/*' },
    });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toBe(INDEX_HTML);

    // a receipt's public check is a page of its own (receipt.html), not the app
    for (const url of [`/r/${'ab'.repeat(32)}`, '/r/anything/', '/r/x?utm=qr']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(decoded(res), url).toBe(RECEIPT_HTML);
    }
    for (const url of ['/r', '/r/a/b', '/reset', '/receipts/r/x']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(decoded(res), url).toBe(INDEX_HTML);
    }
    // the tenant portal's pages are its own page, never the staff app
    for (const url of ['/portal', '/portal/login', '/portal/welcome?token=abc']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(PORTAL_HTML);
    }
    expect((await app.inject({ method: 'GET', url: '/portals', headers: { accept: '*/*' } })).body).toBe(
      INDEX_HTML,
    );

    for (const [url, accept] of [
      ['/rentapi/api/no/such', '*/*'],
      ['/rentapi/api/no/such', 'text/html'],
      ['/assets/index-Missing.js', '*/*'],
      ['/logo.png', '*/*'],
      ['/units', 'application/json'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers: { accept } });
      expect(res.statusCode, `${url} ${accept}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });
});

describe(`the app's page names the scripts of the page asked (${testDriver})`, { timeout: 120_000 }, () => {
  let app: FastifyInstance;
  let webDir: string;
  const preloads = {
    routes: [
      { path: '/', guard: "'signedIn'", files: ['/assets/home-route-1.js', '/assets/kit-1.js'] },
      { path: '/login', guard: "'guest'", files: ['/assets/login-page-1.js'] },
      { path: '/about', guard: "'none'", files: ['/assets/about-page-1.js'] },
      { path: '/payments/:id/receipt', guard: "'signedIn'", files: ['/assets/receipt-page-1.js'] },
      { path: '/arrears', guard: "['admin', 'editor']", files: ['/assets/arrears-page-1.js'] },
    ],
    entity: ['/assets/entity-route-1.js', '/assets/entities-1.js'],
    catalogues: { en: '/assets/en-1.js', sw: '/assets/sw-1.js', fr: '/assets/fr-1.js' },
  };
  const links = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

  beforeAll(async () => {
    webDir = writeWebDir();
    fs.mkdirSync(path.join(webDir, '.vite'));
    fs.writeFileSync(path.join(webDir, '.vite', 'route-preloads.json'), JSON.stringify(preloads));
    app = await buildApp(testConfig(), await testDatabase(), { webDir });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const page = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });

  it("names a signed-in page's scripts, an entity list's, and the login page's when there is no session", async () => {
    const signedIn = 'kodi_sid=abc';
    for (const [url, cookie, files] of [
      ['/', signedIn, preloads.routes[0]?.files],
      ['/arrears?age=90', signedIn, preloads.routes[4]?.files],
      ['/payments/7/receipt', signedIn, preloads.routes[3]?.files],
      ['/payments', signedIn, preloads.entity],
      ['/tenants/', signedIn, preloads.entity],
      ['/units', signedIn, preloads.entity],
      // no session: the app sends a signed-in page to the login page
      ['/arrears', undefined, preloads.routes[1]?.files],
      ['/payments', undefined, preloads.routes[1]?.files],
      ['/login', undefined, preloads.routes[1]?.files],
      ['/about', undefined, preloads.routes[2]?.files],
      // a path no page has: nothing
      ['/no-such-page', signedIn, []],
    ] as const) {
      const res = await page(url, cookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      const html = decoded(res);
      // the language's catalogue first (English: no cookie, no Accept-Language), then the page's scripts
      expect(links(html), `${url} ${cookie ?? ''}`).toEqual(
        files?.length ? ['/assets/en-1.js', ...files] : [],
      );
      // an entity's list page names its list (public/early.js asks for its first page) at the start
      // of its head, signed in only; the page itself is index.html, the links at the end of its head
      const list =
        /^<!doctype html><html lang="en"><head><meta name="kodi-first-list" content="(\w+)"( data-by-property="")?>/i.exec(
          html,
        );
      const entity =
        url.startsWith('/payments?') || url === '/payments'
          ? 'payments'
          : url.startsWith('/tenants')
            ? 'tenants'
            : url === '/units'
              ? 'units'
              : null;
      expect(list?.[1] ?? null, url).toBe(cookie ? entity : null);
      // payments and units are shown by property, tenants not
      expect(list?.[2] !== undefined, url).toBe(entity !== 'tenants' && list !== null);
      expect(
        html
          .replace(/<link rel="modulepreload"[^>]*>/g, '')
          .replace(/<meta name="kodi-first-list"[^>]*>/, '')
          .replace(/<style>[^<]*<\/style>/, '')
          .replace(/<div class="kodi-shell-bar"><\/div><div class="kodi-shell-main">.*?<\/div>/, ''),
        url,
      ).toBe(INDEX_HTML);
      expect(html.indexOf('<link rel="modulepreload"'), url).toBeLessThanOrEqual(html.indexOf('</head>'));
    }
    // the receipt check and the portal are pages of their own: untouched
    expect(decoded(await page(`/r/${'ab'.repeat(32)}`, signedIn))).toBe(RECEIPT_HTML);
    expect(decoded(await page('/portal', signedIn))).toBe(PORTAL_HTML);
  });

  it("draws a signed-in page's top bar and heading in the app's language, and nothing for a page it cannot name", async () => {
    const shell = (html: string) => ({
      heading: /<h1 class="kodi-shell-h1">([^<]*)<\/h1>/.exec(html)?.[1] ?? null,
      styled: html.includes('<style>') && html.indexOf('<style>') < html.indexOf('</head>'),
    });
    for (const [url, headers, heading] of [
      ['/', {}, 'Kodi Rentals Dashboard'],
      ['/payments', {}, 'Payments'],
      ['/tenants/', {}, 'Tenants Management'],
      ['/arrears', {}, 'Arrears'],
      ['/', { cookie: 'kodi_lang=fr' }, 'Tableau de bord Kodi Rentals'],
      ['/tenants', { 'accept-language': 'sw' }, 'Usimamizi wa wapangaji'],
      ['/arrears', { 'accept-language': 'fr' }, 'Arriérés'],
    ] as const) {
      const cookie = ['kodi_sid=abc', 'cookie' in headers ? headers.cookie : ''].filter(Boolean).join('; ');
      const html = decoded(
        await app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers, cookie } }),
      );
      expect(shell(html), `${url} ${JSON.stringify(headers)}`).toEqual({ heading, styled: true });
    }
    // signed out (the app shows the sign-in page), a page it cannot name, a bare page: none
    for (const [url, cookie] of [
      ['/payments', ''],
      ['/login', ''],
      ['/payments/7/receipt', 'kodi_sid=abc'],
      ['/about', 'kodi_sid=abc'],
    ] as const) {
      const html = decoded(await page(url, cookie || undefined));
      expect(shell(html), url).toEqual({ heading: null, styled: false });
      expect(html, url).toContain('<div id="root"></div>');
    }
  });

  it("draws Arrears' first line with the signed-in user's company currency, its date left to the browser", async () => {
    const database = await testDatabase();
    const company = await buildCompany(database, { currency_code: 'KES' });
    const user = await buildUser(database, { company_id: company.id });
    const client = new TestClient(app);
    expect((await client.login(user.email, user.password)).statusCode).toBe(200);
    const line = async (headers: Record<string, string>) =>
      /<p class="kodi-shell-p" data-kodi-today="([^"]*)" data-locale="([^"]*)"><\/p>/
        .exec(
          decoded(
            await app.inject({
              method: 'GET',
              url: '/arrears',
              headers: {
                accept: 'text/html',
                ...headers,
                cookie: `${client.cookie ?? ''}; ${headers.cookie ?? ''}`,
              },
            }),
          ),
        )
        ?.slice(1);
    expect(await line({})).toEqual([
      'Leases with rent overdue on {date}, by how long each unpaid charge has been overdue (amounts in KES).',
      'en-US',
    ]);
    expect(await line({ cookie: 'kodi_lang=fr' })).toEqual([
      'Baux dont le loyer est en retard au {date}, selon l’ancienneté de chaque montant impayé (montants en KES).',
      'fr',
    ]);
    // a cookie of no session: the heading only
    const html = decoded(await page('/arrears', 'kodi_sid=nobody'));
    expect(html).toContain('<h1 class="kodi-shell-h1">Arrears</h1>');
    expect(html).not.toContain('data-kodi-today');
  });

  it("names the catalogue of the language the app will show: the one it kept, else the browser's", async () => {
    const first = async (headers: Record<string, string>) =>
      links(
        decoded(
          await app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html', ...headers } }),
        ),
      )[0];
    expect(await first({ 'accept-language': 'fr-CD,fr;q=0.9,en;q=0.8' })).toBe('/assets/fr-1.js');
    expect(await first({ 'accept-language': 'de-DE,sw-KE;q=0.5' })).toBe('/assets/sw-1.js');
    expect(await first({ 'accept-language': 'de-DE' })).toBe('/assets/en-1.js');
    // the language the app last showed in this browser wins over the browser's
    expect(await first({ 'accept-language': 'fr', cookie: 'a=1; kodi_lang=sw' })).toBe('/assets/sw-1.js');
    expect(await first({ cookie: 'kodi_lang=fr' })).toBe('/assets/fr-1.js');
    // a cookie naming no language Kodi speaks is ignored
    expect(await first({ 'accept-language': 'fr', cookie: 'kodi_lang=de' })).toBe('/assets/fr-1.js');
    expect(await first({ cookie: 'xkodi_lang=fr' })).toBe('/assets/en-1.js');
  });
});
