import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { addUser, signIn, staffCall } from './helpers.ts';

// The language walks run with E2E_LANGUAGES=1 (`npm run test:languages`): CI's 30 minutes have no room
// for them beside the suite (docs/decisions.md, 'CI time').
test.skip(!process.env.E2E_LANGUAGES, 'the language walks run with E2E_LANGUAGES=1');

/**
 * Nothing left behind (issue 30): a staff administrator working in Kiswahili, then in French, walks
 * every page of the staff app its navigation drawer links to (read from the drawer in the page, never
 * a list of pages here), and a tenant the tenant portal's tabs, at 1366 and 360 px. On each page:
 * nothing wider than the screen, a screenshot (docs/screenshots/walk-<language>-<width>-<page>.png),
 * and no English: a visible text (outside table cells and inputs: data stays as typed) that is an
 * English catalogue value of two words or more (en.json), unless the page's language says the same
 * (a proper name), is a finding, reported with its page and key.
 *
 * It fails on any finding and on any page wider than the screen. The findings, and the suspects (an
 * English-looking sentence in no catalogue: data such as a payment's details, or a text to look at),
 * are the test's annotations and `walk-findings.json` in its output folder.
 */

const WIDTHS = [1366, 360] as const;
const HEIGHT = { 1366: 900, 360: 740 } as const;
const SHOTS = 'docs/screenshots';
type Language = 'sw' | 'fr';

type Namespaces = Record<string, Record<string, string>>;
const catalogue = (language: string): Record<string, string> => {
  const namespaces = JSON.parse(
    readFileSync(
      new URL(`../../packages/domain/src/i18n/catalogues/${language}.json`, import.meta.url),
      'utf8',
    ),
  ) as Namespaces;
  return Object.fromEntries(
    Object.entries(namespaces).flatMap(([ns, texts]) =>
      Object.entries(texts).map(([key, text]) => [`${ns}.${key}`, text]),
    ),
  );
};

const normal = (text: string) => text.replace(/\s+/g, ' ').trim();
const words = (text: string) => text.split(' ').filter((w) => /\p{L}/u.test(w)).length;
/** `{name}` arguments only (no plural, select or formats): the message as a pattern of its rendered text. */
const SIMPLE_ARG = /\{\s*[\w$]+\s*\}/g;
const patternOf = (message: string): RegExp | undefined => {
  const literal = normal(message).split(SIMPLE_ARG);
  if (literal.some((part) => /[{}]/.test(part))) return undefined;
  const escaped = literal.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.+?')}$`, 'u');
};

/** The English detector: an English catalogue value of 2+ words, not the page's language's own words. */
const englishDetector = (language: Language) => {
  const en = catalogue('en');
  const own = catalogue(language);
  const ownValues = new Set(Object.values(own).map(normal));
  const exact = new Map<string, string>();
  const patterns: { key: string; english: RegExp; own?: RegExp }[] = [];
  for (const [key, message] of Object.entries(en)) {
    if (!message.includes('{')) {
      const text = normal(message);
      if (words(text) >= 2 && !ownValues.has(text) && !exact.has(text)) exact.set(text, key);
      continue;
    }
    const english = patternOf(message);
    if (!english || words(normal(message.replace(SIMPLE_ARG, ' '))) < 2) continue;
    const ownMessage = own[key];
    patterns.push({ key, english, own: ownMessage ? patternOf(ownMessage) : undefined });
  }
  return (text: string): string | undefined => {
    const key = exact.get(text);
    if (key) return key;
    if (ownValues.has(text)) return undefined;
    return patterns.find((p) => p.english.test(text) && !p.own?.test(text))?.key;
  };
};

/**
 * The page's visible texts, each once: its text nodes and the whole text of an element made of text
 * and inline parts (`{count} reminders` renders as two nodes), and the fields' placeholders; never
 * inside a table cell (data) or a field's value.
 */
