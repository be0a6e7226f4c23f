import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startDaraja, type LocalDaraja } from '../../apps/server/src/test/providers/daraja.ts';
import { E2E_CAPTCHA, signIn, staffCall, kampalaDay } from './helpers.ts';
import { assertPortFree, ownServerEnv, startOwnServer, stopOwnServer, type OwnServer } from './own-server.ts';

/**
 * Pay now at 360 px (issue 29): a tenant taps 'Pay now' in the portal, the prompt goes to a local
 * Daraja (apps/server/src/test/providers/daraja.ts, started here: this file starts its own server with
 * MPESA_BASE_URL pointing at it), the customer pays, Daraja calls back, Kodi asks Daraja and posts the
 * payment, and the receipt appears without a reload. Also the Payment providers settings at 1366 and 360 px.
 */

const PORT = Number(process.env.E2E_PAY_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 23);
const BASE = `http://127.0.0.1:${PORT}`;
const API = '/rentapi/api';
const ADMIN = { email: 'admin@pay.e2e.test', password: 'pay-admin-password' };
const PHONE = { width: 360, height: 740 };
const ACCOUNT = {
  consumerKey: 'e2e-consumer-key',
  consumerSecret: 'e2e-consumer-secret',
  shortcode: '174379',
  passkey: 'e2e-passkey-0123456789',
};

let server: OwnServer | undefined;
let dataDir = '';
let daraja: LocalDaraja;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(200_000);
  await assertPortFree(BASE, 'E2E_PAY_PORT');
  daraja = await startDaraja(ACCOUNT);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'kodi-e2e-pay-'));
  server = await startOwnServer(BASE, {
    ...ownServerEnv({ base: BASE, dataDir, admin: ADMIN, captcha: E2E_CAPTCHA }),
    MPESA_BASE_URL: daraja.url,
    SMTP_URL: '',
  });
});

