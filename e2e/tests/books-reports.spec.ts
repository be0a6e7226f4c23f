import { expect, test } from '@playwright/test';
import { API, sessionOf, signIn, kampalaDay } from './helpers.ts';

test('opens the Financial Reports page from the drawer and sees a trial balance whose totals agree', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  // a manual entry, so the trial balance has figures whatever the company holds
  const { csrf } = await sessionOf(page);
  const accounts = (await (await page.request.get(`${API}/ledger-accounts`)).json()) as {
    id: number;
    role: string | null;
  }[];
  const id = (role: string) => accounts.find((a) => a.role === role)?.id;
  const today = kampalaDay();
  const posted = await page.request.post(`${API}/journal`, {
    headers: { 'X-CSRF-Token': csrf },
    data: {
      date: today,
      memo: 'E2E opening cash',
      lines: [
        { account_id: id('cash'), debit: '1234.50' },
        { account_id: id('opening_balances'), credit: '1234.50' },
      ],
    },
  });
  expect(posted.status(), await posted.text()).toBe(201);

  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Financial Reports' }).click();
  await expect(page).toHaveURL(/\/financial-reports/);
  await expect(page.getByRole('heading', { name: 'Financial Reports', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Trial balance' }).click();
  const table = page.getByRole('table', { name: 'Trial Balance' });
  await expect(table.getByRole('rowheader', { name: 'Total' })).toBeVisible();
  await expect(table.getByRole('rowheader', { name: 'Cash on hand' })).toBeVisible();
  const debit = (await page.getByTestId('trial-balance-debit').textContent())?.trim() ?? '';
  const credit = (await page.getByTestId('trial-balance-credit').textContent())?.trim() ?? '';
  expect(debit).not.toBe('');
  expect(Number(debit.replace(/,/g, ''))).toBeGreaterThanOrEqual(1234);
  expect(debit).toBe(credit);
  await page.screenshot({ path: testInfo.outputPath('trial-balance-1366.png'), fullPage: true });

  // the other reports draw too
  await page.getByRole('tab', { name: 'Balance sheet' }).click();
  await expect(
    page
      .getByRole('table', { name: 'Balance Sheet' })
      .getByRole('rowheader', { name: 'Total liabilities and equity' }),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('balance-sheet-1366.png'), fullPage: true });
  await page.getByRole('tab', { name: 'General ledger' }).click();
  await expect(
    page.getByRole('table', { name: 'General Ledger' }).getByRole('rowheader', { name: 'Closing balance' }),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('general-ledger-1366.png'), fullPage: true });

  // at 360 px the page does not overflow: the tables scroll on their own
  await page.setViewportSize({ width: 360, height: 740 });
  for (const tab of ['Trial balance', 'General ledger', 'Balance sheet', 'Income & cash flow']) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForTimeout(300);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, tab).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: testInfo.outputPath(`${tab.replace(/\W+/g, '-').toLowerCase()}-360.png`),
      fullPage: true,
    });
  }
});
