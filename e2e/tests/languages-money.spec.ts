import { expect, test, type Page } from '@playwright/test';
import { addUser, kampalaDay, signIn, staffCall } from './helpers.ts';

// The language walks run with E2E_LANGUAGES=1 (`npm run test:languages`): CI's 30 minutes have no room
// for them beside the suite (docs/decisions.md, 'CI time').
test.skip(!process.env.E2E_LANGUAGES, 'the language walks run with E2E_LANGUAGES=1');

/**
 * The money pages in Kiswahili and French (issue 30): the Chart of Accounts, the Journal, Financial
 * Reports, Owner Payouts, a lease's ledger, charges and deposit in its details, and the receipt's
 * print page, for an admin whose language is set (the browser's stays English). Each at 1366 and
 * 360 px, screenshots in docs/screenshots (looked at: nothing cut, nothing wider than the screen).
 */

const SIZES = [
  { name: '1366', viewport: { width: 1366, height: 900 } },
  { name: '360', viewport: { width: 360, height: 740 } },
] as const;
const SHOTS = 'docs/screenshots';

const fitsTheScreen = async (page: Page) =>
  expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);

const shoot = async (page: Page, name: string) => {
  await fitsTheScreen(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

const words = {
  sw: {
    chart: 'Orodha ya akaunti',
    journal: 'Jarida',
    reports: 'Ripoti za fedha',
    income: 'Taarifa ya mapato ya kila mwezi',
    trial: 'Mizania ya majaribio',
    payouts: 'Malipo kwa wamiliki',
    ledger: 'Leja',
    charges: 'Tozo na ada',
    view: 'Angalia maelezo',
    receipt: 'Risiti ya Malipo',
  },
  fr: {
    chart: 'Plan comptable',
    journal: 'Journal',
    reports: 'Rapports financiers',
    income: 'Compte de résultat mensuel',
    trial: 'Balance générale',
    payouts: 'Versements aux propriétaires',
    ledger: 'Grand livre',
    charges: 'Frais et charges',
    view: 'Voir les détails',
    receipt: 'Reçu de paiement',
  },
};

test('the money pages speak the user’s language', async ({ page, browser }) => {
  test.setTimeout(600_000);
  await signIn(page);
  await expect(page.getByRole('heading', { name: /Dashboard/ })).toBeVisible();
  const user = await addUser(page, ['admin'], 'Pesa', 'Argent');
  // a lease with a charge and a completed payment
  const stamp = Date.now().toString(36);
  const unit = await staffCall(page, 'POST', '/units', {
    name: `Pesa ${stamp}`,
    address: 'Plot 30, Kampala Road, Kampala',
    unit_type: 'apartment',
    status: 'occupied',
    monthly_rate: 850_000,
    weekly_rate: 200_000,
    daily_rate: 30_000,
  });
  const lastName = `Pesa${stamp}`;
  const tenant = await staffCall(page, 'POST', '/tenants', {
    first_name: 'Neema',
    last_name: lastName,
    sex: 'F',
    country_code: '+256',
    phone: `+2567725${String(Date.now()).slice(-5)}`,
    email: `neema-${stamp}@e2e.test`,
    date_of_birth: '1990-02-03',
    status: 'active',
  });
  const lease = await staffCall(page, 'POST', '/occupancy', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    start_date: kampalaDay(-40),
    rate: 850_000,
    rent_cycle: 'monthly',
    deposit_amount: 500_000,
  });
  await staffCall(page, 'POST', `/occupancy/${String(lease.id)}/charges`, {
    date: kampalaDay(-2),
    category: 'utility',
    description: 'Water, October',
    amount: 45_000,
  });
  const payment = await staffCall(page, 'POST', '/payments', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    payment_date: kampalaDay(-1),
    amount_paid: 600_000,
    payment_method: 'mobilemoney',
    status: 'completed',
    effective_start_date: kampalaDay(-40),
    effective_end_date: kampalaDay(-10),
  });

  for (const language of ['sw', 'fr'] as const) {
    const w = words[language];
    for (const size of SIZES) {
      const context = await browser.newContext({ locale: 'en-US', viewport: size.viewport });
      const staff = await context.newPage();
      await signIn(staff, user.email, user.password);
      await expect(staff.getByRole('button', { name: /toggle navigation|menyu|menu/i })).toBeVisible();
      await staffCall(staff, 'PUT', '/auth/language', { language });
      const at = `${language}-${size.name}`;

      await staff.goto('/chart-of-accounts');
      await expect(staff.locator('html')).toHaveAttribute('lang', language);
      await expect(staff.getByRole('heading', { name: w.chart })).toBeVisible();
      await shoot(staff, `i18n-chart-of-accounts-${at}`);

      await staff.goto('/journal');
      await expect(staff.getByRole('heading', { name: w.journal, exact: true })).toBeVisible();
      await shoot(staff, `i18n-journal-${at}`);

      await staff.goto('/financial-reports');
      await expect(staff.getByRole('heading', { name: w.reports })).toBeVisible();
      await expect(staff.getByRole('heading', { name: w.income })).toBeVisible();
      await shoot(staff, `i18n-financial-reports-${at}`);
      await staff.goto('/financial-reports?report=trial-balance');
      await expect(staff.getByRole('heading', { name: w.trial })).toBeVisible();
      await shoot(staff, `i18n-trial-balance-${at}`);

      await staff.goto('/owner-payouts');
      await expect(staff.getByRole('heading', { name: w.payouts, level: 1 })).toBeVisible();
      await shoot(staff, `i18n-owner-payouts-${at}`);

      // a lease's details: its ledger, charges, rent changes and deposit
      await staff.goto('/occupancy');
      await staff
        .getByRole(size.name === '360' ? 'listitem' : 'row')
        .filter({ hasText: lastName })
        .getByRole('button', { name: w.view })
        .first()
        .click();
      const details = staff.getByRole('dialog');
      await expect(details.getByRole('region', { name: w.ledger, exact: true })).toBeVisible();
      await expect(details.getByRole('region', { name: w.charges })).toBeVisible();
      await details.getByRole('region', { name: w.charges }).scrollIntoViewIfNeeded();
      await fitsTheScreen(staff);
      await staff.screenshot({ path: `${SHOTS}/i18n-lease-details-${at}.png` });

      await staff.goto(`/payments/${String(payment.id)}/receipt`);
      await expect(staff.getByRole('heading', { name: w.receipt })).toBeVisible();
      await shoot(staff, `i18n-receipt-print-${at}`);
      await context.close();
    }
  }
});
