import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { E2E_CAPTCHA, signIn, staffCall, kampalaDay } from './helpers.ts';
import { assertPortFree, ownServerEnv, startOwnServer, stopOwnServer, type OwnServer } from './own-server.ts';

/**
 * The tenant portal at 360 px (issue 19): a tenant accepts an invitation, sees its balance, downloads a
 * receipt, reports a repair with a photo; staff see it and close it; the tenant sees it closed. The
 * invitation's link is read from the messages outbox (the sender that delivers it is not this test's),
 * so this file starts its own server on a PostgreSQL database it makes (on the server of E2E_PG_URL, else
 * of TEST_DATABASE_URL as CI sets it, else the local one with trust authentication).
 */

const PORT = Number(process.env.E2E_PORTAL_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 21);
const BASE = `http://127.0.0.1:${PORT}`;
const API = '/rentapi/api';
const ADMIN = { email: 'admin@portal.e2e.test', password: 'portal-admin-password' };
const PG =
  process.env.E2E_PG_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = `kodi_e2e_portal_${process.pid}`;
const PHONE = { width: 360, height: 740 };
// a 1×1 png
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let server: OwnServer | undefined;
let dataDir = '';

const dbUrl = () => {
  const u = new URL(PG);
  u.pathname = `/${DB}`;
  return u.toString();
};

const admin = async <T>(fn: (c: pg.Client) => Promise<T>, url = PG): Promise<T> => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
};

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(200_000);
  await assertPortFree(BASE, 'E2E_PORTAL_PORT');
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB}`);
  });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'kodi-e2e-portal-'));
  server = await startOwnServer(
    BASE,
    ownServerEnv({ base: BASE, dataDir, databaseUrl: dbUrl(), admin: ADMIN, captcha: E2E_CAPTCHA }),
  );
});

test.afterAll(async () => {
  await stopOwnServer(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)).catch(() => undefined);
});

/** Every axe violation on the page as it is now (the portal aims at Lighthouse's accessibility 100). */
const axeViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.map(
    (v) => `${v.id} (${v.impact ?? ''}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );

