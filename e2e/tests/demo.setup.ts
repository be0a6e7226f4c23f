import { expect, test as setup } from '@playwright/test';
import { API, E2E_ADMIN, E2E_CAPTCHA } from './helpers.ts';

/**
 * Issue 26: a fresh install keeps the demo data in its own company ('Demo Properties') and leaves the
 * administrator's empty. The specs that look at the demo data work in it: before them, the e2e
 * administrator chooses it as their profile's company, as an admin would to look at the demo.
 */
setup('the administrator works in the demo company', async ({ request }) => {
  const csrf = async () =>
    ((await (await request.get(`${API}/auth/csrf-token`)).json()) as { csrf_token: string }).csrf_token;
  const token = await csrf();
  await request.get(`${API}/captcha`);
  const login = await request.post(`${API}/auth/login`, {
    headers: { 'X-CSRF-Token': token },
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password, captcha_answer: E2E_CAPTCHA },
  });
  expect(login.status(), await login.text()).toBe(200);
  const status = (await (await request.get(`${API}/auth/status`)).json()) as {
    csrf_token: string;
    user: { id: number; company_id: number };
  };
  const companies = (await (await request.get(`${API}/companies`)).json()) as { id: number; name: string }[];
  const demo = companies.find((c) => c.name === 'Demo Properties');
  expect(demo, 'the demo company').toBeTruthy();
  const own = companies.find((c) => c.id === status.user.company_id);
  // the administrator's own company starts empty
  const tenants = (await (await request.get(`${API}/tenants`)).json()) as unknown[];
  if (own?.name !== 'Demo Properties') expect(tenants).toEqual([]);
  const me = (await (await request.get(`${API}/users/${status.user.id}`)).json()) as Record<string, unknown>;
  const res = await request.put(`${API}/users/${status.user.id}`, {
    headers: { 'X-CSRF-Token': status.csrf_token },
    data: {
      email: me.email,
      first_name: me.first_name,
      last_name: me.last_name,
      country_code: me.country_code,
      active: me.active,
      company_id: demo?.id,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
});
