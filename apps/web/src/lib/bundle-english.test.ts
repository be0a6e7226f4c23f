import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Nothing left behind (issue 30): the built staff app (apps/web/dist, `npm run -s build`) carries its
 * English sentences in the catalogues' chunks only. A string literal of three words or more that is
 * an English catalogue value (en.json) and sits in another chunk (a page's, the shell's) is a text a
 * page shows without its key. The catalogues' chunks are the builds' dynamic entries made from
 * `virtual:kodi-catalogue/…` modules (vite-catalogues.ts), as the builds' manifests
 * (`.vite/manifest.json`, `.vite/portal-manifest.json`) name them, and the Help Center's topics (the
 * English module is the English help, as help-topics.sw.ts is the Kiswahili; only the reader's loads).
 *
 * Not a finding: English that @kodi/domain's own source spells (the entities' and options'
 * definitions, the drawer's labels, the validation and error messages keep the spec's English there
 * and give the keys the pages translate; the pages import them).
 *
 * Any finding fails it (scripts/e2e.sh runs it after each build; the unit tests skip it without a
 * build). BUNDLE_SCAN_STRICT=0 only reports them (the test's annotations and the console), while
 * pages are being converted.
 */

const STRICT = process.env.BUNDLE_SCAN_STRICT !== '0';
const dist = new URL('../../dist/', import.meta.url);
const domainSource = new URL('../../../../packages/domain/src/', import.meta.url);
const built = existsSync(new URL('.vite/manifest.json', dist));

/** A minified script's string literals ('…', "…" and `…` without `${}`), unescaped. */
const LITERAL = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.|\$(?!\{))*)`/g;
const unescape = (text: string) =>
  text.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, e: string) => {
    if (e.startsWith('u{')) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if (/^[ux][0-9a-fA-F]+$/.test(e)) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', '\n': '' } as Record<string, string>)[e] ?? e;
  });
const literals = (code: string) =>
  [...code.matchAll(LITERAL)].map((m) => unescape(m[1] ?? m[2] ?? m[3] ?? ''));

const words = (text: string) => text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;

/** The English catalogue's sentences (3+ words), each with its (first) key ('auth.signIn'). */
const sentences = new Map<string, string>();
const en = JSON.parse(readFileSync(new URL('i18n/catalogues/en.json', domainSource), 'utf8')) as Record<
  string,
  Record<string, string>
>;
for (const [namespace, texts] of Object.entries(en))
  for (const [key, text] of Object.entries(texts))
    if (words(text) >= 3 && !sentences.has(text)) sentences.set(text, `${namespace}.${key}`);

/** The English @kodi/domain's source spells (its definitions'), not counted in a page's chunk. */
const domainEnglish = () => {
  const texts = new Set<string>();
  const files = readdirSync(domainSource, { recursive: true, encoding: 'utf8' }).filter(
    (f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f),
  );
  for (const file of files)
    for (const text of literals(readFileSync(new URL(file, domainSource), 'utf8'))) texts.add(text);
  return texts;
};

type Manifest = Record<string, { file: string; src?: string }>;
/** The Help Center's topics, one module per language (help-topics.ts is the English one). */
const HELP_TOPICS = /^src\/features\/help\/help-topics(\.\w+)?\.ts$/;
/** The catalogues' chunks, by the builds' manifests. */
const catalogueChunks = () => {
  const files = new Set<string>();
  for (const name of ['manifest.json', 'portal-manifest.json']) {
    const file = new URL(`.vite/${name}`, dist);
    if (!existsSync(file)) continue;
    for (const entry of Object.values(JSON.parse(readFileSync(file, 'utf8')) as Manifest))
      // the catalogues, and the Help Center's topics (a module per language, the reader's loaded)
      if (entry.src?.startsWith('virtual:kodi-catalogue/') || HELP_TOPICS.test(entry.src ?? ''))
        files.add(entry.file);
  }
  return files;
};

/** The built scripts: dist/*.js and dist/assets/*.js, as the manifests name them ('assets/x.js'). */
const scripts = () => [
  ...readdirSync(dist).filter((f) => f.endsWith('.js')),
  ...readdirSync(new URL('assets/', dist))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`),
];

describe('the built staff app’s English (issue 30)', () => {
  it('is in the catalogues’ chunks only', async (context) => {
    context.skip(!built, 'apps/web/dist is absent: build the web (npm run -s build) to scan its bundle');
    const catalogues = catalogueChunks();
    const allowed = domainEnglish();
    // the scan reads the catalogues' chunks as it reads the pages': English sentences are found there
    const english = [...catalogues].find((f) => /^assets\/en-/.test(f));
    expect(english, 'the English base catalogue’s chunk').toBeTruthy();
    const inCatalogue = literals(readFileSync(new URL(english ?? '', dist), 'utf8')).filter((t) =>
      sentences.has(t),
    );
    expect(inCatalogue.length, 'English sentences read in the English catalogue’s chunk').toBeGreaterThan(0);

    const findings: string[] = [];
    for (const file of scripts()) {
      if (catalogues.has(file)) continue;
      const seen = new Set<string>();
      for (const text of literals(readFileSync(new URL(file, dist), 'utf8'))) {
        const key = sentences.get(text);
        if (!key || allowed.has(text) || seen.has(text)) continue;
        seen.add(text);
        findings.push(`${file.replace(/-[\w-]{8}\.js$/, '.js')}: "${text}" is English (${key})`);
      }
    }
    for (const finding of findings) await context.annotate(finding, 'English left');
    if (findings.length > 0)
      console.warn(`English sentences outside the catalogues’ chunks:\n  ${findings.join('\n  ')}`);
    if (STRICT) expect(findings, 'English outside the catalogues').toEqual([]);
  });
});
