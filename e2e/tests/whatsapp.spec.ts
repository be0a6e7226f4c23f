import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startWhatsapp, type LocalWhatsapp } from '../../apps/server/src/test/providers/whatsapp.ts';
import { E2E_CAPTCHA, signIn, staffCall } from './helpers.ts';
import { startOwnServer, stopOwnServer, type OwnServer } from './own-server.ts';

/**
 * WhatsApp (issue 29) at 1366 and 360 px: a company admin sets WhatsApp up in Company settings and
 * reads the webhook URL and verify token to paste in Meta's portal; a test message goes to a local
 * Cloud API (apps/server/src/test/providers/whatsapp.ts, started here: this file starts its own
 * server with WHATSAPP_BASE_URL pointing at it), Meta's signed webhook says it was read, and the
 * message log shows it.
 */

const PORT = Number(process.env.E2E_WHATSAPP_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 27);
const BASE = `http://127.0.0.1:${PORT}`;
const API = '/rentapi/api';
const ADMIN = { email: 'admin@whatsapp.e2e.test', password: 'whatsapp-admin-password' };
const PHONE = { width: 360, height: 740 };
const ACCOUNT = {
  phoneNumberId: '106540352242922',
  token: 'e2e-whatsapp-token',
  appSecret: 'e2e-whatsapp-app-secret',
  templates: { hello_world: { languages: ['en_US'], variables: 0 } },
};

let server: OwnServer | undefined;
let dataDir = '';
let wa: LocalWhatsapp;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(200_000);
  const leftover = await fetch(`${BASE}${API}/health`).then(
    () => true,
    () => false,
  );
  if (leftover) throw new Error(`Port ${PORT} is in use; set E2E_WHATSAPP_PORT to a free port.`);
  wa = await startWhatsapp(ACCOUNT);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'kodi-e2e-whatsapp-'));
  server = await startOwnServer(BASE, {
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DEMO_DATA: '0',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    CAPTCHA_TEST_ANSWER: E2E_CAPTCHA,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: BASE,
    WHATSAPP_BASE_URL: wa.url,
    MESSAGES_INTERVAL_MS: '300',
    SMTP_URL: '',
  });
});

test.afterAll(async () => {
  await stopOwnServer(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await wa?.stop();
});

const fitsThePhone = async (page: Page) => {
  await page.setViewportSize(PHONE);
  await expect
    .poll(() => page.evaluate<number>('document.documentElement.scrollWidth'), { timeout: 10_000 })
    .toBeLessThanOrEqual(360);
};

test('a company admin sets WhatsApp up; a message read on WhatsApp shows so in the log, at 360 px too', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).not.toHaveURL(/\/login/);

  await page.goto('/company-settings');
  const section = page.getByTestId('whatsapp-settings');
  await expect(section).toBeVisible({ timeout: 60_000 });
  await section.getByRole('switch', { name: 'Send by WhatsApp' }).check();
  await section.getByLabel('Phone-number id').fill(ACCOUNT.phoneNumberId);
  await section.getByLabel('Access token').fill(ACCOUNT.token);
  await section.getByLabel('App secret (checks the webhook’s signatures)').fill(ACCOUNT.appSecret);
  await section.getByLabel('Receipt', { exact: true }).fill('kodi_receipt');
  await section.getByRole('button', { name: 'Save WhatsApp' }).click();
  const webhook = page.getByTestId('whatsapp-webhook');
  await expect(webhook.getByText(/Callback URL: /)).toBeVisible();
  await expect(webhook.getByText(/Verify token: [0-9a-f]{32}/)).toBeVisible();
  // the secrets are not shown back: the fields are empty, marked set
  await expect(section.getByLabel('Access token')).toHaveValue('');
  const url = (await webhook.locator('code').first().textContent()) ?? '';
  expect(url).toMatch(new RegExp(`^${BASE}/rentapi/api/whatsapp-callbacks/[0-9a-f]{32}$`));
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/whatsapp-settings-1366.png', fullPage: true });
  await fitsThePhone(page);
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/whatsapp-settings-360.png', fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });

  // a test message by WhatsApp goes to the local Cloud API as Meta's sample template
  await staffCall(page, 'POST', '/messages/test', { channel: 'whatsapp', to: '+256772123456' });
  await expect.poll(() => wa.sent.length, { timeout: 20_000 }).toBe(1);
  expect(wa.sent[0]).toMatchObject({ name: 'hello_world', to: '256772123456' });
  // Meta's webhook, signed with the app secret: read
  const call = wa.statusCall([{ id: wa.sent[0]?.id ?? '', status: 'read' }]);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': call.signature },
    body: call.body,
  });
  expect(res.status).toBe(200);

  await page.goto('/messages');
  await expect(page.getByTestId('delivery-status').first()).toHaveText('Read', { timeout: 30_000 });
  await fitsThePhone(page);
  await page.screenshot({ path: 'test-results/whatsapp-log-360.png', fullPage: true });
  await context.close();
});
