// The web's JavaScript budget, checked after `vite build` from Vite's manifest (build.manifest).
// Gzipped (level 9, as a server would send them; 1 KB = 1,000 bytes):
//   the login page ≤ 200 KB, any page ≤ 400 KB; the public receipt check (receipt.html, its own
//   entry: `/r/{code}`) ≤ 100 KB in all.
//
// For each lazily loaded chunk of the manifest (the pages of the route table, and the parts loaded
// after a page is up) two figures:
// - first load: what a first visit to the page downloads before it shows: the entry chunk and its
//   static imports, plus the page's chunk and its static imports. The login budget applies to it.
// - in all: that plus every chunk it can load later (its dynamic imports, transitively, other pages
//   left out): the drawer, the top bar's menus, the snackbar, tooltips, the login form's validation,
//   and the page's own on-demand code, and one language's messages (the largest). An upper bound; the
//   page budget applies to it.
// `--json` prints one line of figures (for the benchmark) instead of the table.
//
// Both budgets fail the build. BUNDLE_STRICT=0 reports the login budget without failing (e.g. to
// bisect a regression); the page budget always fails.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const LOGIN_BUDGET_KB = 200;
const RECEIPT_BUDGET_KB = 100;
const RECEIPT_ENTRY = 'receipt.html';
const PAGE_BUDGET_KB = 400;
const LOGIN_PAGE = 'src/features/auth/login-page.tsx';
const ENFORCE_LOGIN_BUDGET = process.env.BUNDLE_STRICT !== '0';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifestFile = path.join(dist, '.vite', 'manifest.json');
if (!fs.existsSync(manifestFile)) {
  console.error(`check-bundle: ${manifestFile} is missing; build with build.manifest: true first.`);
  process.exit(1);
}
/** @type {Record<string, { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] }>} */
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));

const gzipped = new Map();
const sizeOf = (file) => {
  if (!gzipped.has(file))
    gzipped.set(file, gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gzipped.get(file);
};

/** The chunks a chunk needs before it runs: itself and its static imports, transitively. */
const closure = (key, keys = new Set()) => {
  if (!manifest[key] || keys.has(key)) return keys;
  keys.add(key);
  for (const imported of manifest[key].imports ?? []) closure(imported, keys);
  return keys;
};

/** A page of the route table (the lazily loaded `*-page.tsx` / `*-route.tsx` modules). */
const isPage = (key) => /-(page|route)\.tsx$/.test(manifest[key]?.src ?? key);

/**
 * A language's messages (issue 30: `virtual:kodi-catalogue/<language>[/<group>]`): a page loads one
 * language's, so its figures count the groups it can load in the language whose share is the
 * largest; a group only some pages use (`.vite/catalogue-users.json`, written by vite-catalogues.ts:
 * the chunks of the modules that name its keys) only for the pages that can load one of its users.
 */
const CATALOGUE = /^virtual:kodi-catalogue\/([a-z]+)(?:\/([a-z]+))?$/;
const groupOf = (key) => CATALOGUE.exec(key)?.[2] ?? 'base';
const languageOf = (key) => CATALOGUE.exec(key)?.[1];
const catalogueKeys = Object.keys(manifest).filter((k) => CATALOGUE.test(k));
const usersFile = path.join(dist, '.vite', 'catalogue-users.json');
/** @type {Record<string, string[]>} */
const groupUsers = fs.existsSync(usersFile) ? JSON.parse(fs.readFileSync(usersFile, 'utf8')) : {};

/** The catalogue chunks of the groups a page can load, in its largest language. */
const languageShare = (groups, files) => {
  const used = catalogueKeys.filter((k) => {
    if (!groups.has(groupOf(k))) return false;
    const users = groupUsers[groupOf(k)];
    return !users || users.some((file) => files.has(file));
  });
  const byLanguage = new Map();
  for (const k of used) byLanguage.set(languageOf(k), [...(byLanguage.get(languageOf(k)) ?? []), k]);
  const total = (keys) => keys.reduce((sum, k) => sum + sizeOf(manifest[k].file), 0);
  return [...byLanguage.values()].sort((a, b) => total(b) - total(a))[0] ?? [];
};

/** `loaded` and every chunk it can load later: dynamic imports (not other pages), transitively. */
const withLater = (loaded) => {
  const all = new Set(loaded);
  const groups = new Set();
  const queue = [...loaded];
  while (queue.length > 0) {
    for (const dynamic of manifest[queue.pop()].dynamicImports ?? []) {
      if (isPage(dynamic)) continue;
      if (CATALOGUE.test(dynamic)) {
        groups.add(groupOf(dynamic)); // counted below, one language's
        continue;
      }
      for (const key of closure(dynamic)) {
        if (all.has(key)) continue;
        all.add(key);
        queue.push(key);
      }
    }
  }
  const files = new Set([...all].map((k) => manifest[k].file));
  for (const key of languageShare(groups, files)) all.add(key);
  return all;
};

const kb = (keys) =>
  [...keys]
    .map((k) => manifest[k].file)
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + sizeOf(f), 0) / 1000;

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k !== RECEIPT_ENTRY);
if (!entryKey) {
  console.error('check-bundle: no entry chunk in the manifest.');
  process.exit(1);
}
const entry = closure(entryKey);

const chunks = Object.keys(manifest)
  .filter((k) => manifest[k].isDynamicEntry)
  .map((k) => {
    const first = closure(k, new Set(entry));
    return { page: manifest[k].src ?? k, isPage: isPage(k), kb: kb(first), totalKb: kb(withLater(first)) };
  })
  .sort((a, b) => b.totalKb - a.totalKb);
const pages = chunks.filter((c) => c.isPage);
const later = chunks.filter((c) => !c.isPage);