const VISIBLE_TEXTS = `(() => {
  const data = 'td, [role="cell"], [role="gridcell"], input, textarea, select, [contenteditable="true"], script, style, noscript';
  const seen = new Set();
  const out = [];
  const visible = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const where = (el) => el.closest('nav') ? 'navigation' : el.closest('header') ? 'top bar' : el.closest('[role="dialog"]') ? 'dialog' : el.closest('main') ? 'page' : 'shell';
  const push = (raw, el) => {
    const text = (raw || '').replace(/\\s+/g, ' ').trim();
    if (!text || !/\\p{L}/u.test(text) || seen.has(text)) return;
    seen.add(text);
    out.push({ text, where: where(el) });
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (el && !el.closest(data) && visible(el)) push(node.nodeValue, el);
  }
  const inline = new Set(['SPAN', 'B', 'STRONG', 'EM', 'I', 'A', 'SMALL', 'ABBR', 'TIME', 'BDI']);
  for (const el of document.body.querySelectorAll('*')) {
    if (el.childNodes.length < 2 || el.closest(data) || !visible(el)) continue;
    if (![...el.children].every((c) => inline.has(c.tagName) && c.children.length === 0)) continue;
    if ((el.textContent || '').length <= 300) push(el.textContent, el);
  }
  for (const el of document.body.querySelectorAll('[placeholder]')) if (visible(el)) push(el.getAttribute('placeholder'), el);
  return out;
})()`;

/** The elements reaching past the screen's right edge (the widest first), for a readable failure. */
const PAST_THE_EDGE = `(() => {
  const edge = window.innerWidth;
  return [...document.body.querySelectorAll('*')]
    .map((el) => ({ el, right: el.getBoundingClientRect().right }))
    .filter(({ el, right }) => right > edge + 1 && el.checkVisibility())
    .sort((a, b) => b.right - a.right)
    .slice(0, 5)
    .map(({ el, right }) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '" to ' + Math.round(right) + ' px');
})()`;

type Finding = { language: Language; width: number; page: string; text: string; key: string; where: string };
type Walk = { findings: Finding[]; suspects: Finding[]; overflows: string[] };

/**
 * English that is in no catalogue yet (a page not converted): a text of three words or more, two of
 * them English words no Kiswahili or French sentence uses. Reported only (never fails the test: it
 * guesses), for the pages still to convert.
 */
const ENGLISH_WORDS = new Set(
  (
    'the and of to is are for with your you this that from be by not or it has have will can all any ' +
    'at was were been there their which when what who how before after each into than then these ' +
    'those no yet add edit delete save select choose enter please could failed loading none found'
  ).split(' '),
);
const suspect = (text: string) => {
  const all = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return all.length >= 3 && all.filter((w) => ENGLISH_WORDS.has(w)).length >= 2;
};

/** One page at one width: its screen fit, its screenshot, its English. */
const lookAt = async (
  page: Page,
  walk: Walk,
  detect: (text: string) => string | undefined,
  at: { language: Language; width: number; page: string; shot: string },
) => {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  if (overflow > 0) {
    const past = await page.evaluate<string[]>(PAST_THE_EDGE);
    walk.overflows.push(
      `${at.language} ${at.width} px ${at.page}: ${overflow} px too wide (${past.join('; ')})`,
    );
  }
  // the screen as the user first sees it (a full page of a long list at 360 px is slow and tells no more)
  await page.screenshot({ path: `${SHOTS}/walk-${at.language}-${at.width}-${at.shot}.png` });
  for (const { text, where } of await page.evaluate<{ text: string; where: string }[]>(VISIBLE_TEXTS)) {
    const key = detect(text);
    const found = { language: at.language, width: at.width, page: at.page, text, where };
    if (key) walk.findings.push({ ...found, key });
    else if (suspect(text)) walk.suspects.push({ ...found, key: 'no catalogue key' });
  }
};

/** Waits for a page's texts and data: its language, its main part, no progress indicator left. */
const settled = async (page: Page, language: Language, timeout = 5_000) => {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.locator('main').first()).toBeVisible();
  // (a list's 'Please wait' is a visually hidden status beside its progress bar)
  await expect(page.locator('.MuiCircularProgress-root:visible, .MuiLinearProgress-root:visible'))
    .toHaveCount(0, { timeout })
    .catch(() => undefined); // a page that keeps one (a poll) is looked at as it is
};