test('a tenant accepts an invitation, sees its balance, downloads a receipt and reports a repair; staff close it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // ---- staff: a unit, a tenant, a lease and a payment; the invitation
  const staffContext = await browser.newContext({ baseURL: BASE });
  const staff = await staffContext.newPage();
  await signIn(staff, ADMIN.email, ADMIN.password);
  await expect(staff).not.toHaveURL(/\/login/);
  const unit = await staffCall(staff, 'POST', '/units', {
    name: 'Portal Flat 3',
    address: 'Plot 9, Kampala',
    unit_type: 'apartment',
    status: 'available',
    monthly_rate: 800_000,
    weekly_rate: 200_000,
    daily_rate: 30_000,
  });
  const tenant = await staffCall(staff, 'POST', '/tenants', {
    first_name: 'Pauline',
    last_name: 'Portal',
    sex: 'F',
    country_code: '+256',
    phone: '+256772555001',
    email: 'pauline@portal.e2e.test',
    date_of_birth: '1991-03-04',
    status: 'active',
  });
  const today = kampalaDay();
  const lease = await staffCall(staff, 'POST', '/occupancy', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    rent_cycle: 'monthly',
    start_date: today,
    rate: 800_000,
  });
  await staffCall(staff, 'POST', '/payments', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    occupancy_id: lease.id,
    payment_date: today,
    amount_paid: 500_000,
    payment_method: 'cash',
    status: 'completed',
    effective_start_date: today,
    effective_end_date: today,
  });
  // the invitation, from the tenant's details
  await staff.goto('/tenants');
  await staff
    .getByRole('row')
    .filter({ hasText: 'Pauline' })
    .getByRole('button', { name: 'View details' })
    .click();
  const tenantDetails = staff.getByRole('dialog');
  await expect(tenantDetails.getByTestId('portal-status')).toHaveText('Not invited');
  await tenantDetails.getByRole('button', { name: 'Invite by e-mail' }).click();
  // this server has no SMTP_URL: it says the invitation was not sent and gives its link to copy (issue 26)
  await expect(tenantDetails.getByText(/^Not sent: e-mail is not set up\. Copy the link/)).toBeVisible();
  await expect(tenantDetails.getByTestId('portal-status')).toHaveText('Invited (no password yet)');
  const offered = await tenantDetails.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  await tenantDetails.getByRole('button', { name: 'Close' }).first().click();
  const body = await admin(
    async (c) =>
      (
        await c.query<{ body: string }>(
          `SELECT body FROM messages WHERE kind = 'invitation' AND tenant_id = $1 ORDER BY id DESC LIMIT 1`,
          [tenant.id],
        )
      ).rows[0]?.body ?? '',
    dbUrl(),
  );
  const link = /http\S+\/portal\/welcome\?token=\S+/.exec(body)?.[0];
  expect(link, body).toBeTruthy();
  // the link offered to copy is the invitation's own
  expect(offered).toBe(link);

  // ---- the tenant, on a 360 px phone
  const phoneContext = await browser.newContext({ baseURL: BASE, viewport: PHONE, acceptDownloads: true });
  const phone = await phoneContext.newPage();
  await phone.goto(link!.replace(BASE, ''));
  await expect(phone.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  expect(await axeViolations(phone)).toEqual([]);
  await phone.getByLabel('Password', { exact: true }).fill('pauline-pass-42');
  await phone.getByLabel('Confirm password').fill('pauline-pass-42');
  await phone.getByRole('button', { name: 'Set password and sign in' }).click();
  // balance: 800,000 due today less 500,000 paid
  await expect(phone.getByText('You owe')).toBeVisible();
  await expect(phone.getByTestId(`balance-${String(lease.id)}`)).toContainText('300,000');
  await expect(phone.getByTestId('fetched-at')).toContainText('Fetched at');
  // the page fits the phone: nothing wider than 360 px
  expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await phone.screenshot({ path: 'test-results/portal-home-360.png', fullPage: true });
  expect(await axeViolations(phone)).toEqual([]);

  await phone.getByRole('button', { name: 'Payments' }).click();
  const [receipt] = await Promise.all([
    phone.waitForEvent('download'),
    phone.getByRole('button', { name: /^Receipt/ }).click(),
  ]);
  expect(receipt.suggestedFilename()).toMatch(/^receipt_.+\.pdf$/);
  const file = await receipt.path();
  expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');

  // ---- an announcement (issue 29): staff send it from its page, the tenant reads it under Notices
  await staff.goto('/announcements');
  const form = staff.getByRole('form', { name: 'New announcement' });
  await form.getByLabel('Subject').fill('Water off on Saturday');
  await form.getByLabel('Message').fill('The water is off from 9 to 12 on Saturday.');
  await form.getByRole('button', { name: 'Send announcement' }).click();
  await expect(staff.getByText(/^Announcement queued for \d+ tenants?\.$/)).toBeVisible();
  await expect(staff.getByRole('table', { name: 'Announcements' })).toContainText('Water off on Saturday');
  await phone.getByRole('button', { name: 'Notices' }).click();
  await expect(phone.getByRole('heading', { name: 'Water off on Saturday' })).toBeVisible();
  await expect(phone.getByText('The water is off from 9 to 12 on Saturday.')).toBeVisible();
  expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await phone.screenshot({ path: 'test-results/portal-notices-360.png', fullPage: true });
  expect(await axeViolations(phone)).toEqual([]);
  // the staff page on a phone: the form and the list's cards fit 360 px
  const staffPhoneContext = await browser.newContext({ baseURL: BASE, viewport: PHONE });
  const staffPhone = await staffPhoneContext.newPage();
  await signIn(staffPhone, ADMIN.email, ADMIN.password);
  await expect(staffPhone).not.toHaveURL(/\/login/);
  await staffPhone.goto('/announcements');
  await expect(staffPhone.getByRole('list', { name: 'Announcements' })).toContainText(
    'Water off on Saturday',
  );
  expect(await staffPhone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await staffPhone.screenshot({ path: 'test-results/announcements-staff-360.png', fullPage: true });
  await staffPhoneContext.close();

  await phone.getByRole('button', { name: 'Repairs' }).click();
  await phone.getByLabel('What is wrong?').fill('Water leaking under the kitchen sink');
  await phone.getByLabel('Priority').selectOption('high');
  await phone.getByLabel(/Photos/).setInputFiles({ name: 'sink.png', mimeType: 'image/png', buffer: PNG });
  await phone.getByRole('button', { name: 'Send' }).click();
  await expect(phone.getByText('Sent. Your landlord has been told.')).toBeVisible();
  const request = phone.locator('li', { hasText: 'Water leaking under the kitchen sink' });
  await expect(request).toContainText('Open');
  await expect(request).toContainText('1 photo');
  await phone.screenshot({ path: 'test-results/portal-repairs-360.png', fullPage: true });
  expect(await axeViolations(phone)).toEqual([]);

  // ---- staff see it, marked, with its photo, and close it
  await staff.goto('/maintenance-requests');
  const row = staff.getByRole('row', { name: /Water leaking under the kitchen sink/ });
  await expect(row).toBeVisible();
  await expect(row.getByText('Submitted by tenant')).toBeVisible();
  await row.getByRole('button', { name: 'View details' }).click();
  const requestDetails = staff.getByRole('dialog');
  await expect(requestDetails.getByRole('img', { name: 'sink.png' })).toBeVisible();
  await staff.screenshot({ path: 'test-results/portal-staff-request.png' });
  await requestDetails.getByRole('button', { name: 'Close' }).first().click();
  const requests = (await (await staff.request.get(`${API}/maintenance_requests?q=leaking`)).json()) as {
    id: number;
  }[];
  const photos = (await staffCall(
    staff,
    'GET',
    `/maintenance_requests/${requests[0]!.id}/photos`,
  )) as unknown as { id: number }[];
  expect(photos).toHaveLength(1);
  // a vendor to give the job to (staff must name one, and the cost, to save the request)
  await staffCall(staff, 'POST', '/vendors', {
    name: 'Kampala Plumbers',
    phone: '+256772555999',
    service_offered: 'Plumbing',
  });
  // staff close it in the form, as a user does: Edit, the estimated cost, the vendor, status Closed, Save
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = staff.getByRole('dialog', { name: 'Edit Maintenance Request' });
  await expect(edit.getByRole('form', { name: 'Edit Maintenance Request' })).toBeVisible();
  await expect(edit.getByLabel(/^Description/)).toHaveValue('Water leaking under the kitchen sink');
  await edit.getByLabel(/^Estimated Cost\s*\*?$/).fill('120000');
  const vendorBox = edit.getByRole('combobox', { name: 'Vendor', exact: true });
  await vendorBox.click();
  await vendorBox.fill('Kampala Plumbers');
  await staff.getByRole('option', { name: 'Kampala Plumbers', exact: true }).click();
  await expect(vendorBox).toHaveValue('Kampala Plumbers');
  await edit.getByRole('combobox', { name: /^Status/ }).click();
  await staff.getByRole('option', { name: 'Closed', exact: true }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(staff.getByText('Maintenance request saved successfully!')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Closed');
  await expect(row).toContainText('Kampala Plumbers');

  // ---- the tenant sees it closed
  await phone.reload();
  await phone.getByRole('button', { name: 'Repairs' }).click();
  await expect(phone.locator('li', { hasText: 'Water leaking under the kitchen sink' })).toContainText(
    'Closed',
  );

  // ---- offline: what it last saw stays readable, with when it was fetched
  await phone.getByRole('button', { name: 'Home' }).click();
  await expect(phone.getByTestId(`balance-${String(lease.id)}`)).toContainText('300,000');
  await phoneContext.setOffline(true);
  await phone.reload();
  await expect(phone.getByTestId('fetched-at')).toContainText('Offline: showing what was fetched at');
  await expect(phone.getByTestId(`balance-${String(lease.id)}`)).toContainText('300,000');
  await phoneContext.setOffline(false);

  // the staff sign-in page sends a tenant to the portal
  const other = await browser.newContext({ baseURL: BASE });
  const otherPage = await other.newPage();
  await signIn(otherPage, 'pauline@portal.e2e.test', 'pauline-pass-42');
  await expect(otherPage.getByText('This is a tenant account: sign in at the tenant portal.')).toBeVisible();
  await otherPage.getByRole('link', { name: 'Go to the tenant portal' }).click();
  await expect(otherPage.getByRole('heading', { name: 'Tenant portal' })).toBeVisible();
  expect(await axeViolations(otherPage)).toEqual([]);
  await otherPage.getByLabel('E-mail or phone').fill('0772 555 001');
  await otherPage.getByLabel('Password').fill('pauline-pass-42');
  await otherPage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(otherPage.getByText('You owe')).toBeVisible();
  await otherPage.setViewportSize({ width: 1280, height: 800 });
  await otherPage.screenshot({ path: 'test-results/portal-home-desktop.png' });
  await other.close();

  // ---- a new e-mail is the tenant's only once the code sent to it is entered (issue 23)
  await phone.reload();
  await phone.getByRole('button', { name: 'Profile' }).click();
  await phone.getByLabel('E-mail', { exact: true }).fill('pauline.new@portal.e2e.test');
  await phone.getByRole('button', { name: 'Save' }).click();
  const confirmForm = phone.getByRole('form', { name: 'Confirm your new address' });
  await expect(confirmForm).toBeVisible();
  await expect(confirmForm.getByTestId('pending-email')).toHaveText('pauline.new@portal.e2e.test');
  await expect(confirmForm.getByText('We sent a 6-digit code to the new address.')).toBeVisible();
  expect(await axeViolations(phone)).toEqual([]);
  const codeBody = await admin(
    async (c) =>
      (
        await c.query<{ body: string }>(
          `SELECT body FROM messages WHERE kind = 'sign_in_code' AND "to" = $1 ORDER BY id DESC LIMIT 1`,
          ['pauline.new@portal.e2e.test'],
        )
      ).rows[0]?.body ?? '',
    dbUrl(),
  );
  const code = /\b(\d{6})\b/.exec(codeBody)?.[1];
  expect(code, codeBody).toBeTruthy();
  await confirmForm.getByLabel('6-digit code').fill(code!);
  await confirmForm.getByRole('button', { name: 'Confirm' }).click();
  await expect(phone.getByText('Your new address is saved: you sign in with it from now on.')).toBeVisible();
  await expect(confirmForm).toBeHidden();
  await phone.screenshot({ path: 'test-results/portal-profile-360.png', fullPage: true });
  const signedInWithNew = await phone.request.post(`${API}/portal/auth/login`, {
    headers: {
      'X-CSRF-Token': (
        (await (await phone.request.get(`${API}/auth/csrf-token`)).json()) as { csrf_token: string }
      ).csrf_token,
    },
    data: { login: 'pauline.new@portal.e2e.test', password: 'pauline-pass-42' },
  });
  expect(signedInWithNew.status(), await signedInWithNew.text()).toBe(200);

  await phoneContext.close();
  await staffContext.close();
});
