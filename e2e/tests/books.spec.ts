import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { API, sessionOf, signIn, kampalaDay } from './helpers.ts';

/** JSON through the signed-in browser's session, with its CSRF token. */
const caller = async (page: Page) => {
  const { csrf } = await sessionOf(page);
  return async <T>(method: 'POST' | 'GET', path: string, data?: Record<string, unknown>) => {
    const res = await page.request.fetch(`${API}${path}`, {
      method,
      ...(data ? { data } : {}),
      headers: { 'X-CSRF-Token': csrf },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return (await res.json()) as T;
  };
};

const iso = (daysAgo: number) => kampalaDay(-daysAgo);
const shown = (day: string) =>
  new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));

/** axe's serious and critical violations on the page as it is now. */
const seriousViolations = async (page: Page) => {
  // a notice fading in or out is read at part of its contrast: closed (and gone) before the check
  const notices = page.locator('.MuiSnackbar-root');
  await expect(async () => {
    for (const close of await notices.locator('button').all())
      await close.click({ timeout: 1_000 }).catch(() => undefined);
    expect(await notices.count()).toBe(0);
  }).toPass({ timeout: 15_000 });
  return (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

/** Both widths: the page (or dialog) fits 360 px, and a screenshot of each. */
const shoot = async (page: Page, name: string) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: `test-results/books-${name}-1366.png`, fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  await expect
    .poll(() => page.evaluate<number>('document.documentElement.scrollWidth'))
    .toBeLessThanOrEqual(360);
  await page.screenshot({ path: `test-results/books-${name}-360.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
};

test('a payment posts a balanced entry; a manual entry balances before it posts; the books close', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  // A company of its own: closing the demo company's books would refuse the other tests' payments.
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const admin = await caller(page);
  const company = await admin<{ id: number }>('POST', '/companies', {
    name: `Ledger Homes ${stamp}`,
    email: `books-${stamp}@e2e.test`,
    phone_number: '+256 414 000000',
    address: 'Plot 7, Ledger Lane, Kampala',
    industry_type: 'Real estate',
    currency_code: 'UGX',
    status: true,
  });
  const email = `books-${stamp}@e2e.test`;
  const password = 'e2e-user-password-1';
  await admin('POST', '/auth/register_as_admin', {
    email,
    first_name: 'Bea',
    last_name: 'Bookkeeper',
    company_id: company.id,
    country_code: 'UGA',
    active: true,
    password,
    roles: ['company_admin', 'editor'],
  });
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const books = await context.newPage();
  await signIn(books, email, password);
  await expect(books.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const call = await caller(books);

  // A lease and a completed payment of it, by mobile money.
  const unit = await call<{ id: number }>('POST', '/units', {
    name: `Ledger Unit ${stamp}`,
    address: 'Plot 7, Ledger Lane, Kampala',
    unit_type: 'apartment',
    status: 'occupied',
    monthly_rate: 650_000,
    weekly_rate: 200_000,
    daily_rate: 30_000,
  });
  const tenant = await call<{ id: number }>('POST', '/tenants', {
    first_name: 'Hilda',
    last_name: `Ledger${stamp}`,
    sex: 'F',
    country_code: '+256',
    phone: '+256772000444',
    date_of_birth: '1990-02-03',
    status: 'active',
  });
  await call('POST', '/occupancy', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    start_date: iso(10),
    rate: 650_000,
    rent_cycle: 'monthly',
  });
  const payment = await call<{ id: number; receipt_number: string }>('POST', '/payments', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    payment_date: iso(3),
    amount_paid: 650_000,
    payment_method: 'mobilemoney',
    status: 'completed',
    effective_start_date: iso(10),
    effective_end_date: iso(-20),
  });

  // The drawer shows the books in Finance.
  await books.goto('/journal');
  await expect(books.getByRole('heading', { name: 'Journal', exact: true })).toBeVisible();
  await expect(books.getByRole('link', { name: 'Chart of Accounts' })).toBeVisible();
  await expect(books.getByTestId('books-closed-through')).toHaveText(/not been closed yet/);

  // The payment's entry: Dr Mobile money / Cr Accounts receivable, with its lease's records.
  const row = books.getByRole('row').filter({ hasText: payment.receipt_number });
  await expect(row).toContainText('Payment');
  await expect(row).toContainText(shown(iso(3)));
  await expect(row.getByRole('cell', { name: 'UGX 650,000' })).toHaveCount(2);
  await books.getByRole('combobox', { name: /^Source/ }).click();
  await books.getByRole('option', { name: 'Manual entry' }).click();
  await expect(books.getByRole('row').filter({ hasText: payment.receipt_number })).toHaveCount(0);
  await expect(books.getByText('No entries match.')).toBeVisible();
  await books.getByRole('combobox', { name: /^Source/ }).click();
  await books.getByRole('option', { name: 'Payment', exact: true }).click();
  await row.getByRole('button', { name: /View entry/ }).click();
  const entry = books.getByRole('dialog', { name: /Journal entry #\d+/ });
  const lines = entry.getByRole('table', { name: 'Lines' });
  await expect(lines.getByRole('row').filter({ hasText: '1010 Mobile money' })).toContainText('UGX 650,000');
  const receivable = lines.getByRole('row').filter({ hasText: '1100 Accounts receivable (tenants)' });
  await expect(receivable).toContainText('UGX 650,000');
  // the lease, tenant and unit both lines name, once
  await expect(entry.getByText(`Tenant: Hilda Ledger${stamp}`)).toHaveCount(1);
  await expect(entry.getByText(`Unit: Ledger Unit ${stamp}`)).toHaveCount(1);
  const total = lines.getByRole('row').filter({ hasText: 'Total' });
  await expect(total.getByText('UGX 650,000')).toHaveCount(2);
  await shoot(books, 'entry');
  await entry.getByRole('button', { name: 'Close' }).click();
  await books.getByRole('combobox', { name: /^Source/ }).click();
  await books.getByRole('option', { name: 'All sources' }).click();
  await shoot(books, 'journal');
  expect(await seriousViolations(books), 'the journal').toEqual([]);

  // A manual entry: Post waits until debits equal credits.
  await books.getByRole('button', { name: 'New journal entry' }).click();
  const form = books.getByRole('dialog', { name: 'New journal entry' });
  await form.getByLabel('Memo').fill(`Owner capital ${stamp}`);
  const line1 = form.getByRole('group', { name: 'Line 1' });
  await line1.getByRole('combobox', { name: 'Account' }).fill('1020');
  await books.getByRole('option', { name: '1020 Bank' }).click();
  await line1.getByLabel('Line 1 debit').fill('100,000');
  const line2 = form.getByRole('group', { name: 'Line 2' });
  await line2.getByRole('combobox', { name: 'Account' }).fill('Opening');
  await books.getByRole('option', { name: '3000 Opening balances' }).click();
  await line2.getByLabel('Line 2 credit').fill('90000');
  const totals = form.getByRole('status', { name: 'Totals' });
  await expect(totals).toContainText('Out of balance by UGX 10,000');
  await expect(form.getByRole('button', { name: 'Post entry' })).toBeDisabled();
  await shoot(books, 'new-entry');
  await line2.getByLabel('Line 2 credit').fill('100000');
  await expect(totals).toContainText('Balanced');
  await form.getByRole('button', { name: 'Post entry' }).click();
  const posted = books.getByRole('dialog', { name: /Journal entry #\d+/ });
  await expect(posted.getByText(`Owner capital ${stamp}`)).toBeVisible();
  await expect(posted.getByRole('row').filter({ hasText: '1020 Bank' })).toContainText('UGX 100,000');
  await posted.getByRole('button', { name: 'Close' }).click();
  await expect(books.getByRole('row').filter({ hasText: `Owner capital ${stamp}` })).toContainText(
    'Manual entry',
  );

  // The chart: balances in the company's currency; a used account is not deleted, it is deactivated.
  await books.getByRole('link', { name: 'Chart of Accounts' }).click();
  await expect(books.getByRole('heading', { name: 'Chart of Accounts' })).toBeVisible();
  const bank = books.getByRole('row').filter({ hasText: '1020' });
  await expect(bank).toContainText('UGX 100,000');
  await expect(bank).toContainText('Bank transfers and cheques');
  await expect(books.getByRole('row').filter({ hasText: '1010' })).toContainText('UGX 650,000');
  await books.getByRole('button', { name: 'Add account' }).click();
  const add = books.getByRole('dialog', { name: 'Add account' });
  await add.getByLabel('Code').fill('1020');
  await add.getByLabel('Name').fill('Petty cash');
  await add.getByLabel('Type').click();
  await books.getByRole('option', { name: 'Asset' }).click();
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add.getByText('An account of this code exists already.')).toBeVisible();
  await add.getByLabel('Code').fill('1040');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toHaveCount(0);
  await expect(books.getByRole('row').filter({ hasText: 'Petty cash' })).toContainText('Active');
  await books.getByRole('button', { name: 'Delete 1020' }).click();
  await books.getByRole('dialog', { name: 'Confirm Delete' }).getByRole('button', { name: 'Delete' }).click();
  await expect(books.getByRole('alert').filter({ hasText: 'cannot be deleted' })).toContainText(
    /^1020 Bank cannot be deleted\. .*deactivate it instead\./,
  );
  await books.getByRole('button', { name: 'Deactivate 1040' }).click();
  await expect(books.getByRole('row').filter({ hasText: 'Petty cash' })).toContainText('Inactive');
  await shoot(books, 'chart');
  expect(await seriousViolations(books), 'the chart').toEqual([]);

  // The close: through yesterday; afterwards an entry dated then is refused on its date.
  await books.goto('/journal');
  await books.getByRole('button', { name: 'Close the books' }).click();
  const close = books.getByRole('dialog', { name: 'Close the books' });
  await expect(close.getByText(/Nothing can be posted, voided or adjusted on or before/)).toBeVisible();
  await expect(close.getByLabel('Close through')).toHaveValue(iso(1));
  await shoot(books, 'close');
  await close.getByRole('button', { name: `Close through ${shown(iso(1))}` }).click();
  await expect(books.getByTestId('books-closed-through')).toHaveText(`Books closed through ${shown(iso(1))}`);
  await books.getByRole('button', { name: 'New journal entry' }).click();
  await form.getByLabel('Date').fill(iso(2));
  await form.getByLabel('Memo').fill('Too late');
  await form.getByRole('group', { name: 'Line 1' }).getByRole('combobox', { name: 'Account' }).fill('1000');
  await books.getByRole('option', { name: '1000 Cash on hand' }).click();
  await form.getByLabel('Line 1 debit').fill('5');
  await form.getByRole('group', { name: 'Line 2' }).getByRole('combobox', { name: 'Account' }).fill('3000');
  await books.getByRole('option', { name: '3000 Opening balances' }).click();
  await form.getByLabel('Line 2 credit').fill('5');
  await form.getByRole('button', { name: 'Post entry' }).click();
  await expect(form.getByText(`The books are closed through ${shown(iso(1))}.`)).toBeVisible();
  await form.getByRole('button', { name: 'Cancel' }).click();

  // An expense is paid from an asset account, Cash on hand unless another is chosen.
  await books.goto('/expenses');
  await books.getByRole('button', { name: 'Add Expense' }).click();
  const expense = books.getByRole('dialog', { name: /Expense/ });
  const paidFrom = expense.getByRole('combobox', { name: 'Paid From Account' });
  await expect(paidFrom).toHaveText('1000 Cash on hand');
  await paidFrom.click();
  await expect(books.getByRole('option', { name: '1020 Bank' })).toBeVisible();
  await expect(books.getByRole('option', { name: /Rental income/ })).toHaveCount(0);
  await books.getByRole('option', { name: '1020 Bank' }).click();
  await shoot(books, 'expense-form');
  await context.close();
});