const login = pages.find((p) => p.page.endsWith(LOGIN_PAGE));
if (!login) {
  console.error(`check-bundle: ${LOGIN_PAGE} is not a chunk of its own (is it still lazily loaded?).`);
  process.exit(1);
}
const largest = pages[0];

// the public receipt check: its entry and everything it loads (none of the app's entry)
if (!manifest[RECEIPT_ENTRY]?.isEntry) {
  console.error(`check-bundle: ${RECEIPT_ENTRY} is not an entry of the build.`);
  process.exit(1);
}
const everything = (key, keys = new Set()) => {
  if (!manifest[key] || keys.has(key)) return keys;
  keys.add(key);
  for (const k of [...(manifest[key].imports ?? []), ...(manifest[key].dynamicImports ?? [])])
    everything(k, keys);
  return keys;
};
const receiptKb = kb(everything(RECEIPT_ENTRY));
const receiptLoadsApp = everything(RECEIPT_ENTRY).has(entryKey);
const loginOver =
  login.kb > LOGIN_BUDGET_KB
    ? `the login page needs ${login.kb.toFixed(1)} KB before it shows (budget ${LOGIN_BUDGET_KB} KB)`
    : '';
const failures = [
  ...(loginOver && ENFORCE_LOGIN_BUDGET ? [loginOver] : []),
  ...(receiptKb > RECEIPT_BUDGET_KB
    ? [`the receipt check needs ${receiptKb.toFixed(1)} KB in all (budget ${RECEIPT_BUDGET_KB} KB)`]
    : []),
  ...(receiptLoadsApp ? ['the receipt check loads the app’s entry chunk'] : []),
  ...chunks
    .filter((p) => p.totalKb > PAGE_BUDGET_KB)
    .map((p) => `${p.page} needs ${p.totalKb.toFixed(1)} KB in all (budget ${PAGE_BUDGET_KB} KB)`),
];

// BUNDLE_DETAIL=<part of a page's path>: what that page counts in all, largest first (to find what to trim)
const detail = process.env.BUNDLE_DETAIL;
if (detail) {
  const key = Object.keys(manifest).find(
    (k) => manifest[k].isDynamicEntry && (manifest[k].src ?? k).includes(detail),
  );
  if (key) {
    const files = [...withLater(closure(key, new Set(entry)))]
      .map((k) => manifest[k].file)
      .filter((f) => f.endsWith('.js'));
    for (const f of files.sort((a, b) => sizeOf(b) - sizeOf(a)))
      console.log(`${(sizeOf(f) / 1000).toFixed(1).padStart(7)} KB  ${f}`);
  }
}

if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify({
      entryKb: kb(entry),
      login: { kb: login.kb, totalKb: login.totalKb, budgetKb: LOGIN_BUDGET_KB },
      largest: { page: largest.page, kb: largest.totalKb, firstLoadKb: largest.kb, budgetKb: PAGE_BUDGET_KB },
      receipt: { kb: receiptKb, budgetKb: RECEIPT_BUDGET_KB },
      pages: pages.map(({ page, kb: firstKb, totalKb }) => ({ page, kb: firstKb, totalKb })),
    }),
  );
} else {
  const row = (p) => `  ${p.kb.toFixed(1).padStart(7)} KB ${p.totalKb.toFixed(1).padStart(9)} KB  ${p.page}`;
  console.log(`JavaScript per page, gzipped (entry ${kb(entry).toFixed(1)} KB included):`);
  console.log(`  first load      in all`);
  console.log(`${row({ ...login, page: `login page (budget ${LOGIN_BUDGET_KB} KB first load)` })}`);
  for (const p of pages) console.log(row(p));
  console.log('  loaded after a page is up:');
  for (const p of later) console.log(row(p));
  console.log(`  budget: ${PAGE_BUDGET_KB} KB a page in all`);
  console.log(
    `  the receipt check (${RECEIPT_ENTRY}, /r/{code}): ${receiptKb.toFixed(1)} KB in all (budget ${RECEIPT_BUDGET_KB} KB)`,
  );
}
if (loginOver && !ENFORCE_LOGIN_BUDGET) {
  console.error(`\n!! OVER BUDGET (not failing the build: BUNDLE_STRICT=0): ${loginOver}`);
}

// The tenant portal (portal.html, its own build: vite.portal.config.ts): everything it can ever load,
// gzipped, within its budget; and none of the staff app's chunks.
const PORTAL_BUDGET_KB = 150;
const portalManifestFile = path.join(dist, '.vite', 'portal-manifest.json');
if (fs.existsSync(portalManifestFile)) {
  const pm = JSON.parse(fs.readFileSync(portalManifestFile, 'utf8'));
  const files = new Set(
    Object.values(pm)
      .flatMap((c) => [c.file])
      .filter((f) => f.endsWith('.js')),
  );
  const portalKb = [...files].reduce((sum, f) => sum + sizeOf(f), 0) / 1000;
  const staffFiles = new Set(Object.values(manifest).map((c) => c.file));
  const shared = [...files].filter((f) => staffFiles.has(f));
  if (!process.argv.includes('--json'))
    console.log(`  tenant portal: ${portalKb.toFixed(1)} KB in all (budget ${PORTAL_BUDGET_KB} KB)`);
  if (portalKb > PORTAL_BUDGET_KB)
    failures.push(`the tenant portal needs ${portalKb.toFixed(1)} KB in all (budget ${PORTAL_BUDGET_KB} KB)`);
  if (shared.length > 0) failures.push(`the tenant portal loads the staff app's ${shared.join(', ')}`);
} else {
  failures.push(`${portalManifestFile} is missing: build the portal (vite.portal.config.ts) first.`);
}
if (failures.length > 0) {
  console.error(`\nThe bundle is over budget:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