test.afterAll(async () => {
  await stopOwnServer(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await daraja?.stop();
});

test('a tenant taps Pay now at 360 px, the local Daraja confirms, the receipt appears without a reload', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const staffContext = await browser.newContext({ baseURL: BASE, viewport: { width: 1366, height: 900 } });
  const staff = await staffContext.newPage();
  await signIn(staff, ADMIN.email, ADMIN.password);
  await expect(staff).not.toHaveURL(/\/login/);

  // ---- the company admin turns M-Pesa on in Company settings
  await staff.goto('/company-settings');
  const mpesa = staff.getByTestId('provider-mpesa');
  await expect(mpesa).toBeVisible({ timeout: 60_000 });
  await mpesa.getByRole('switch', { name: 'M-Pesa' }).check();
  await mpesa.getByLabel('Business shortcode (paybill or store number)').fill(ACCOUNT.shortcode);
  await mpesa.getByLabel('Consumer key').fill(ACCOUNT.consumerKey);
  await mpesa.getByLabel('Consumer secret').fill(ACCOUNT.consumerSecret);
  await mpesa.getByLabel('Lipa na M-Pesa passkey').fill(ACCOUNT.passkey);
  await mpesa.getByRole('button', { name: 'Save M-Pesa' }).click();
  await expect(mpesa.getByText(/C2B confirmation URL: /)).toBeVisible();
  // the secrets are not shown back: the fields are empty, marked set
  await expect(mpesa.getByLabel('Consumer secret')).toHaveValue('');
  await mpesa.scrollIntoViewIfNeeded();
  await staff.screenshot({ path: 'test-results/pay-providers-1366.png', fullPage: true });
  await staff.setViewportSize(PHONE);
  // once the page has laid itself out for the phone (its phone layouts follow a media query)
  await expect
    .poll(() => staff.evaluate<number>('document.documentElement.scrollWidth'), { timeout: 10_000 })
    .toBeLessThanOrEqual(360);
  await staff.screenshot({ path: 'test-results/pay-providers-360.png', fullPage: true });
  await staff.setViewportSize({ width: 1366, height: 900 });

  // ---- a unit, a tenant with a Safaricom number, a lease; the invitation's link (no e-mail set up)
  const unit = await staffCall(staff, 'POST', '/units', {
    name: 'Pay Flat 7',
    address: 'Ngong Road, Nairobi',
    unit_type: 'apartment',
    status: 'available',
    monthly_rate: 25_000,
    weekly_rate: 7_000,
    daily_rate: 1_000,
  });
  const tenant = await staffCall(staff, 'POST', '/tenants', {
    first_name: 'Wanjiku',
    last_name: 'Pays',
    sex: 'F',
    country_code: '+254',
    phone: '+254712345678',
    email: 'wanjiku@pay.e2e.test',
    date_of_birth: '1990-05-06',
    status: 'active',
  });
  const today = kampalaDay();
  const lease = await staffCall(staff, 'POST', '/occupancy', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    rent_cycle: 'monthly',
    start_date: today,
    rate: 25_000,
  });
  const invitation = await staffCall(staff, 'POST', `/tenants/${String(tenant.id)}/invite`, {
    channel: 'email',
  });
  const link = String(invitation.link);
  expect(link).toContain('/portal/welcome?token=');

  // ---- the tenant, on a 360 px phone
  const phoneContext = await browser.newContext({ baseURL: BASE, viewport: PHONE });
  const phone = await phoneContext.newPage();
  await phone.goto(link.replace(BASE, ''));
  await phone.getByLabel('Password', { exact: true }).fill('wanjiku-pass-42');
  await phone.getByLabel('Confirm password').fill('wanjiku-pass-42');
  await phone.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(phone.getByTestId(`balance-${String(lease.id)}`)).toContainText('25,000');
  await phone.getByRole('button', { name: 'Pay now' }).click();
  // prefilled: what is due, the tenant's phone, M-Pesa (a Safaricom number)
  await expect(phone.getByLabel(/^Amount/)).toHaveValue('25000');
  await expect(phone.getByLabel('Phone')).toHaveValue('+254712345678');
  await expect(phone.getByText('Pay with M-Pesa')).toBeVisible();
  // a marker a reload would lose
  await phone.evaluate('window.stillHere = true');
  await phone.getByRole('button', { name: 'Send the prompt to my phone' }).click();
  await expect(phone.getByText(/Check your phone \(\+254712345678\)/)).toBeVisible();
  await phone.screenshot({ path: 'test-results/pay-now-pending-360.png', fullPage: true });

  // ---- the customer enters the PIN on the phone: Daraja calls back (Kodi asks Daraja before believing it)
  await expect.poll(() => daraja.pushes.size).toBe(1);
  const push = daraja.last();
  expect(push.body).toMatchObject({ PhoneNumber: '254712345678', Amount: 25000, PartyB: ACCOUNT.shortcode });
  await daraja.deliver(daraja.settle(push.checkoutRequestId, 'completed'));

  const receipt = phone.getByTestId('pay-now-receipt');
  await expect(receipt).toContainText(/Receipt RCT/, { timeout: 15_000 });
  await expect(receipt).toContainText(push.receipt ?? 'missing');
  expect(await phone.evaluate<boolean>('window.stillHere === true')).toBe(true);
  // the balance follows (the portal's own answer read again)
  await expect(phone.getByTestId(`balance-${String(lease.id)}`)).toContainText('0');
  expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await phone.screenshot({ path: 'test-results/pay-now-receipt-360.png', fullPage: true });

  // ---- staff see the payment, by M-Pesa, the receipt number as its reference
  const payments = (await (
    await staff.request.get(`${API}/payments?occupancy_id=${String(lease.id)}`)
  ).json()) as {
    reference_number: string;
    amount_paid: number | string;
  }[];
  expect(payments.map((p) => p.reference_number)).toContain(push.receipt);
  await staffContext.close();
  await phoneContext.close();
});
