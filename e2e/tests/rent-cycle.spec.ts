import { expect, test, type Page } from '@playwright/test';
import { API, kampalaDay, sessionOf, signIn } from './helpers.ts';

/** 'Nov 27, 2026' for a YYYY-MM-DD day, as the app shows dates. */
const shown = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`));

/** JSON through the signed-in browser's session, with its CSRF token. */
const caller = async (page: Page) => {
  const { csrf } = await sessionOf(page);
  return async <T>(
    method: 'POST' | 'PUT' | 'GET',
    path: string,
    data?: Record<string, unknown>,
  ): Promise<T> => {
    const res = await page.request.fetch(`${API}${path}`, {
      method,
      ...(data ? { data } : {}),
      headers: { 'X-CSRF-Token': csrf },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return (await res.json()) as T;
  };
};

test('a late-fee policy, the daily run, the fee in the ledger and the arrears, its waiver, and the message log', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const last = `Latefee${stamp}`;
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const call = await caller(page);

  // A lease whose rent of 700,000 fell due yesterday, unpaid: with no grace day, a fee is due today.
  const unit = await call<{ id: number }>('POST', '/units', {
    name: `Fee Unit ${stamp}`,
    address: 'Plot 3, Test Road, Kampala',
    unit_type: 'apartment',
    status: 'occupied',
    monthly_rate: 700_000,
    weekly_rate: 200_000,
    daily_rate: 30_000,
  });
  const tenant = await call<{ id: number }>('POST', '/tenants', {
    first_name: 'Lydia',
    last_name: last,
    sex: 'F',
    country_code: '+256',
    phone: '+256772000222',
    date_of_birth: '1991-05-06',
    status: 'active',
  });
  const yesterday = kampalaDay(-1);
  await call('POST', '/occupancy', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    start_date: yesterday,
    rate: 700_000,
    rent_cycle: 'monthly',
  });

  // An SMS reminder the day after the due date (through the API), and no SMS provider on this server.
  const saved = await call<{ version: number }>('GET', '/company-settings');
  await call('PUT', '/company-settings', {
    reminders: [{ event: 'overdue', days: 1, channels: ['sms'], template_id: null }],
    version: saved.version,
  });

  // The policy, on the Company Settings page (Administration).
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Company Settings' })
    .click();
  await expect(page.getByRole('heading', { name: 'Company Settings', level: 1 })).toBeVisible();
  await expect(page.getByTestId('no-sms-provider')).toContainText('No SMS provider configured');
  await expect(page.getByRole('group', { name: 'Reminder 1' }).getByLabel('Template')).toHaveValue('');
  const fees = page.getByRole('region', { name: 'Late fees' });
  await fees.getByLabel('Charge late fees').check();
  await fees.getByLabel('Grace days').fill('0');
  await fees.getByLabel('Fee', { exact: true }).selectOption('flat');
  await fees.getByLabel('Amount').fill('25000');
  await fees.getByLabel('Repeat while unpaid').selectOption('once');

  // The daily run, now, with the policy not saved yet: saved first (issue 26), then run with it.
  await expect(page.getByTestId('last-run')).toContainText('Your unsaved changes are saved first.');
  await page.getByRole('button', { name: 'Run the daily cycle now' }).click();
  await expect(page.getByText('Company settings saved.')).toBeVisible();
  await expect(page.getByText(/^Daily run done: \d+ late fees? posted/)).toBeVisible();
  await expect(page.getByTestId('last-run')).not.toContainText('unsaved');
  await expect(page.getByTestId('last-run')).toContainText(`Last run for ${shown(kampalaDay())}`);

  // The fee in the lease's ledger.
  await page.goto('/occupancy');
  await page.getByLabel('Search Occupancy (Tenant, Unit, Dates)').fill(last);
  const row = page.getByRole('row').filter({ hasText: last });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'View details' }).click();
  const details = page.getByRole('dialog', { name: 'Occupant Details' });
  const ledger = details.getByRole('region', { name: 'Ledger' });
  const feeRow = ledger.getByRole('row').filter({ hasText: `Late fee: rent due ${shown(yesterday)}` });
  await expect(feeRow).toHaveCount(1);
  await expect(feeRow).toContainText(/UGX\s*25,000/);
  await expect(details.getByTestId('ledger-balance')).toHaveText(/Balance due UGX\s*725,000/);
  await details.getByRole('button', { name: 'Close' }).click();

  // ... and in the arrears: the rent overdue since yesterday, the fee due today.
  await page.goto('/arrears');
  await page.getByLabel('Search Arrears (Tenant, Unit)').fill(last);
  const arrears = page.getByRole('row').filter({ hasText: last });
  await expect(arrears).toHaveCount(1);
  await expect(arrears.getByRole('cell').nth(3)).toHaveText(/^(UGX\s*)?725,000$/);
  await expect(arrears.getByRole('cell').nth(4)).toHaveText(/^(UGX\s*)?25,000$/); // current
  await expect(arrears.getByRole('cell').nth(5)).toHaveText(/^(UGX\s*)?700,000$/); // 1–30 days

  // Waive it, from the lease's charges.
  await page.goto('/occupancy');
  await page.getByLabel('Search Occupancy (Tenant, Unit, Dates)').fill(last);
  await page.getByRole('row').filter({ hasText: last }).getByRole('button', { name: 'View details' }).click();
  const charges = details.getByRole('region', { name: 'Charges and fees' });
  await charges.getByRole('button', { name: /^Waive Late fee/ }).click();
  const waive = page.getByRole('dialog', { name: 'Waive charge' });
  await waive.getByLabel('Reason').fill('First time late');
  await waive.getByRole('button', { name: 'Waive' }).click();
  await expect(charges.getByText(/Waived .*: First time late/)).toBeVisible();
  await expect(ledger.getByRole('row').filter({ hasText: 'Waived: Late fee' })).toContainText(
    /-UGX\s*25,000|UGX\s*-25,000/,
  );
  await expect(details.getByTestId('ledger-balance')).toHaveText(/Balance due UGX\s*700,000/);
  await details.getByRole('button', { name: 'Close' }).click();

  // The reminder in the message log (Administration, Messages): skipped, as no SMS provider is set;
  // its balance is the lease's at the end of the day before it was sent (the rent, not yet the fee).
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Messages' })
    .click();
  await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible();
  await page.getByLabel('Search Messages (To, Tenant, Subject)').fill(last);
  const message = page.getByRole('row').filter({ hasText: last });
  await expect(message).toHaveCount(1);
  await expect(message).toContainText('Reminder');
  await expect(message).toContainText('SMS');
  await expect(message).toContainText('+256772000222');
  await expect(message.getByText(/^(Queued|Skipped)$/)).toBeVisible();
  await message.getByRole('button', { name: 'View message' }).click();
  await expect(page.getByRole('dialog', { name: 'Message' })).toContainText(
    /Hi Lydia, your rent for Fee Unit \w+ due \w{3} \d+, \d{4} is overdue\. Balance: UGX\s*700,000\./,
  );
  await page.getByRole('dialog', { name: 'Message' }).getByRole('button', { name: 'Close' }).click();
  await page.getByRole('tab', { name: 'Templates' }).click();
  await expect(page.getByRole('region', { name: 'Rent overdue (SMS)' })).toBeVisible();
  await page.setViewportSize({ width: 360, height: 740 });
  // the layout follows the new width on React's next render (its media queries): wait for it
  await expect
    .poll(() => page.evaluate<number>('document.documentElement.scrollWidth'))
    .toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The page works on a 360 px screen: nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/company-settings');
  await expect(page.getByRole('button', { name: 'Save settings' })).toBeVisible();
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);

  // Late fees off again for the specs after this one.
  const settings = await call<{ version: number; late_fee: Record<string, unknown> }>(
    'GET',
    '/company-settings',
  );
  await call('PUT', '/company-settings', {
    late_fee: { ...settings.late_fee, enabled: false },
    reminders: [],
    version: settings.version,
  });
});
