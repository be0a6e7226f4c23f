import { expect, test, type Page } from '@playwright/test';
import { API, monthsAgo, signIn } from './helpers.ts';

/** POSTs through the signed-in browser's session, with its CSRF token. */
const poster = async (page: Page) => {
  const status = (await (await page.request.get(`${API}/auth/status`)).json()) as { csrf_token: string };
  return async <T>(path: string, data: Record<string, unknown>): Promise<T> => {
    const res = await page.request.post(`${API}${path}`, {
      data,
      headers: { 'X-CSRF-Token': status.csrf_token },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as T;
  };
};

test('imports running leases with opening balances: the preview warns of back rent, the arrears show their balances', async ({
  page,
}) => {
  // an import, the arrears and a form: slow on a loaded machine
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const last = `Opening${stamp}`;
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const post = await poster(page);
  for (const [first, phone] of [
    ['Amina', '+256772000201'],
    ['Brian', '+256772000202'],
  ] as const) {
    await post('/tenants', {
      first_name: first,
      last_name: last,
      sex: 'F',
      country_code: '+256',
      phone,
      date_of_birth: '1988-02-03',
      status: 'active',
    });
    await post('/units', {
      name: `${first} Unit ${stamp}`,
      address: 'Plot 9, Test Road, Kampala',
      unit_type: 'apartment',
      status: 'occupied',
      monthly_rate: 500_000,
      weekly_rate: 150_000,
      daily_rate: 20_000,
    });
  }

  // Amina owed 300,000 last month (the day her rent fell due); Brian's lease starts three months ago
  const startA = monthsAgo(6);
  const file = [
    'Tenant,Unit,Start Date,Rent,Rent Cycle,Opening Balance,Opening Balance Date,External Ref',
    `Amina ${last},Amina Unit ${stamp},${startA},500000,Monthly,300000,${monthsAgo(1)},OB-${stamp}-A`,
    `Brian ${last},Brian Unit ${stamp},${monthsAgo(3)},500000,Monthly,,,OB-${stamp}-B`,
    '',
  ].join('\r\n');
  await page.goto('/import');
  await page.getByLabel('Import into').selectOption('occupancy');
  await page.getByLabel('Choose file').setInputFiles({
    name: 'leases.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(file),
  });
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page.getByText('2 rows: 2 valid, 0 rejected.')).toBeVisible();
  await expect(page.getByTestId('import-back-rent')).toContainText(
    /2 leases start in the past: 5 rent charges \(UGX\s*2,500,000\) will be posted/,
  );
  const table = page.getByRole('table', { name: 'Back rent' });
  await expect(table.getByRole('row').filter({ hasText: `Amina ${last}` })).toContainText(/UGX\s*500,000/);
  await expect(table.getByRole('row').filter({ hasText: `Brian ${last}` })).toContainText(/UGX\s*2,000,000/);

  await page.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(page.getByText(/Imported: 2 created/)).toBeVisible();

  // their balances on the Arrears page: 300,000 + one month's rent, and four months' rent
  await page.goto('/arrears');
  await page.getByLabel('Search Arrears (Tenant, Unit)').fill(last);
  const amina = page.getByRole('row').filter({ hasText: `Amina ${last}` });
  const brian = page.getByRole('row').filter({ hasText: `Brian ${last}` });
  // the cells: the row's checkbox, tenant, unit, balance (amounts without the currency, which the page names)
  await expect(amina.getByRole('cell').nth(3)).toHaveText(/^(UGX\s*)?800,000$/);
  await expect(brian.getByRole('cell').nth(3)).toHaveText(/^(UGX\s*)?2,000,000$/);

  // the lease form says what back rent a start date in the past charges, as the user types
  await page.goto('/occupancy');
  await page.getByRole('button', { name: 'Add Occupancy Record' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Occupancy Record' });
  await dialog.getByLabel('Start Date').fill(monthsAgo(12));
  await dialog.getByRole('spinbutton', { name: 'Rate', exact: true }).fill('500000');
  await expect(dialog.getByTestId('back-rent-note')).toContainText(
    /: 13 rent charges of UGX\s*500,000 \(UGX\s*6,500,000\) will be posted\. Set an opening balance if some was paid\./,
  );
  await dialog.getByLabel('Opening Balance Date').fill(monthsAgo(1));
  await expect(dialog.getByTestId('back-rent-note')).toContainText(
    /: 1 rent charge of UGX\s*500,000 will be posted/,
  );
});