const readable = (findings: Finding[]) =>
  findings.map(
    (f) => `${f.language} ${f.width} px ${f.page} (${f.where}): "${f.text}" is English (${f.key})`,
  );

const once = (list: Finding[]) => {
  const unique = new Map<string, Finding>();
  for (const f of list)
    if (!unique.has(`${f.language} ${f.page} ${f.text}`)) unique.set(`${f.language} ${f.page} ${f.text}`, f);
  return [...unique.values()];
};

/** The findings, reported: any fails the test. */
const report = (walk: Walk) => {
  const info = test.info();
  const findings = once(walk.findings);
  const suspects = once(walk.suspects);
  const file = info.outputPath('walk-findings.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ findings, suspects, overflows: walk.overflows }, null, 2));
  for (const line of readable(findings)) info.annotations.push({ type: 'English left', description: line });
  for (const line of readable(suspects))
    info.annotations.push({ type: 'English suspected', description: line });
  if (findings.length + suspects.length > 0)
    console.log(
      [`English left (${file}):`, ...readable(findings), 'English suspected:', ...readable(suspects)].join(
        '\n  ',
      ),
    );
  expect(walk.overflows, 'pages wider than the screen').toEqual([]);
  expect(readable(findings), 'English texts in the page').toEqual([]);
};

const slug = (path: string) => path.replace(/^\/+|\/+$/g, '').replace(/[^a-z0-9]+/gi, '-') || 'home';

const walkStaffApp = async (
  browser: Browser,
  admin: { email: string; password: string },
  language: Language,
) => {
  const walk: Walk = { findings: [], suspects: [], overflows: [] };
  const detect = englishDetector(language);
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1366, height: HEIGHT[1366] },
  });
  const page = await context.newPage();
  await signIn(page, admin.email, admin.password);
  await expect(page.locator('#app-navigation')).toBeVisible({ timeout: 30_000 });
  await staffCall(page, 'PUT', '/auth/language', { language });
  await page.goto('/');
  await settled(page, language);
  // the drawer's links, once all of them are in (the entities' come with their definitions)
  const links = page.locator('#app-navigation a[href]');
  await expect(links.first()).toBeVisible();
  let hrefs: string[] = [];
  await expect
    .poll(async () => {
      const now = await page.evaluate<string[]>(
        `[...document.querySelectorAll('#app-navigation a[href]')].map((a) => a.getAttribute('href'))`,
      );
      const same = now.join() === hrefs.join();
      hrefs = now;
      return same;
    })
    .toBe(true);
  const paths = ['/', ...new Set(hrefs.filter((h) => h.startsWith('/') && h !== '/'))];
  expect(paths.length, 'the drawer’s pages').toBeGreaterThan(10);
  for (const path of paths) {
    await page.setViewportSize({ width: 1366, height: HEIGHT[1366] });
    // from the drawer, as a user goes (the app stays loaded: no page load each time)
    const link = page.locator(`#app-navigation a[href="${path}"]`);
    if (path !== '/') {
      await link.click();
      await expect(link).toHaveAttribute('aria-current', 'page');
    }
    await settled(page, language);
    for (const width of WIDTHS) {
      if (width !== 1366) {
        await page.setViewportSize({ width, height: HEIGHT[width] });
        await settled(page, language, 2_000);
      }
      await lookAt(page, walk, detect, { language, width, page: path, shot: slug(path) });
    }
  }
  await context.close();
  report(walk);
};

