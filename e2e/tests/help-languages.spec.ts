import { expect, test, type Page } from '@playwright/test';
import { addUser, signIn, staffCall } from './helpers.ts';

// The language walks run with E2E_LANGUAGES=1 (`npm run test:languages`): CI's 30 minutes have no room
// for them beside the suite (docs/decisions.md, 'CI time').
test.skip(!process.env.E2E_LANGUAGES, 'the language walks run with E2E_LANGUAGES=1');

/**
 * The Help Center in Kiswahili and French (issue 30): a staff user's language (the browser's stays
 * English), and a visitor's browser before sign-in. Each at 1366 and 360 px, screenshots in
 * docs/screenshots (looked at: nothing cut, nothing wider than the screen).
 */

const SIZES = [
  { name: '1366', viewport: { width: 1366, height: 900 } },
  { name: '360', viewport: { width: 360, height: 740 } },
] as const;
const SHOTS = 'docs/screenshots';

const texts = {
  sw: {
    title: 'Kituo cha msaada',
    first: 'Kuanza',
    last: 'Msamiati',
    payments: 'Malipo',
    units: 'Nyumba',
    search: 'Tafuta katika msaada',
    expandAll: 'Fungua zote',
    collapseAll: 'Funga zote',
    // a word of the payments' topic only
    find: 'RCT-000001 risiti',
    found: 'Mada 2 zinalingana na utafutaji wako.',
    sheet: 'Jedwali la pamoja: wapangaji, mikataba na salio katika faili moja',
    sheetWord: 'Okello',
    stuck: 'Bado umekwama?',
  },
  fr: {
    title: 'Centre d’aide',
    first: 'Premiers pas',
    last: 'Glossaire',
    payments: 'Paiements',
    units: 'Logements',
    search: 'Rechercher dans l’aide',
    expandAll: 'Tout déplier',
    collapseAll: 'Tout replier',
    // without its accent: 'reçu'
    find: 'RCT-000001 recu',
    found: '2 sujets correspondent à votre recherche.',
    sheet: 'Le fichier combiné\u00a0: locataires, baux et soldes en un seul fichier',
    sheetWord: 'Okello',
    stuck: 'Toujours bloqué\u202f?',
  },
} as const;

/** Nothing wider than the screen (French and Swahili run longer than English). */
const fitsTheScreen = async (page: Page) =>
  expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);

const checkHelp = async (page: Page, language: keyof typeof texts, shot: string) => {
  const words = texts[language];
  await page.goto('/help');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.getByRole('heading', { name: words.title, level: 1 })).toBeVisible({ timeout: 30_000 });
  const first = page.getByRole('button', { name: words.first, exact: true });
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('button', { name: words.units, exact: true })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await expect(page.getByRole('heading', { name: words.stuck })).toBeVisible();
  await fitsTheScreen(page);
  await page.screenshot({ path: `${SHOTS}/${shot}.png`, fullPage: true });

  await page.getByRole('button', { name: words.expandAll }).click();
  await expect(page.getByRole('button', { name: words.last, exact: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await fitsTheScreen(page);
  await page.getByRole('button', { name: words.collapseAll }).click();
  await expect(first).toHaveAttribute('aria-expanded', 'false');

  // the search reads the language's own words
  await page.getByLabel(words.search).fill(words.find);
  await expect(page.getByRole('button', { name: words.payments, exact: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(page.getByRole('button', { name: words.units, exact: true })).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: words.found })).toBeVisible();
  // the longest title, open
  await page.getByLabel(words.search).fill(words.sheetWord);
  const sheet = page.getByRole('button', { name: words.sheet, exact: true });
  await expect(sheet).toHaveAttribute('aria-expanded', 'true');
  await fitsTheScreen(page);
  await page.screenshot({ path: `${SHOTS}/${shot}-search.png`, fullPage: true });
};

test('the Help Center speaks the user’s language, and the visitor’s browser’s', async ({ page, browser }) => {
  test.setTimeout(300_000);
  await signIn(page);
  await expect(page.getByRole('heading', { name: /Dashboard/ })).toBeVisible();
  const user = await addUser(page, ['viewer'], 'Msaada', 'Aide');
  for (const language of ['sw', 'fr'] as const) {
    for (const size of SIZES) {
      const context = await browser.newContext({ locale: 'en-US', viewport: size.viewport });
      const staff = await context.newPage();
      await signIn(staff, user.email, user.password);
      await expect(staff.getByRole('button', { name: /toggle navigation|menyu|menu/i })).toBeVisible();
      await staffCall(staff, 'PUT', '/auth/language', { language });
      await checkHelp(staff, language, `i18n-help-${language}-${size.name}`);
      await context.close();
    }
  }
  // before sign-in: the browser's language
  const context = await browser.newContext({ locale: 'sw-TZ', viewport: SIZES[1].viewport });
  const visitor = await context.newPage();
  await visitor.goto('/help');
  await expect(visitor.getByRole('heading', { name: texts.sw.title, level: 1 })).toBeVisible({
    timeout: 30_000,
  });
  await expect(visitor.getByRole('button', { name: texts.sw.first, exact: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await context.close();
});
