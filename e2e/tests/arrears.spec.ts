import { expect, test, type Page } from '@playwright/test';
import { kampalaDay, monthsAgo, signIn } from './helpers.ts';

const API = '/rentapi/api';

/** Three months before today, on a day every month has, so that four monthly charges are due. */
const threeMonthsAgo = () => monthsAgo(3);

/** 'UGX 3,600,000' → 3600000 (the demo company counts in whole shillings). */
const amount = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

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

const totalArrears = async (page: Page) => {
  await page.goto('/');
  const card = page.getByRole('region', { name: 'Total arrears' });
  await expect(card.getByTestId('total-arrears')).toBeVisible();
  return amount(await card.getByTestId('total-arrears').textContent());
};

const arrearsRow = async (page: Page, search: string) => {
  await page.goto('/arrears');
  await expect(page.getByRole('heading', { name: 'Arrears', exact: true })).toBeVisible();
  await page.getByLabel('Search Arrears (Tenant, Unit)').fill(search);
  return page.getByRole('row').filter({ hasText: search });
};

test('a partial payment lowers the arrears of a lease on the Arrears page, its ledger and the dashboard', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const last = `Arrears${stamp}`;
  const today = kampalaDay();

  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const post = await poster(page);

  // A lease of 900,000 a month from three months ago, nothing paid: four charges are due.
  const unit = await post<{ id: number }>('/units', {
    name: `Arrears Unit ${stamp}`,
    address: 'Plot 9, Test Road, Kampala',
    unit_type: 'apartment',
    status: 'occupied',
    monthly_rate: 900_000,
    weekly_rate: 250_000,
    daily_rate: 40_000,
  });
  const tenant = await post<{ id: number }>('/tenants', {
    first_name: 'Owen',
    last_name: last,
    sex: 'M',
    country_code: '+256',
    phone: '+256772000111',
    date_of_birth: '1988-02-03',
    status: 'active',
  });
  const lease = await post<{ id: number }>('/occupancy', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    start_date: threeMonthsAgo(),
    rate: 900_000,
    rent_cycle: 'monthly',
  });

  const totalBefore = await totalArrears(page);
  let row = await arrearsRow(page, last);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Owen ${last}`);
  await expect(row).toContainText(`Arrears Unit ${stamp}`);
  // the cells: the row's checkbox, tenant, unit, balance (amounts without the currency, which the page names)
  await expect(row.getByRole('cell').nth(3)).toHaveText(/^(UGX\s*)?3,600,000$/);

  // A partial payment of 1,000,000.
  await post('/payments', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    payment_date: today,
    amount_paid: 1_000_000,
    payment_method: 'cash',
    status: 'completed',
    effective_start_date: today,
    effective_end_date: today,
  });

  row = await arrearsRow(page, last);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(3)).toHaveText(/^(UGX\s*)?2,600,000$/);
  await expect(row).toContainText(/1,000,000/); // the last payment

  // The lease's ledger, from the row, with its statement.
  await row.getByRole('button', { name: 'View ledger' }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`Ledger: Owen ${last}`) });
  await expect(dialog.getByTestId('ledger-balance')).toHaveText(/Balance due UGX\s*2,600,000/);
  await expect(dialog.getByRole('row')).toHaveCount(1 + 4 + 1); // header, four charges, one payment
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download statement' }).click();
  expect((await download).suggestedFilename()).toBe(`statement_${lease.id}.pdf`);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The dashboard's card follows: its overdue total is 1,000,000 lower.
  await expect.poll(() => totalArrears(page)).toBe(totalBefore - 1_000_000);
});