test.describe('nothing left behind: the pages in Kiswahili and French', () => {
  let admin: { email: string; password: string };
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signIn(page);
    await expect(page.locator('#app-navigation')).toBeVisible({ timeout: 30_000 });
    admin = await addUser(page, ['admin'], 'Walker', 'Lugha');
    await page.close();
  });

  for (const language of ['sw', 'fr'] as const) {
    test(`the staff app's drawer pages in ${language}, at 1366 and 360 px`, async ({ browser }) => {
      test.setTimeout(480_000);
      await walkStaffApp(browser, admin, language);
    });
  }

  test('the tenant portal’s tabs in sw and fr, at 1366 and 360 px', async ({ browser }) => {
    test.setTimeout(180_000);
    const page = await browser.newPage();
    await signIn(page, admin.email, admin.password);
    await expect(page.locator('#app-navigation')).toBeVisible({ timeout: 30_000 });
    const stamp = Date.now().toString(36);
    const unit = await staffCall(page, 'POST', '/units', {
      name: `Walk ${stamp}`,
      address: 'Plot 30, Kampala Road, Kampala',
      unit_type: 'apartment',
      status: 'occupied',
      monthly_rate: 850_000,
      weekly_rate: 200_000,
      daily_rate: 30_000,
    });
    const tenant = await staffCall(page, 'POST', '/tenants', {
      first_name: 'Neema',
      last_name: `Walk${stamp}`,
      sex: 'F',
      country_code: '+256',
      phone: `+2567725${String(Date.now()).slice(-5)}`,
      email: `neema-${stamp}@e2e.test`,
      date_of_birth: '1990-02-03',
      status: 'active',
    });
    await staffCall(page, 'POST', '/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 850_000,
      rent_cycle: 'monthly',
    });
    await staffCall(page, 'POST', '/payments', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      payment_date: '2026-11-05',
      amount_paid: 850_000,
      payment_method: 'mobilemoney',
      status: 'completed',
      effective_start_date: '2026-11-01',
      effective_end_date: '2026-11-30',
    });
    const setLanguage = async (language: Language) => {
      const record = await staffCall(page, 'GET', `/tenants/${String(tenant.id)}`);
      await staffCall(page, 'PUT', `/tenants/${String(tenant.id)}`, { ...record, language });
    };
    await setLanguage('sw');
    const invitation = await staffCall(page, 'POST', `/tenants/${String(tenant.id)}/invite`, {
      channel: 'email',
    });
    const link = new URL(String(invitation.link));
    const phone = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1366, height: HEIGHT[1366] },
    });
    const portal = await phone.newPage();
    await portal.goto(link.pathname + link.search);
    await portal.getByLabel('Password', { exact: true }).fill('Tenant-e2e-2026-walk');
    await portal.getByLabel('Confirm password').fill('Tenant-e2e-2026-walk');
    await portal.getByRole('button', { name: /sign in/i }).click();
    const walk: Walk = { findings: [], suspects: [], overflows: [] };
    for (const language of ['sw', 'fr'] as const) {
      if (language === 'fr') {
        await setLanguage('fr');
        await portal.setViewportSize({ width: 1366, height: HEIGHT[1366] });
        await portal.reload();
      }
      const detect = englishDetector(language);
      const tabs = portal.locator('nav.tabs button');
      await expect(tabs.first()).toBeVisible({ timeout: 30_000 });
      await expect(portal.locator('html')).toHaveAttribute('lang', language);
      const own = catalogue(language);
      const names = await tabs.allInnerTexts();
      for (const [index, name] of names.entries()) {
        // the tab's name in the screenshot's: its catalogue key ('portal.tabPayments' → payments)
        const key = Object.keys(own).find((k) => k.startsWith('portal.tab') && own[k] === normal(name));
        const shot = `portal-${key ? key.slice('portal.tab'.length).toLowerCase() : String(index + 1)}`;
        await portal.setViewportSize({ width: 1366, height: HEIGHT[1366] });
        await tabs.nth(index).click();
        await expect(tabs.nth(index)).toHaveAttribute('aria-current', 'page');
        for (const width of WIDTHS) {
          await portal.setViewportSize({ width, height: HEIGHT[width] });
          await expect(portal.getByText(own['common.loading'] ?? '…', { exact: true }))
            .toHaveCount(0, { timeout: 10_000 })
            .catch(() => undefined);
          await lookAt(portal, walk, detect, { language, width, page: `portal ${shot.slice(7)}`, shot });
        }
      }
    }
    await phone.close();
    await page.close();
    report(walk);
  });
});
