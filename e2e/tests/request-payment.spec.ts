import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startAirtel, type LocalAirtel } from '../../apps/server/src/test/providers/airtel.ts';
import { E2E_CAPTCHA, monthsAgo, signIn, staffCall } from './helpers.ts';
import { assertPortFree, ownServerEnv, startOwnServer, stopOwnServer, type OwnServer } from './own-server.ts';

/**
 * Request payment from an arrears row at 360 px (issue 29): staff tap 'Request payment' on a lease's
 * card in Arrears, the dialog comes prefilled (the balance, the tenant's phone, Airtel Money for an
 * Airtel number), the USSD push goes to a local Airtel Money (apps/server/src/test/providers/airtel.ts,
 * started here: this file starts its own server with AIRTEL_BASE_URL pointing at it), the subscriber
 * pays, Airtel calls back, Kodi asks Airtel and posts the payment: the dialog turns from pending to
 * paid with its receipt, without a reload.
 */

const PORT = Number(process.env.E2E_REQUEST_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 27);
const BASE = `http://127.0.0.1:${PORT}`;
const API = '/rentapi/api';
const ADMIN = { email: 'admin@request.e2e.test', password: 'request-admin-password' };
const PHONE = { width: 360, height: 740 };
const AIRTEL = {
  clientId: 'e2e-airtel-client',
  clientSecret: 'e2e-airtel-secret',
  country: 'UG',
  currency: 'UGX',
  callingCode: '256',
};

let server: OwnServer | undefined;
let dataDir = '';
let airtel: LocalAirtel;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(200_000);
  await assertPortFree(BASE, 'E2E_REQUEST_PORT');
  airtel = await startAirtel(AIRTEL);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'kodi-e2e-request-'));
  server = await startOwnServer(BASE, {
    ...ownServerEnv({ base: BASE, dataDir, admin: ADMIN, captcha: E2E_CAPTCHA }),
    AIRTEL_BASE_URL: airtel.url,
    SMTP_URL: '',
  });
});

test.afterAll(async () => {
  await stopOwnServer(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await airtel?.stop();
});

test('staff request a payment from an arrears row at 360 px: pending, then paid with its receipt', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: BASE, viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).not.toHaveURL(/\/login/);

  // ---- Airtel Money on; a tenant with an Airtel Uganda number, two months behind on rent
  const provider = await staffCall(page, 'PUT', '/payment-providers/airtel_money', {
    enabled: true,
    credentials: { client_id: AIRTEL.clientId, client_secret: AIRTEL.clientSecret, country: 'UG' },
  });
  const callbackUrl = String((provider.callback_urls as Record<string, string>).callback);
  expect(callbackUrl).toMatch(/\/pay-callbacks\/airtel\/[0-9a-f]{32}$/);
  // Company settings show the URL to paste in Airtel's portal (Airtel takes it there, not in the request)
  await page.goto('/company-settings');
  const settings = page.getByTestId('provider-airtel_money');
  await expect(settings).toContainText(`Payments callback URL: ${callbackUrl}`, { timeout: 60_000 });
  await settings.scrollIntoViewIfNeeded();
  await expect
    .poll(() => page.evaluate<number>('document.documentElement.scrollWidth'), { timeout: 10_000 })
    .toBeLessThanOrEqual(360);
  await page.screenshot({ path: 'test-results/request-payment-airtel-settings-360.png', fullPage: true });

  const unit = await staffCall(page, 'POST', '/units', {
    name: 'Arrears Flat 3',
    address: 'Kampala Road, Kampala',
    unit_type: 'apartment',
    status: 'available',
    monthly_rate: 400_000,
    weekly_rate: 100_000,
    daily_rate: 15_000,
  });
  const tenant = await staffCall(page, 'POST', '/tenants', {
    first_name: 'Akello',
    last_name: 'Owes',
    sex: 'F',
    country_code: '+256',
    phone: '+256752123456',
    email: 'akello@request.e2e.test',
    date_of_birth: '1991-03-04',
    status: 'active',
  });
  const start = `${monthsAgo(2).slice(0, 7)}-01`;
  const lease = await staffCall(page, 'POST', '/occupancy', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    rent_cycle: 'monthly',
    start_date: start,
    rate: 400_000,
  });

  // ---- Arrears at 1366 px: the row's actions with 'Request payment', every column still fits
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/arrears');
  const table = page.getByRole('table', { name: 'Arrears' });
  await expect(table.getByRole('button', { name: 'Request payment' })).toBeVisible({ timeout: 60_000 });
  const container = page.locator('.MuiTableContainer-root').filter({ has: table });
  const [scroll, client] = await container.evaluate((c: { scrollWidth: number; clientWidth: number }) => [
    c.scrollWidth,
    c.clientWidth,
  ]);
  expect(scroll, 'arrears table width').toBeLessThanOrEqual(client ?? 0);

  // ---- Arrears at 360 px: the lease's card, its 'Request payment'
  await page.setViewportSize(PHONE);
  await page.goto('/arrears');
  await expect(page.getByText('Akello Owes').first()).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Request payment' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Request payment: Akello Owes · Arrears Flat 3');
  // prefilled: the balance owed, the tenant's phone, Airtel Money (an Airtel number)
  const amount = dialog.getByLabel(/^Amount/);
  await expect(amount).not.toHaveValue('');
  const owed = Number(await amount.inputValue());
  expect(owed).toBeGreaterThanOrEqual(400_000);
  await expect(dialog.getByLabel('Phone')).toHaveValue('+256752123456');
  await expect(dialog.getByRole('combobox', { name: 'Provider' })).toContainText('Airtel Money');
  await page.evaluate('window.stillHere = true');
  await dialog.getByRole('button', { name: 'Send prompt' }).click();
  await expect(dialog.getByText(/Prompt sent to \+256752123456/)).toBeVisible();
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await page.screenshot({ path: 'test-results/request-payment-pending-360.png', fullPage: true });

  // ---- the subscriber enters the PIN: Airtel calls back (Kodi asks Airtel before believing it)
  await expect.poll(() => airtel.payments.size).toBe(1);
  const push = airtel.last();
  expect(push.body).toMatchObject({
    subscriber: { country: 'UG', currency: 'UGX', msisdn: '752123456' },
    transaction: { amount: owed, country: 'UG', currency: 'UGX' },
  });
  await airtel.deliver(callbackUrl, airtel.settle(push.id, 'TS'));

  await expect(dialog.getByText(/Paid .*: receipt RCT/)).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate<boolean>('window.stillHere === true')).toBe(true);
  // the page behind follows: nothing overdue any more
  await expect(page.getByText(/^Total overdue: .* on 0 leases\.$/)).toBeAttached();
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await page.screenshot({ path: 'test-results/request-payment-paid-360.png', fullPage: true });

  // ---- the payment is on the lease, Airtel's transaction id its reference
  const payments = (await (
    await page.request.get(`${API}/payments?occupancy_id=${String(lease.id)}`)
  ).json()) as { reference_number: string }[];
  expect(payments.map((p) => p.reference_number)).toContain(push.airtelMoneyId);
  await context.close();
});
