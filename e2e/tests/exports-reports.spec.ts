import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test('exports the searched tenants to Excel with the visible columns and only the matching rows', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await page.goto('/tenants');
  const firstRow = page.getByRole('row').nth(1);
  await expect(firstRow).toBeVisible();
  const lastName = (await firstRow.getByRole('cell').nth(1).textContent())?.trim() ?? '';
  expect(lastName).not.toBe('');

  await page.getByLabel('Search Tenants (Name, Phone)').fill(lastName);
  await expect(page.getByRole('row').nth(1)).toContainText(lastName);
  const shown = await page.getByRole('row').count();

  await page.getByRole('button', { name: 'Export' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Excel (xlsx)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('tenants.xlsx');
  const path = await file.path();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(fs.readFileSync(path) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  expect(ws.getRow(1).values).toEqual([
    undefined,
    'First Name',
    'Last Name',
    'Unit',
    'Balance',
    'Phone',
    'Sex',
    'Country Code',
  ]);
  const lastNames: string[] = [];
  ws.eachRow((row, i) => {
    if (i > 1) lastNames.push(String(row.getCell(2).value));
  });
  expect(lastNames.length).toBeGreaterThan(0);
  expect(lastNames.length).toBeLessThanOrEqual(Math.max(shown - 1, 25) * 40);
  for (const name of lastNames) expect(name.toLowerCase()).toContain(lastName.toLowerCase());
});

test('shows the financial reports with their charts, and exports one', async ({ page }, testInfo) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await page.goto('/financial-reports');
  await expect(page.getByRole('heading', { name: 'Monthly Income Statement' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Cash Flow Statement' })).toBeVisible();
  const income = page.getByRole('table', { name: 'Monthly Income Statement' });
  await expect(income.getByRole('rowheader', { name: 'Net Operating Income' })).toBeVisible();
  await expect(income.getByRole('rowheader', { name: 'Rental income' })).toBeVisible();
  // the year's total: a last column whose value is the sum of the twelve months
  await expect(income.getByRole('columnheader').last()).toHaveText('Total');
  const rental = income
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Rental income' }) });
  const cells = (await rental.getByRole('cell').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
  expect(cells).toHaveLength(13);
  expect(cells[12]).toBeGreaterThan(0);
  expect(cells[12]).toBeCloseTo(
    cells.slice(0, 12).reduce((a, b) => a + b, 0),
    0,
  );
  const cash = page.getByRole('table', { name: 'Cash Flow Statement' });
  await expect(cash.getByRole('rowheader', { name: 'Closing balance' })).toBeVisible();
  // the two charts are drawn (SVG bars: the income statement's three series, the cash flow's balance)
  await expect(page.locator('svg .MuiBarElement-root').first()).toBeVisible();
  const charts = page.locator('svg:has(.MuiBarElement-root)');
  await expect(charts).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath('financial-reports.png'), fullPage: true });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the income statement to Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^income-statement_\d{4}-\d{2}_\d{4}-\d{2}\.xlsx$/);
});

test('a stale edit shows the conflict message and reloads the latest version', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await page.goto('/vendors');
  const row = page.getByRole('row').nth(1);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Vendor' });
  await expect(dialog).toBeVisible();
  const name = dialog.getByRole('textbox', { name: /^Name/ });
  await expect(name).not.toHaveValue('');

  // someone else saves the same vendor meanwhile
  const id = await page.evaluate(async () => {
    const list = (await (await fetch('/rentapi/api/vendors?page_size=1')).json()) as { id: number }[];
    return list[0]?.id ?? 0;
  });
  const csrf = (await (await page.request.get('/rentapi/api/auth/csrf-token')).json()).csrf_token as string;
  const current = await (await page.request.get(`/rentapi/api/vendors/${id}`)).json();
  const changed = await page.request.put(`/rentapi/api/vendors/${id}`, {
    headers: { 'X-CSRF-Token': csrf },
    data: { ...current, name: 'Changed Elsewhere Ltd' },
  });
  expect(changed.status()).toBe(200);

  await name.fill('My Stale Edit');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByText('This record was changed by someone else. Reload to see the latest version.').first(),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(name).toHaveValue('Changed Elsewhere Ltd');
});
