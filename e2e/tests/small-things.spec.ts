import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';

// Issue 26, 'Small things found on the way': the country picker's order, the User Roles page's
// role guide, the message log's reasons, and the changed pages at 1366 and 360 px
// (docs/screenshots/issue-26-*.png), nothing wider than a 360 px screen.

const widths = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 360, height: 780 },
] as const;

const fitsTheScreen = async (page: Page, width: number) =>
  expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);

test.describe.configure({ timeout: 180_000 });

test("the country picker puts Uganda first for 'Ug', and User Roles explains each role", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await page.goto('/admin/user-roles');
  await expect(page.getByRole('heading', { name: 'User Roles Management' })).toBeVisible();
  await page.getByRole('button', { name: 'What each role may do' }).click();
  await expect(page.getByText("Reads the company's data without changing it.")).toBeVisible();
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await expect(add.getByText('Deletes nothing; voids only a payment they recorded today.')).toBeVisible();
  await add.getByRole('combobox', { name: 'Country' }).fill('Ug');
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toHaveText('Uganda (UGA)');
  await expect(options.filter({ hasText: 'Portugal' })).toHaveCount(1);
  await page.keyboard.press('Escape');
});

test('the changed pages at 1366 and 360 px', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const pages = [
    { path: '/help', name: 'help', ready: page.getByRole('heading', { name: 'Help Center' }) },
    {
      path: '/financial-reports',
      name: 'financial-reports',
      ready: page
        .getByRole('table', { name: 'Monthly Income Statement' })
        .getByRole('columnheader', { name: 'Total' }),
    },
    { path: '/messages', name: 'messages', ready: page.getByRole('columnheader', { name: 'Reason' }) },
    {
      path: '/audit-log',
      name: 'audit-log',
      ready: page.getByRole('columnheader', { name: 'What happened' }),
    },
    {
      path: '/admin/user-roles',
      name: 'user-roles',
      ready: page.getByRole('button', { name: 'What each role may do' }),
    },
  ];
  for (const { name, width, height } of widths) {
    await page.setViewportSize({ width, height });
    for (const p of pages) {
      await page.goto(p.path);
      await expect(p.ready).toBeVisible({ timeout: 30_000 });
      if (p.name === 'help') await page.getByLabel('Search help').fill('two-factor');
      if (width === 360) await fitsTheScreen(page, 360);
      await page.screenshot({
        path: `docs/screenshots/issue-26-${p.name}-${name}.png`,
        fullPage: width !== 360,
      });
    }
  }
});
