import { expect, test, type Browser, type Page } from '@playwright/test';
import { addUser, API, sessionOf, signIn } from './helpers.ts';

/**
 * Kiswahili and French (issue 30), the first pages: sign-in and register follow the browser's language
 * (and the switcher), the tenant portal the tenant's language (set by staff on its record, whatever
 * the browser's), the public receipt page the browser's. Each at 1366 and 360 px, screenshots in
 * docs/screenshots (looked at: nothing cut, nothing wider than the screen).
 */

const SIZES = [
  { name: '1366', viewport: { width: 1366, height: 900 } },
  { name: '360', viewport: { width: 360, height: 740 } },
] as const;
const LOCALES = { sw: 'sw-KE', fr: 'fr-FR' } as const;
const SHOTS = 'docs/screenshots';

/** Nothing wider than the screen (French and Swahili run longer than English). */
const fitsTheScreen = async (page: Page) =>
  expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);

const shoot = async (page: Page, name: string) => {
  await fitsTheScreen(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

/** A JSON call with the staff page's session (its CSRF token). */
const staffCall = async <T>(page: Page, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown) => {
  const { csrf } = await sessionOf(page);
  const res = await page.request.fetch(`${API}${url}`, {
    method,
    headers: { 'X-CSRF-Token': csrf },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
};

const inLanguage = (browser: Browser, language: keyof typeof LOCALES, size: (typeof SIZES)[number]) =>
  browser.newContext({ locale: LOCALES[language], viewport: size.viewport });

test('sign-in and register follow the browser’s language, and the switcher', async ({ browser }) => {
  test.setTimeout(300_000);
  const texts = {
    sw: { signIn: 'Ingia', login: 'Ingia', register: 'Fungua akaunti', forgot: 'Umesahau nenosiri?' },
    fr: {
      signIn: 'Connexion',
      login: 'Se connecter',
      register: 'Créer un compte',
      forgot: 'Mot de passe oublié',
    },
  };
  for (const language of ['sw', 'fr'] as const) {
    for (const size of SIZES) {
      const context = await inLanguage(browser, language, size);
      const page = await context.newPage();
      await page.goto('/login');
      // the first page of a cold server on a busy machine can take a while
      await expect(page.getByRole('heading', { name: texts[language].signIn })).toBeVisible({
        timeout: 30_000,
      });
      await expect(page.getByRole('button', { name: texts[language].login, exact: true })).toBeVisible();
      await expect(page.getByText(texts[language].forgot)).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await shoot(page, `i18n-login-${language}-${size.name}`);
      await page.goto('/register');
      await expect(page.getByRole('heading', { name: texts[language].register })).toBeVisible();
      await shoot(page, `i18n-register-${language}-${size.name}`);
      await context.close();
    }
  }
  // an English browser: English, the spec's words; the switcher changes the page and is kept
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'Français' }).click();
  await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Langue' }).getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await context.close();
});

test('the tenant portal speaks the tenant’s language; the receipt page the browser’s', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  await expect(page.getByRole('heading', { name: /Dashboard/ })).toBeVisible();
  // a tenant (its language: Kiswahili) with a lease and a completed payment
  const stamp = Date.now().toString(36);
  const unit = await staffCall<{ id: number }>(page, 'POST', '/units', {
    name: `Lugha ${stamp}`,
    address: 'Plot 30, Kampala Road, Kampala',
    unit_type: 'apartment',
    status: 'occupied',
    monthly_rate: 1_234_567,
    weekly_rate: 300_000,
    daily_rate: 45_000,
  });
  const created = await staffCall<{ id: number }>(page, 'POST', '/tenants', {
    first_name: 'Amina',
    last_name: `Juma${stamp}`,
    sex: 'F',
    country_code: '+256',
    phone: `+2567724${String(Date.now()).slice(-5)}`,
    email: `amina-${stamp}@e2e.test`,
    date_of_birth: '1991-04-05',
    status: 'active',
  });
  const tenantId = created.id;
  await staffCall(page, 'POST', '/occupancy', {
    tenant_id: tenantId,
    unit_id: unit.id,
    start_date: '2026-01-01',
    rate: 1_234_567,
    rent_cycle: 'monthly',
  });
  const payment = await staffCall<{ id: number }>(page, 'POST', '/payments', {
    tenant_id: tenantId,
    unit_id: unit.id,
    payment_date: '2026-11-05',
    amount_paid: 1_234_567,
    payment_method: 'mobilemoney',
    status: 'completed',
    effective_start_date: '2026-11-01',
    effective_end_date: '2026-11-30',
  });
  const setLanguage = async (language: string) => {
    const tenant = await staffCall<Record<string, unknown>>(page, 'GET', `/tenants/${tenantId}`);
    await staffCall(page, 'PUT', `/tenants/${tenantId}`, { ...tenant, language });
  };
  await setLanguage('sw');
  const invitation = await staffCall<{ link: string | null }>(page, 'POST', `/tenants/${tenantId}/invite`, {
    channel: 'email',
  });
  expect(invitation.link).toBeTruthy();
  const link = new URL(invitation.link ?? '');

  // the tenant's browser is English: the portal follows the tenant's language once signed in
  const phone = await browser.newContext({ locale: 'en-US', viewport: SIZES[1].viewport });
  const tenant = await phone.newPage();
  await tenant.goto(link.pathname + link.search);
  await tenant.getByLabel('Password', { exact: true }).fill('Tenant-e2e-2026-lang');
  await tenant.getByLabel('Confirm password').fill('Tenant-e2e-2026-lang');
  await tenant.getByRole('button', { name: /sign in/i }).click();
  const portalTexts = {
    sw: { tab: 'Malipo', signOut: 'Toka', pay: 'Pakua taarifa ya akaunti' },
    fr: { tab: 'Paiements', signOut: 'Se déconnecter', pay: 'Télécharger le relevé' },
  };
  for (const language of ['sw', 'fr'] as const) {
    if (language === 'fr') {
      await setLanguage('fr');
      await tenant.reload();
    }
    await expect(tenant.getByRole('button', { name: portalTexts[language].signOut })).toBeVisible();
    await expect(tenant.getByRole('button', { name: portalTexts[language].tab })).toBeVisible();
    await expect(tenant.getByRole('button', { name: portalTexts[language].pay }).first()).toBeVisible();
    await shoot(tenant, `i18n-portal-${language}-360`);
    await tenant.setViewportSize(SIZES[0].viewport);
    await shoot(tenant, `i18n-portal-${language}-1366`);
    await tenant.setViewportSize(SIZES[1].viewport);
  }
  await phone.close();

  // the public receipt page: the browser's language
  const receipt = await staffCall<{ receipt_url: string }>(
    page,
    'GET',
    `/payments/${payment.id}/receipt-link`,
  );
  const receiptPath = new URL(receipt.receipt_url).pathname;
  const titles = { sw: 'Risiti imethibitishwa', fr: 'Reçu vérifié' };
  for (const language of ['sw', 'fr'] as const) {
    for (const size of SIZES) {
      const context = await inLanguage(browser, language, size);
      const visitor = await context.newPage();
      await visitor.goto(receiptPath);
      await expect(visitor.getByRole('heading', { name: titles[language] })).toBeVisible();
      await shoot(visitor, `i18n-receipt-${language}-${size.name}`);
      await context.close();
    }
  }
});

test('the staff app speaks the user’s language: the shell, an entity list and its form', async ({
  page,
  browser,
}) => {
  test.setTimeout(400_000);
  await signIn(page);
  await expect(page.getByRole('heading', { name: /Dashboard/ })).toBeVisible();
  // a staff user of its own, whose language the test changes (the browser's stays English)
  const user = await addUser(page, ['editor'], 'Lugha', 'Langue');
  const texts = {
    sw: {
      title: 'Usimamizi wa wapangaji',
      search: 'Tafuta wapangaji (jina, simu)',
      add: 'Mpangaji mpya',
      column: 'Jina la kwanza',
      balance: 'Salio',
      sex: 'Jinsia',
      drawer: 'Wapangaji',
      section: 'Shughuli',
      cancel: 'Ghairi',
      menu: 'Onyesha au ficha menyu',
      home: 'Dashibodi ya Kodi Rentals',
      card: 'Nyumba zilizo wazi',
      arrears: 'Malimbikizo',
      arrearsSearch: 'Tafuta malimbikizo (mpangaji, nyumba)',
      details: 'Maelezo ya mpangaji',
      view: 'Angalia maelezo',
      leases: 'Mikataba ya upangaji',
      close: 'Funga',
    },
    fr: {
      title: 'Gestion des locataires',
      search: 'Rechercher des locataires (nom, téléphone)',
      add: 'Nouveau locataire',
      column: 'Prénom',
      balance: 'Solde',
      sex: 'Sexe',
      drawer: 'Locataires',
      section: 'Opérations',
      cancel: 'Annuler',
      menu: 'Afficher ou masquer le menu',
      home: 'Tableau de bord Kodi Rentals',
      card: 'Logements disponibles',
      arrears: 'Arriérés',
      arrearsSearch: 'Rechercher des arriérés (locataire, logement)',
      details: 'Détails du locataire',
      view: 'Voir les détails',
      leases: 'Baux',
      close: 'Fermer',
    },
  };
  for (const language of ['sw', 'fr'] as const) {
    const words = texts[language];
    for (const size of SIZES) {
      const context = await browser.newContext({ locale: 'en-US', viewport: size.viewport });
      const staff = await context.newPage();
      await signIn(staff, user.email, user.password);
      await expect(staff.getByRole('button', { name: /toggle navigation|menyu|menu/i })).toBeVisible();
      await staffCall(staff, 'PUT', '/auth/language', { language });
      // Home: the top bar and the drawer in the user's language
      await staff.goto('/');
      await expect(staff.locator('html')).toHaveAttribute('lang', language);
      await expect(staff.getByRole('heading', { name: words.home })).toBeVisible();
      await expect(staff.getByRole('heading', { name: words.card }).first()).toBeVisible();
      const menu = staff.getByRole('button', { name: words.menu });
      await expect(menu).toBeVisible();
      if (size.name === '360') await menu.click();
      const navigation = staff.getByRole('navigation', {
        name: language === 'sw' ? 'Menyu kuu' : 'Navigation principale',
      });
      await expect(navigation.getByRole('link', { name: words.drawer, exact: true })).toBeVisible();
      await expect(navigation.getByText(words.section, { exact: true })).toBeVisible();
      await shoot(staff, `i18n-staff-home-${language}-${size.name}`);
      // the tenants' list, from the drawer
      await navigation.getByRole('link', { name: words.drawer, exact: true }).click();
      await expect(staff.getByRole('heading', { name: words.title })).toBeVisible();
      await expect(staff.getByLabel(words.search)).toBeVisible();
      if (size.name === '1366')
        await expect(staff.getByRole('columnheader', { name: words.column })).toBeVisible();
      else await expect(staff.getByText(words.balance, { exact: true }).first()).toBeVisible();
      await shoot(staff, `i18n-staff-tenants-${language}-${size.name}`);
      // its form
      await staff.getByRole('button', { name: words.add }).click();
      const dialog = staff.getByRole('dialog', { name: words.add });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel(words.sex)).toBeVisible();
      await expect(dialog.getByRole('button', { name: words.cancel })).toBeVisible();
      await fitsTheScreen(staff);
      await staff.screenshot({ path: `${SHOTS}/i18n-staff-tenant-form-${language}-${size.name}.png` });
      await dialog.getByRole('button', { name: words.cancel }).click();
      await expect(dialog).toBeHidden();
      // a tenant's details: its fields and its hub (leases, payments)
      await staff.getByRole('button', { name: words.view }).first().click();
      const details = staff.getByRole('dialog', { name: words.details });
      await expect(details).toBeVisible();
      await expect(details.getByRole('heading', { name: words.leases })).toBeVisible();
      await fitsTheScreen(staff);
      await staff.screenshot({ path: `${SHOTS}/i18n-staff-tenant-details-${language}-${size.name}.png` });
      await details.getByRole('button', { name: words.close, exact: true }).click();
      // the Arrears page
      await staff.goto('/arrears');
      await expect(staff.getByRole('heading', { name: words.arrears, exact: true })).toBeVisible();
      await expect(staff.getByLabel(words.arrearsSearch)).toBeVisible();
      await shoot(staff, `i18n-staff-arrears-${language}-${size.name}`);
      await context.close();
    }
  }
});
