import { expect, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_CAPTCHA } from '../playwright.config.ts';

export { E2E_ADMIN, E2E_CAPTCHA };

export const API = '/rentapi/api';

/**
 * A moment's day in the companies' time zone, Africa/Kampala (the browser's too: playwright.config.ts),
 * as YYYY-MM-DD: the day the server books and the app's date fields start from, even while UTC is
 * still on yesterday (21:00–24:00 UTC).
 */
export const dayOf = (moment: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Kampala' }).format(moment);

/** Today in Kampala, or `offsetDays` days from it. */
export const kampalaDay = (offsetDays = 0) => dayOf(new Date(Date.now() + offsetDays * 86_400_000));

/** The day `months` months before today in Kampala (the 28th at the latest: every month has it). */
export const monthsAgo = (months: number) => {
  const [y, m, d] = kampalaDay().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1 - months, Math.min(d, 28))).toISOString().slice(0, 10);
};

/** Signs in through the real login page. */
export const signIn = async (page: Page, email = E2E_ADMIN.email, password = E2E_ADMIN.password) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await expect(page.getByAltText('CAPTCHA')).toBeVisible();
  await page.getByLabel('CAPTCHA', { exact: true }).fill(E2E_CAPTCHA);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
};

/** The signed-in session of a page's browser context: its CSRF token and user (`GET /auth/status`). */
export const sessionOf = async (page: Page) => {
  const res = await page.request.get(`${API}/auth/status`);
  expect(res.ok(), await res.text()).toBe(true);
  const status = (await res.json()) as { csrf_token: string; user: { company_id: number } | null };
  expect(status.user, 'signed in').not.toBeNull();
  return { csrf: status.csrf_token, companyId: status.user?.company_id ?? 0 };
};

/**
 * Adds a user of the admin's company with these roles through `POST /auth/register_as_admin`,
 * with the signed-in admin's browser session; answers the new user's credentials.
 */
export const addUser = async (page: Page, roles: string[], firstName = 'Vera', lastName = 'Viewer') => {
  const { csrf, companyId } = await sessionOf(page);
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `${roles.join('-') || 'none'}-${unique}@e2e.test`;
  const password = 'e2e-user-password-1';
  const res = await page.request.post(`${API}/auth/register_as_admin`, {
    headers: { 'X-CSRF-Token': csrf },
    data: {
      email,
      first_name: firstName,
      last_name: lastName,
      company_id: companyId,
      country_code: 'UGA',
      active: true,
      password,
      roles,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { email, password };
};

/** A JSON call with the page's signed-in session (its CSRF token); fails the test on an error answer. */
export const staffCall = async (page: Page, method: 'POST' | 'PUT' | 'GET', url: string, data?: unknown) => {
  const status = (await (await page.request.get(`${API}/auth/status`)).json()) as { csrf_token: string };
  const res = await page.request.fetch(`${API}${url}`, {
    method,
    headers: { 'X-CSRF-Token': status.csrf_token },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
};
