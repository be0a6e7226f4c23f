import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { API, sessionOf, signIn } from './helpers.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** Through the signed-in browser's session, with its CSRF token. */
const poster = async (page: Page) => {
  const { csrf } = await sessionOf(page);
  return async <T>(url: string, data: Record<string, unknown>): Promise<T> => {
    const res = await page.request.post(`${API}${url}`, { data, headers: { 'X-CSRF-Token': csrf } });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as T;
  };
};

/**
 * Issue 28: a caretaker walks a building's meters on a phone (360 px): a reading over three times the
 * usual is held back and confirmed, a reading typed offline waits on the phone and is sent once when
 * the network returns.
 */
test('a reading round on a phone: one reading flagged and confirmed, one typed offline and sent once', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  await page.setViewportSize({ width: 360, height: 800 });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const post = await poster(page);
  const property = await post<{ id: number }>('/properties', {
    name: `Round Court ${stamp}`,
    address: '7 Round road',
  });
  const unit = (name: string) =>
    post<{ id: number }>('/units', {
      name,
      property_id: property.id,
      address: '7 Round road',
      unit_type: 'apartment',
      status: 'available',
      monthly_rate: 500_000,
      weekly_rate: 150_000,
      daily_rate: 20_000,
    });
  const first = await unit(`R1 ${stamp}`);
  const second = await unit(`R2 ${stamp}`);
  const water = await post<{ id: number }>('/meters', {
    number: `W-${stamp}`,
    kind: 'water',
    unit_id: first.id,
  });
  const power = await post<{ id: number }>('/meters', {
    number: `E-${stamp}`,
    kind: 'electricity',
    unit_id: second.id,
    initial_reading: 100,
  });
  // water's usual: 10 m³ a month
  await post('/meter_readings', { meter_id: water.id, reading_date: '2026-01-31', value: 10 });
  await post('/meter_readings', { meter_id: water.id, reading_date: '2026-02-28', value: 20 });

  await page.goto(`/reading-round?property_id=${property.id}`);
  await expect(page.getByRole('heading', { name: 'Reading Round' })).toBeVisible();
  const card = page.getByTestId('round-meter');
  await expect(card.getByText('Meter 1 of 2')).toBeVisible();
  await expect(card.getByText(`W-${stamp}`)).toBeVisible();
  await expect(card.getByText(/Previous reading: 20 m³ on/)).toBeVisible();

  // 60 m³ more: over three times the usual, shown as it is typed
  await card.getByLabel("Today's reading").fill('80');
  await expect(card.getByTestId('round-consumption')).toHaveText('Consumption: 60 m³');
  await expect(card.getByText('Over 3× the usual consumption')).toBeVisible();
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/reading-round-360.png`, fullPage: true });
  await card.getByRole('button', { name: 'Save and next' }).click();

  // the second meter, offline: kept on the phone
  await expect(card.getByText('Meter 2 of 2')).toBeVisible();
  await context.setOffline(true);
  await card.getByLabel("Today's reading").fill('112.5');
  await expect(card.getByTestId('round-consumption')).toHaveText('Consumption: 12.5 kWh');
  await card.getByRole('button', { name: 'Save and next' }).click();
  await expect(page.getByTestId('round-network')).toHaveText('Offline: 1 reading kept on this phone');
  await expect(card.getByText('Reading 112.5 is kept on this phone until it is sent.')).toBeVisible();
  // back online: sent once
  await context.setOffline(false);
  await expect(page.getByTestId('round-network')).toHaveText('All readings sent', { timeout: 15_000 });
  await expect(card.getByText('Reading 112.5 saved.')).toBeVisible();

  // the first one was held back: confirmed on the phone
  await page.getByRole('button', { name: new RegExp(`R1 ${stamp}`) }).click();
  await expect(card.getByText('Saved, held back: over 3× the usual consumption.')).toBeVisible();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByText('Reading 80 saved.')).toBeVisible();

  const readings = async (meter: number) => {
    const filter = encodeURIComponent(JSON.stringify({ field: 'meter_id', value: meter }));
    const res = await page.request.get(`${API}/meter_readings?filter=${filter}&sort=reading_date`);
    return (await res.json()) as {
      value: number;
      consumption: number;
      status: string;
      flag: string | null;
    }[];
  };
  expect(await readings(power.id)).toEqual([
    expect.objectContaining({ value: 112.5, consumption: 12.5, status: 'ready', flag: null }),
  ]);
  expect((await readings(water.id)).at(-1)).toMatchObject({
    value: 80,
    consumption: 60,
    flag: 'high',
    status: 'ready',
  });

  // nothing wider than a phone; the desktop layout too
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1366, height: 900 });
  await expect(card).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/reading-round-1366.png`, fullPage: true });
});
