import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

/**
 * The owner portal at 360 px (issue 27): staff invite a demo owner from its details (no e-mail set up
 * on this server: the link to copy), the owner sets a password and sees its buildings (let and vacant,
 * its share, this month's money), the tenants in arrears by name, last month's statement (its PDF) and
 * the payouts.
 */
test('an owner invited by staff sees its own buildings, collections and arrears at 360 px', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await page.goto('/owners');
  const grace = page
    .getByRole('table', { name: 'Owners' })
    .getByRole('row')
    .filter({ hasText: 'Grace Namuli' });
  await grace.getByRole('button', { name: 'View details' }).click();
  const details = page.getByRole('dialog', { name: 'Owner Details' });
  // last month's statement as a PDF, from the details
  const statement = details.getByRole('region', { name: 'Owner statement' });
  await expect(statement.getByLabel('Month')).toHaveValue(/^\d{4}-\d{2}$/);
  const staffPdf = page.waitForEvent('download');
  await statement.getByRole('button', { name: 'Statement', exact: true }).click();
  expect((await staffPdf).suggestedFilename()).toMatch(/^owner_statement_\d+_\d{4}-\d{2}-01_[\d-]+\.pdf$/);
  const section = details.getByRole('region', { name: 'Owner portal' });
  await section.getByRole('button', { name: 'Invite by e-mail' }).click();
  await expect(section.getByText(/Not sent: e-mail is not set up/)).toBeVisible();
  const link = await section.getByLabel('Invitation link').inputValue();
  expect(new URL(link).pathname).toBe('/owner/welcome');

  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const owner = await phone.newPage();
  await owner.goto(new URL(link).pathname + new URL(link).search);
  await owner.getByLabel('Password', { exact: true }).fill('Grace-owner-e2e-2026');
  await owner.getByLabel('Confirm password').fill('Grace-owner-e2e-2026');
  await owner.getByRole('button', { name: 'Set password and sign in' }).click();

  await expect(owner.getByRole('heading', { name: 'Demo Properties' })).toBeVisible();
  await expect(owner).toHaveURL(/\/owner$/);
  const kololo = owner.locator('article', { has: owner.getByRole('heading', { name: /Kololo Heights/ }) });
  await expect(kololo).toContainText('your share 100%');
  await expect(kololo).toContainText(/\d+ units: \d+ let, \d+ vacant/);
  await expect(kololo).toContainText('Collected this month');
  await expect(owner.getByRole('heading', { name: /Naguru View/ })).toContainText('your share 60%');
  // the company's own buildings and the other owner's are not hers
  await expect(owner.getByRole('heading', { name: /Bukoto Gardens/ })).toHaveCount(0);
  // nothing wider than the phone
  expect(await owner.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
  expect((await new AxeBuilder({ page: owner }).analyze()).violations.map((v) => v.id)).toEqual([]);

  await owner.getByRole('button', { name: 'Arrears' }).click();
  await expect(owner.getByText(/Rent that fell due before/)).toBeVisible();
  await owner.getByRole('button', { name: 'Statements' }).click();
  // last month's statement by default: its figures, its PDF, and the payouts
  const month = owner.getByLabel('Month');
  const lastMonth = await month.inputValue();
  expect(lastMonth).toMatch(/^\d{4}-\d{2}$/);
  const totals = owner.getByTestId('statement-totals');
  await expect(totals.locator('[data-figure="collected"]')).toContainText(/UGX|USh/);
  await expect(totals.locator('[data-figure="closing_balance"]')).toContainText('Held at the end');
  await expect(totals.locator('[data-figure="available"]')).toContainText('Available to pay out');
  await expect(owner.getByRole('heading', { name: /Kololo Heights/ })).toBeVisible();
  const pdf = owner.waitForEvent('download');
  await totals.getByRole('button', { name: 'Download PDF' }).click();
  expect((await pdf).suggestedFilename()).toMatch(/^owner_statement_\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.pdf$/);
  await expect(owner.getByRole('heading', { name: 'Payouts' })).toBeVisible();
  expect(await owner.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
  expect((await new AxeBuilder({ page: owner }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await phone.close();
});
