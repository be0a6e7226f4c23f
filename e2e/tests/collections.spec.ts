import { expect, test, type Page } from '@playwright/test';
import { API, signIn, dayOf } from './helpers.ts';

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

const iso = dayOf;

test('Collections: upload a statement, accept a suggestion, match one by hand, see the payments and their receipts; open a receipt’s QR link signed out', async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const digits = String(Date.now()).slice(-6);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const post = await poster(page);
  const start = iso(new Date(Date.now() - 40 * 86_400_000));
  const today = iso(new Date());
  const lease = async (first: string, phone: string, unitName: string, tenantId?: number) => {
    const unit = await post<{ id: number }>('/units', {
      name: unitName,
      address: 'Plot 9, Test Road, Kampala',
      unit_type: 'apartment',
      status: 'occupied',
      monthly_rate: 700_000,
      weekly_rate: 175_000,
      daily_rate: 25_000,
    });
    const tenant =
      tenantId !== undefined
        ? { id: tenantId }
        : await post<{ id: number }>('/tenants', {
            first_name: first,
            last_name: `Coll${stamp}`,
            sex: 'F',
            country_code: '+256',
            phone,
            date_of_birth: '1990-01-01',
            status: 'active',
          });
    const made = await post<{ id: number }>('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: start,
      rate: 700_000,
      rent_cycle: 'monthly',
    });
    return { id: made.id, tenantId: tenant.id };
  };
  const unitA = `CollA${stamp}`;
  const unitB = `CollB${stamp}`;
  await lease('Alice', `+25677${digits}1`.slice(0, 13), unitA);
  await lease('Bruno', `+25678${digits}2`.slice(0, 13), unitB);
  // Carla rents two units: her money is never posted by itself, she is split by hand
  const carla = await lease('Carla', `+25679${digits}3`.slice(0, 13), `CollC1${stamp}`);
  await lease('Carla', '', `CollC2${stamp}`, carla.tenantId);

  const statement = [
    'Id,Date,Status,Note/Message,From,From Name,Amount,Currency',
    // Alice's phone (without its +) and her unit: a suggestion to accept
    `E2E${stamp}1,${today} 09:00:00,Successful,Rent ${unitA},${`25677${digits}1`.slice(0, 12)},ALICE,650000,UGX`,
    // nobody known: matched by hand to Bruno
    `E2E${stamp}2,${today} 10:00:00,Successful,zzqx payment,256700000009,SOMEONE,300000,UGX`,
    // a withdrawal
    `E2E${stamp}3,${today} 11:00:00,Successful,,256700500500,KODI,-20000,UGX`,
    // Carla, two leases: suggested by tenant, split by hand
    `E2E${stamp}4,${today} 12:00:00,Successful,rent,${`25679${digits}3`.slice(0, 12)},CARLA,1000000,UGX`,
  ].join('\r\n');

  await page.goto('/collections');
  await expect(page.getByRole('heading', { name: 'Collections', level: 1 })).toBeVisible();
  await page.getByLabel('Statement file').setInputFiles({
    name: 'momo.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(statement),
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(
    page.getByText('4 lines read: 4 new, 0 seen before; 0 matched, 2 suggested, 1 unmatched.'),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Statements' })).toContainText('momo.csv');

  const lines = page.getByRole('table', { name: 'Statement lines' });
  await page.getByLabel('Search lines (payer, reference, tenant, unit)').fill(`E2E${stamp}`);
  await expect(lines.getByRole('row').filter({ hasText: `E2E${stamp}` })).toHaveCount(4);
  // open lines first: the unmatched one, then the suggestions
  await expect(lines.getByRole('row').nth(1)).toContainText('unmatched');
  await expect(lines.getByRole('row').nth(2)).toContainText('suggested');
  await expect(lines.getByRole('row').nth(3)).toContainText('suggested');

  // accept the suggestion in one click
  const suggested = lines.getByRole('row').filter({ hasText: `E2E${stamp}1` });
  await expect(suggested).toContainText(`Alice Coll${stamp} · ${unitA}`);
  await suggested.getByRole('button', { name: /^Accept/ }).click();
  await expect(suggested).toContainText('matched');

  // match the unknown one by hand to Bruno's lease, found by his name: the line says why it is open
  const unknown = lines.getByRole('row').filter({ hasText: `E2E${stamp}2` });
  await expect(unknown).toContainText('No tenant has this phone');
  await unknown.getByRole('button', { name: 'Match by hand' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('No tenant has this phone');
  await dialog.getByLabel('Lease 1').fill(`Bruno Coll${stamp}`);
  await page.getByRole('option', { name: `Bruno Coll${stamp} · ${unitB}` }).click();
  // the tenant searched for fills the candidate
  await expect(dialog.getByLabel('Lease 1')).toHaveValue(`Bruno Coll${stamp} · ${unitB}`);
  await dialog.getByRole('button', { name: 'Match', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(unknown).toContainText('matched');
  await expect(unknown).toContainText(`Bruno Coll${stamp}`);
  await expect(lines.getByRole('row').filter({ hasText: `E2E${stamp}3` })).toContainText('ignored');

  // split Carla's 1,000,000 across her two leases
  const carlaLine = lines.getByRole('row').filter({ hasText: `E2E${stamp}4` });
  await expect(carlaLine).toContainText('(several leases)');
  await expect(carlaLine).toContainText('The tenant has several leases: split the amount between them');
  await carlaLine.getByRole('button', { name: 'Match by hand' }).click();
  await dialog.getByRole('button', { name: `Split across Carla Coll${stamp}'s 2 leases` }).click();
  const amounts = dialog.getByLabel('Amount');
  await expect(amounts).toHaveCount(2);
  await amounts.nth(0).fill('600000');
  await amounts.nth(1).fill('400000');
  await dialog.getByRole('button', { name: 'Match', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(carlaLine).toContainText('matched');

  // the payments, with their receipt numbers
  await page.goto('/payments');
  await page.getByLabel('Search Payments (Serial, Tenant, Unit)').fill(`Coll${stamp}`);
  const payments = page.getByRole('table').first();
  await expect(payments.getByRole('row').filter({ hasText: `Coll${stamp}` })).toHaveCount(4);
  await expect(payments).toContainText(`E2E${stamp}1`);
  await expect(payments).toContainText(`E2E${stamp}2`);
  await expect(payments).toContainText(/RCT-\d{6}/);

  // the receipt of Alice's payment (the accepted suggestion), as staff print it from the list
  const alicePayment = payments.getByRole('row').filter({ hasText: `E2E${stamp}1` });
  const receiptNumber = ((await alicePayment.textContent()) ?? '').match(/RCT-\d{6}/)?.[0] ?? '';
  expect(receiptNumber).toMatch(/^RCT-\d{6}$/);
  await alicePayment.getByRole('link', { name: 'Print receipt' }).click();
  await expect(page.getByText(`Receipt No: ${receiptNumber}`)).toBeVisible();
  const verify = page.getByTestId('receipt-verify');
  await expect(verify.getByRole('img', { name: "QR code of this receipt's public link" })).toBeVisible();
  const href = await verify.getByRole('link').getAttribute('href');
  expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/r\/[0-9a-f]{64}$/);

  // its QR link, opened signed out (a browser with no session): the receipt is verified
  const stranger = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const phone = await stranger.newPage();
  await phone.goto(href ?? '');
  await expect(phone.getByRole('heading', { name: 'Receipt verified' })).toBeVisible();
  await expect(phone.getByText('This receipt is valid: the payment was received.')).toBeVisible();
  await expect(phone.getByText(receiptNumber)).toBeVisible();
  await expect(phone.getByText('UGX 650,000')).toBeVisible();
  await expect(phone.getByText(unitA)).toBeVisible();
  expect((await stranger.cookies()).filter((c) => c.name === 'kodi_sid')).toHaveLength(0);
  await phone.screenshot({ path: 'test-results/collections-receipt-public-360.png', fullPage: true });
  await stranger.close();
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto('/collections');
  await page.screenshot({ path: 'test-results/collections-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 360, height: 760 });
  await page.goto('/collections');
  await expect(page.getByRole('heading', { name: 'Collections', level: 1 })).toBeVisible();
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/collections-360.png', fullPage: true });
});
