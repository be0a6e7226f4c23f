import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { OAuth2Server, type MutableToken } from 'oauth2-mock-server';
import { SMTPServer } from 'smtp-server';
import { E2E_CAPTCHA, signIn } from './helpers.ts';
import { assertPortFree, ownServerEnv, startOwnServer, stopOwnServer, type OwnServer } from './own-server.ts';

/**
 * Forgot password with a real SMTP receiver, and Google sign-in through a mock OpenID provider. Both need
 * server settings the shared e2e server does not have, so this file starts its own server (fresh data
 * directory, its own port) with SMTP_URL and GOOGLE_* pointing at receivers started here.
 */

const PORT = Number(process.env.E2E_MAIL_PORT ?? 3117);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'admin@mail.e2e.test', password: 'mail-admin-password' };
const API = '/rentapi/api';
const DASHBOARD = 'Kodi Rentals Dashboard';

type ReceivedMail = { to: string[]; raw: string };

const received: ReceivedMail[] = [];
/** The claims the mock provider puts into its next ID token. */
let claims: Record<string, unknown> = {};

let smtp: SMTPServer;
let idp: OAuth2Server;
let server: OwnServer | undefined;
let dataDir: string;

const startSmtp = async (): Promise<number> => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        raw += chunk;
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return (smtp.server.address() as AddressInfo).port;
};

/** The message body with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const mailTo = async (address: string): Promise<ReceivedMail> => {
  let mail: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        mail = received.find((m) => m.to.includes(address));
        return !!mail;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return mail as ReceivedMail;
};

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(200_000);
  const smtpPort = await startSmtp();

  idp = new OAuth2Server();
  await idp.issuer.keys.generate('RS256');
  await idp.start(0, '127.0.0.1');
  idp.service.on('beforeTokenSigning', (token: MutableToken) => {
    Object.assign(token.payload, claims);
  });

  await assertPortFree(BASE, 'E2E_MAIL_PORT');
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'kodi-e2e-mail-'));
  server = await startOwnServer(BASE, {
    ...ownServerEnv({ base: BASE, dataDir, admin: ADMIN, captcha: E2E_CAPTCHA }),
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Kodi <no-reply@mail.e2e.test>',
    GOOGLE_CLIENT_ID: 'kodi-e2e-client',
    GOOGLE_CLIENT_SECRET: 'kodi-e2e-secret',
    GOOGLE_ISSUER: idp.issuer.url ?? '',
  });
});

test.afterAll(async () => {
  await stopOwnServer(server);
  await idp?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('forgot password: the e-mail arrives, its link resets the password, the new one signs in', async ({
  page,
}) => {
  // A user of the fresh installation, added by its admin.
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
  const status = (await (await page.request.get(`${API}/auth/status`)).json()) as {
    csrf_token: string;
    user: { company_id: number };
  };
  const email = 'forgetful@mail.e2e.test';
  const added = await page.request.post(`${API}/auth/register_as_admin`, {
    headers: { 'X-CSRF-Token': status.csrf_token },
    data: {
      email,
      first_name: 'Fiona',
      last_name: 'Forgetful',
      company_id: status.user.company_id,
      country_code: 'UGA',
      active: true,
      password: 'old-password-123',
      roles: ['viewer'],
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  await page.getByRole('button', { name: 'admin', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText('If that address is registered you will receive an email shortly.'),
  ).toBeVisible();

  const mail = await mailTo(email);
  expect(mail.raw).toContain('Subject: Reset your Kodi password');
  const link = new RegExp(`${BASE.replace(/[.:/]/g, '\\$&')}/reset\\?token=[A-Za-z0-9_-]+`).exec(
    decoded(mail.raw),
  )?.[0];
  expect(link, decoded(mail.raw)).toBeTruthy();

  await page.goto(link ?? '');
  await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
  await page.getByLabel(/^New password/).fill('new-password-456');
  await page.getByLabel('Confirm new password').fill('new-password-456');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Password updated – you may now log in.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });

  // The link works once.
  await page.goto(link ?? '');
  await page.getByLabel(/^New password/).fill('another-password-789');
  await page.getByLabel('Confirm new password').fill('another-password-789');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('This reset link is invalid or has expired.')).toBeVisible();

  await signIn(page, email, 'old-password-123');
  await expect(page.getByText('Login failed. Please check your credentials.')).toBeVisible();
  await signIn(page, email, 'new-password-456');
  await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
});

test('Google sign-in lands on Home; an unknown Google address lands on the error page', async ({ page }) => {
  claims = { email: ADMIN.email, email_verified: true };
  await page.goto('/login');
  const google = page.getByRole('link', { name: 'Login with Google' });
  await expect(google).toBeVisible();
  await google.click();
  await expect(page.getByText('Login successful! Redirecting...')).toBeVisible();
  await expect(page).toHaveURL(`${BASE}/`, { timeout: 5000 });
  await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
  await page.getByRole('button', { name: 'admin', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);

  // Right after a logout in the same tab, and for an address no account uses.
  claims = { email: 'stranger@mail.e2e.test', email_verified: true };
  await page.getByRole('link', { name: 'Login with Google' }).click();
  await expect(page).toHaveURL(/\/auth\/google\/error/);
  await expect(
    page.getByText('No active Kodi account uses this Google e-mail address.', { exact: false }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // And signed in again with a known address after that.
  claims = { email: ADMIN.email, email_verified: true };
  await page.getByRole('link', { name: 'Login with Google' }).click();
  await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
});
