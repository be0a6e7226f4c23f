import path from 'node:path';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/**
 * Issue 28's monthly service charge on a phone: the company settings' amount and words, and a
 * property's own amount in its form, fit a 360 px screen with their labels (nothing is saved: the
 * demo's leases keep their balances for the other specs).
 */
test('the service charge fields of the company settings and the property form at 360 px', async ({
  page,
}) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 360, height: 800 });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await page.goto('/company-settings');
  await expect(page.getByRole('heading', { name: 'Service charge' })).toBeVisible();
  const amount = page.getByLabel('Service charge per unit per month');
  await amount.scrollIntoViewIfNeeded();
  await expect(amount).toBeVisible();
  await expect(amount).toHaveValue('0');
  const words = page.getByLabel('Service charge description');
  await expect(words).toHaveValue('Service charge');
  await words.fill('Estate levy');
  await expect(page.getByText(/^Its charges read: Estate levy \w+ \d{4}\.$/)).toBeVisible();
  await amount.fill('1500');
  await expect(page.getByText('0: none. A property can have its own.')).toBeVisible();
  await page
    .getByRole('region', { name: 'Service charge' })
    .screenshot({ path: `${SHOTS}/service-charge-settings-360.png` });
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);

  await page.goto('/properties');
  await page.getByRole('button', { name: 'Add Property', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'New Property' });
  const own = form.getByLabel('Service Charge per Unit per Month');
  await own.scrollIntoViewIfNeeded();
  await expect(own).toBeVisible();
  await expect(
    form.getByText("Empty: the company's service charge; 0: none for this property."),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/service-charge-property-form-360.png` });
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
});
