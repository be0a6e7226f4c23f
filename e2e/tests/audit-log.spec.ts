import { expect, test } from '@playwright/test';
import { API, signIn } from './helpers.ts';

test('Audit Log: lists a change made just before, with its fields, at desktop and phone widths', async ({
  page,
}) => {
  const name = `Audit${Date.now().toString(36)}`;
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const status = (await (await page.request.get(`${API}/auth/status`)).json()) as { csrf_token: string };
  const made = await page.request.post(`${API}/units`, {
    data: {
      name,
      address: 'Plot 1, Audit Road, Kampala',
      unit_type: 'apartment',
      status: 'available',
      monthly_rate: 500_000,
      weekly_rate: 125_000,
      daily_rate: 20_000,
    },
    headers: { 'X-CSRF-Token': status.csrf_token },
  });
  expect(made.status(), await made.text()).toBe(201);
  const unit = (await made.json()) as { id: number };

  await page.goto('/audit-log');
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  await page.getByLabel('Search Audit Log (User, Entity, Summary)').fill(`units create ${unit.id}`);
  const row = page.getByRole('row').filter({ hasText: `Unit #${unit.id}` });
  await expect(row).toBeVisible();
  // in words: what happened, and the fields as a list by their labels (never JSON)
  await expect(row).toContainText('Unit added');
  await expect(row.getByRole('listitem').filter({ hasText: `Name: ${name}` })).toBeVisible();
  await expect(row).not.toContainText('{');
  await page.screenshot({ path: 'test-results/audit-log-desktop.png', fullPage: true });

  await row.getByRole('button', { name: 'View entry' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Unit added' })).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Changes' })).toContainText('Monthly Rate: 500,000');
  await expect(dialog.getByRole('list', { name: 'Changes' })).toContainText(
    'Address: Plot 1, Audit Road, Kampala',
  );
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.setViewportSize({ width: 360, height: 780 });
  await expect(row).toBeVisible();
  await page.screenshot({ path: 'test-results/audit-log-phone.png', fullPage: true });
});
