import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { E2E_CAPTCHA, addUser, signIn } from './helpers.ts';

const API = '/rentapi/api';

/** The code an authenticator app shows for the secret, `steps` periods from now (RFC 6238, SHA-1, 6 digits, 30 s). */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

const logout = async (page: Page, email: string) => {
  await page.getByRole('button', { name: email.split('@')[0], exact: true }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
};

/** The password step of the Login page, for a user with a second factor: the code step follows. */
const passwordStep = async (page: Page, email: string, password: string) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await expect(page.getByAltText('CAPTCHA')).toBeVisible();
  await page.getByLabel('CAPTCHA', { exact: true }).fill(E2E_CAPTCHA);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
};

const signedInAs = async (page: Page, email: string) => {
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: email.split('@')[0], exact: true })).toBeVisible();
};

test('a user sets up two-factor sign-in, signs in with a code, then with a recovery code, and ends another session', async ({
  page,
  browser,
}, testInfo) => {
  // an admin adds the user
  await signIn(page);
  await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeVisible();
  const user = await addUser(page, ['editor'], 'Tia', 'Totp');
  await page.context().clearCookies();

  // the user signs in and sets it up on Account Security, from the drawer
  await signIn(page, user.email, user.password);
  await signedInAs(page, user.email);
  await page.goto('/account/security');
  await expect(page.getByRole('heading', { name: 'Account Security', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = ((await page.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.screenshot({ path: testInfo.outputPath('security-setup-desktop.png'), fullPage: true });

  // a wrong code first: said so, nothing turned on
  const wrong = codeOf(secret) === '000000' ? '111111' : '000000';
  await page.getByLabel('Authentication code').fill(wrong);
  await page.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/The code is not right or has expired/)).toBeVisible();
  // the right code alone, without the password, turns nothing on (issue 23)
  await page.getByLabel('Authentication code').fill(codeOf(secret));
  await page.getByLabel('Current password').fill('not-the-password');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Current password is incorrect.')).toBeVisible();

  await page.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  const codesList = page.getByRole('list', { name: 'Recovery codes' });
  await expect(codesList.getByRole('listitem')).toHaveCount(10);
  const recovery = (await codesList.getByRole('listitem').allTextContents()).map((c) => c.trim());
  for (const c of recovery) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: testInfo.outputPath('security-codes-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByText(/Two-factor sign-in is on\. Since/)).toBeVisible();
  await expect(page.getByText(/recovery codes left: 10/)).toBeVisible();

  // signed out, the password alone no longer signs in: the code of the app does
  await logout(page, user.email);
  await passwordStep(page, user.email, user.password);
  const status = await (await page.request.get(`${API}/auth/status`)).json();
  expect(status.user).toBeNull();
  await page.screenshot({ path: testInfo.outputPath('login-code-step.png') });
  // the next period's code: the one that confirmed the setup is used already
  await page.getByLabel('Authentication code').fill(codeOf(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await signedInAs(page, user.email);

  // again, with a recovery code
  await logout(page, user.email);
  await passwordStep(page, user.email, user.password);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recovery[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await signedInAs(page, user.email);

  // a used recovery code does not work twice
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await passwordStep(otherPage, user.email, user.password);
  await otherPage.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await otherPage.getByLabel('Recovery code').fill(recovery[0] ?? '');
  await otherPage.getByRole('button', { name: 'Verify' }).click();
  await expect(otherPage.getByText(/The code is not right or has expired/)).toBeVisible();
  // another session, opened with another recovery code
  await otherPage.getByLabel('Recovery code').fill(recovery[1] ?? '');
  await otherPage.getByRole('button', { name: 'Verify' }).click();
  await signedInAs(otherPage, user.email);

  // the first browser sees both sessions, this one marked, and ends the other
  await page.goto('/account/security');
  const sessions = page.getByRole('list', { name: 'Your sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByRole('listitem', { name: /\(this session\)/ })).toHaveCount(1);
  await expect(page.getByText(/recovery codes left: 8/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('security-sessions-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: testInfo.outputPath('security-sessions-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await sessions
    .getByRole('listitem')
    .filter({ hasNot: page.getByText('This session') })
    .getByRole('button', { name: 'End' })
    .click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  const ended = await (await otherPage.request.get(`${API}/auth/status`)).json();
  expect(ended.user).toBeNull();
  expect((await otherPage.request.get(`${API}/units`)).status()).toBe(401);
  // this one goes on
  expect((await page.request.get(`${API}/units`)).status()).toBe(200);
  await other.close();
});

test('a company that requires two-factor sign-in sends its user to set it up before anything else', async ({
  page,
}) => {
  // an admin makes a company of its own for this test and a company admin of it
  await signIn(page);
  await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeVisible();
  const status = await (await page.request.get(`${API}/auth/status`)).json();
  const company = await page.request.post(`${API}/companies`, {
    headers: { 'X-CSRF-Token': status.csrf_token },
    data: { name: `MFA Homes ${Date.now()}`, currency_code: 'UGX', country_code: 'UGA' },
  });
  expect(company.status(), await company.text()).toBe(201);
  const companyId = ((await company.json()) as { id: number }).id;
  const email = `mfa-admin-${Date.now()}@e2e.test`;
  const password = 'e2e-user-password-1';
  const added = await page.request.post(`${API}/auth/register_as_admin`, {
    headers: { 'X-CSRF-Token': status.csrf_token },
    data: {
      email,
      first_name: 'Mia',
      last_name: 'Required',
      company_id: companyId,
      country_code: 'UGA',
      password,
      roles: ['company_admin'],
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  await page.context().clearCookies();

  // the company admin turns the requirement on in Company Settings
  await signIn(page, email, password);
  await signedInAs(page, email);
  await page.goto('/company-settings');
  await page.getByLabel('Require two-factor sign-in for every staff user').check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  // from then on every page leads to the enrolment
  await expect(page).toHaveURL(/\/account\/security$/);
  await expect(page.getByText(/Your company requires two-factor sign-in/)).toBeVisible();
  await page.goto('/units');
  await expect(page).toHaveURL(/\/account\/security$/);
  const me = await (await page.request.get(`${API}/auth/status`)).json();
  expect((await page.request.get(`${API}/units`)).status()).toBe(403);

  // once set up, the rest opens again
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = ((await page.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s+/g, '');
  await page.getByLabel('Authentication code').fill(codeOf(secret));
  await page.getByLabel('Current password').fill(password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await page.goto('/units');
  await expect(page).toHaveURL(/\/units$/);
  expect(me.user.mfa_required).toBe(true);
  expect((await page.request.get(`${API}/units`)).status()).toBe(200);
});
