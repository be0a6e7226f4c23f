import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addUser, API, sessionOf, signIn, kampalaDay } from './helpers.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** Through the signed-in browser's session, with its CSRF token. */
const poster = async (page: Page) => {
  const { csrf } = await sessionOf(page);
  return async <T>(url: string, data: Record<string, unknown>, status = 201): Promise<T> => {
    const res = await page.request.post(`${API}${url}`, { data, headers: { 'X-CSRF-Token': csrf } });
    expect(res.status(), await res.text()).toBe(status);
    return (await res.json()) as T;
  };
};

const daysAgo = (n: number) => kampalaDay(-n);

/**
 * Issue 28's story at 360 px: a caretaker walks a building's meters (one reading typed offline and
 * sent once back online, one flagged over three times the usual and confirmed); the billing run bills
 * them ('Run billing' on the reading round); the tenant sees the water charge with its readings in the
 * portal.
 */
test('utilities: caretaker round, billing run, the tenant sees the water charge and its readings', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const post = await poster(page);

  // the building: two flats with a meter each, the first let to a tenant
  const property = await post<{ id: number }>('/properties', {
    name: `Meter Court ${stamp}`,
    address: '9 Meter road',
  });
  const unit = (name: string) =>
    post<{ id: number }>('/units', {
      name,
      property_id: property.id,
      address: '9 Meter road',
      unit_type: 'apartment',
      status: 'available',
      monthly_rate: 500_000,
      weekly_rate: 150_000,
      daily_rate: 20_000,
    });
  const let1 = await unit(`M1 ${stamp}`);
  const vacant = await unit(`M2 ${stamp}`);
  const waterTariff = await post<{ id: number }>('/tariffs', {
    name: `Water ${stamp}`,
    kind: 'water',
    blocks: 'above: 1000',
  });
  const powerTariff = await post<{ id: number }>('/tariffs', {
    name: `Power ${stamp}`,
    kind: 'electricity',
    blocks: 'above: 800',
  });
  const water = await post<{ id: number }>('/meters', {
    number: `W-${stamp}`,
    kind: 'water',
    unit_id: let1.id,
    tariff_id: waterTariff.id,
    initial_reading: 0,
    installed_on: daysAgo(95),
  });
  const power = await post<{ id: number }>('/meters', {
    number: `E-${stamp}`,
    kind: 'electricity',
    unit_id: vacant.id,
    tariff_id: powerTariff.id,
    initial_reading: 100,
    installed_on: daysAgo(95),
  });
  const email = `tenant-${stamp}@e2e.test`;
  const tenant = await post<{ id: number }>('/tenants', {
    first_name: 'Wanda',
    last_name: `Water${stamp}`,
    sex: 'F',
    country_code: '+256',
    phone: '+256772000777',
    email,
    date_of_birth: '1990-02-03',
    status: 'active',
  });
  const lease = await post<{ id: number }>('/occupancy', {
    tenant_id: tenant.id,
    unit_id: let1.id,
    start_date: daysAgo(90),
    rate: 500_000,
    rent_cycle: 'monthly',
  });
  // the water's usual: 10 m³ a month
  await post('/meter_readings', { meter_id: water.id, reading_date: daysAgo(60), value: 10 });
  await post('/meter_readings', { meter_id: water.id, reading_date: daysAgo(30), value: 20 });

  // the caretaker (an editor: the role the reading round allows) on a phone
  const caretaker = await addUser(page, ['editor'], 'Carl', 'Caretaker');
  const phone = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const round = await phone.newPage();
  await signIn(round, caretaker.email, caretaker.password);
  await expect(round.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await round.goto(`/reading-round?property_id=${property.id}`);
  await expect(round.getByRole('heading', { name: 'Reading Round' })).toBeVisible();
  // a caretaker does not bill: no 'Run billing' for an editor
  await expect(round.getByRole('button', { name: 'Run billing' })).toHaveCount(0);
  const card = round.getByTestId('round-meter');
  await expect(card.getByText('Meter 1 of 2')).toBeVisible();
  await expect(card.getByText(`W-${stamp}`)).toBeVisible();
  await card.getByLabel("Today's reading").fill('80');
  await expect(card.getByTestId('round-consumption')).toHaveText('Consumption: 60 m³');
  await expect(card.getByText('Over 3× the usual consumption')).toBeVisible();
  await round.screenshot({ path: `${SHOTS}/utilities-round-flagged-360.png`, fullPage: true });
  await card.getByRole('button', { name: 'Save and next' }).click();

  // the second meter typed offline: kept on the phone, sent once back online
  await expect(card.getByText('Meter 2 of 2')).toBeVisible();
  await phone.setOffline(true);
  await card.getByLabel("Today's reading").fill('125');
  await card.getByRole('button', { name: 'Save and next' }).click();
  await expect(round.getByTestId('round-network')).toHaveText('Offline: 1 reading kept on this phone');
  await round.screenshot({ path: `${SHOTS}/utilities-round-offline-360.png`, fullPage: true });
  await phone.setOffline(false);
  await expect(round.getByTestId('round-network')).toHaveText('All readings sent', { timeout: 15_000 });

  // the flagged one confirmed
  await round.getByRole('button', { name: new RegExp(`M1 ${stamp}`) }).click();
  await expect(card.getByText('Saved, held back: over 3× the usual consumption.')).toBeVisible();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByText('Reading 80 saved.')).toBeVisible();
  expect(await round.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  const readingsOf = async (meter: number) => {
    const filter = encodeURIComponent(JSON.stringify({ field: 'meter_id', value: meter }));
    const res = await page.request.get(`${API}/meter_readings?filter=${filter}&sort=reading_date`);
    return (await res.json()) as { id: number; value: number; status: string; flag: string | null }[];
  };
  // the offline reading reached the server once
  expect((await readingsOf(power.id)).map((r) => r.value)).toEqual([125]);

  // the billing run, from the reading round's 'Run billing' card (an admin)
  await page.goto(`/reading-round?property_id=${property.id}`);
  await page.getByRole('button', { name: 'Run billing' }).click();
  const result = page.getByLabel('Billing result');
  await expect(result).toBeVisible();
  const charges = page.getByRole('list', { name: 'Charges made' });
  await expect(charges).toContainText(`M1 ${stamp} · Wanda Water${stamp}: `);
  await expect(page.getByRole('list', { name: 'Billed to nobody' })).toContainText(
    `E-${stamp}: let to nobody`,
  );
  await page.screenshot({ path: `${SHOTS}/utilities-billing-1366.png`, fullPage: true });
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: `${SHOTS}/utilities-billing-360.png`, fullPage: true });
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  expect((await readingsOf(water.id)).map((r) => [r.value, r.status])).toEqual([
    [10, 'billed'],
    [20, 'billed'],
    [80, 'billed'],
  ]);
  // the billing day in the company's settings, on a phone and on a desktop
  await page.goto('/company-settings');
  const billingDay = page.getByLabel('Meter billing day');
  await billingDay.scrollIntoViewIfNeeded();
  await expect(billingDay).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/utilities-billing-day-360.png` });
  await page.setViewportSize({ width: 1366, height: 900 });
  await billingDay.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/utilities-billing-day-1366.png` });

  // the tenant, invited (no e-mail on this server: the link), sees the water charge and its readings
  const invite = await post<{ link: string | null }>(`/tenants/${tenant.id}/invite`, { channel: 'email' });
  expect(invite.link).toMatch(/\/portal\/welcome\?token=/);
  const link = new URL(invite.link ?? '');
  const mobile = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const portal = await mobile.newPage();
  await portal.goto(link.pathname + link.search);
  await portal.getByLabel('Password', { exact: true }).fill('Wanda-tenant-e2e-2026');
  await portal.getByLabel('Confirm password').fill('Wanda-tenant-e2e-2026');
  await portal.getByRole('button', { name: 'Set password and sign in' }).click();
  await portal.getByRole('button', { name: 'Show ledger' }).click();
  const ledger = portal.locator('.ledger');
  await expect(ledger).toContainText(`Water 60 m³ (20 – 80), meter W-${stamp}`);
  const latest = (await readingsOf(water.id)).at(-1);
  const line = portal.getByTestId(`reading-${latest?.id ?? 0}`);
  await expect(line).toContainText(`Water meter W-${stamp}`);
  await expect(line).toContainText('Used 60 m³');
  await expect(line).toContainText(/60,000/);
  await line.scrollIntoViewIfNeeded();
  await portal.screenshot({ path: `${SHOTS}/utilities-portal-360.png`, fullPage: true });
  expect(await portal.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
  expect((await new AxeBuilder({ page: portal }).analyze()).violations.map((v) => v.id)).toEqual([]);
  // the lease's readings through the API: three billed, newest first
  const own = await portal.request.get(`${API}/portal/leases/${lease.id}/meter-readings`);
  expect(((await own.json()) as { value: number }[]).map((r) => r.value)).toEqual([80, 20, 10]);
  await phone.close();
  await mobile.close();
});
