import { expect, test, type Page } from '@playwright/test';
import { API, sessionOf, signIn } from './helpers.ts';

/** JSON through the signed-in browser's session, with its CSRF token. */
const caller = async (page: Page) => {
  const { csrf } = await sessionOf(page);
  return async <T>(method: 'POST' | 'GET' | 'DELETE', path: string, data?: Record<string, unknown>) => {
    const res = await page.request.fetch(`${API}${path}`, {
      method,
      ...(data ? { data } : {}),
      headers: { 'X-CSRF-Token': csrf },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return (res.status() === 204 ? undefined : await res.json()) as T;
  };
};

test("a payment's receipt carries a QR link that anyone can open, signed out, until the payment is voided or deleted", async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const call = await caller(page);
  const { companyId } = await sessionOf(page);
  const company = await call<{ name: string }>('GET', `/companies/${companyId}`);

  // A lease and a completed payment of it.
  const unit = await call<{ id: number }>('POST', '/units', {
    name: `QR Unit ${stamp}`,
    address: 'Plot 9, Test Road, Kampala',
    unit_type: 'apartment',
    status: 'occupied',
    monthly_rate: 650_000,
    weekly_rate: 200_000,
    daily_rate: 30_000,
  });
  const tenant = await call<{ id: number }>('POST', '/tenants', {
    first_name: 'Harriet',
    last_name: `Quest${stamp}`,
    sex: 'F',
    country_code: '+256',
    phone: '+256772000333',
    date_of_birth: '1990-02-03',
    status: 'active',
  });
  await call('POST', '/occupancy', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    start_date: '2026-01-01',
    rate: 650_000,
    rent_cycle: 'monthly',
  });
  const payment = await call<{ id: number; receipt_number: string }>('POST', '/payments', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    payment_date: '2026-11-05',
    amount_paid: 650_000,
    payment_method: 'mobilemoney',
    status: 'completed',
    effective_start_date: '2026-11-01',
    effective_end_date: '2026-11-30',
  });

  // The staff receipt shows the QR code and the link it holds.
  await page.goto(`/payments/${payment.id}/receipt`);
  await expect(page.getByText(`Receipt No: ${payment.receipt_number}`)).toBeVisible();
  const verify = page.getByTestId('receipt-verify');
  await expect(verify.getByRole('heading', { name: 'Verify this receipt' })).toBeVisible();
  await expect(verify.getByRole('img', { name: "QR code of this receipt's public link" })).toBeVisible();
  const link = verify.getByRole('link');
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/r\/[0-9a-f]{64}$/);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/receipt-staff-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  // the layout follows the new width on React's next render (its media queries): wait for it
  await expect
    .poll(() => page.evaluate<number>('document.documentElement.scrollWidth'))
    .toBeLessThanOrEqual(360);
  await page.screenshot({ path: 'test-results/receipt-staff-360.png', fullPage: true });

  // Signed out (a browser with no session): the receipt is verified, with the tenant's initials only.
  const stranger = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const phone = await stranger.newPage();
  const scripts: string[] = [];
  phone.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await phone.goto(href ?? '');
  await expect(phone.getByRole('heading', { name: 'Receipt verified' })).toBeVisible();
  await expect(phone.getByText('This receipt is valid: the payment was received.')).toBeVisible();
  await expect(phone.getByText(company.name, { exact: true })).toBeVisible();
  await expect(phone.getByText(payment.receipt_number)).toBeVisible();
  await expect(phone.getByText('UGX 650,000')).toBeVisible();
  await expect(phone.getByText(`QR Unit ${stamp}`)).toBeVisible();
  await expect(phone.getByText('H. Q.')).toBeVisible();
  await expect(phone.getByText(`Quest${stamp}`)).toHaveCount(0);
  // it works at 360 px: nothing wider than the screen
  expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await phone.screenshot({ path: 'test-results/receipt-public-360.png', fullPage: true });
  // none of the staff app was loaded: no session asked, not the app's entry script
  expect(scripts.some((s) => /\/assets\/index-/.test(s))).toBe(false);
  expect((await stranger.cookies()).filter((c) => c.name === 'kodi_sid')).toHaveLength(0);

  // Voided from its details (issue 25): its form keeps the receipt's fields, the void asks why, and
  // the public check then says it was voided, no longer confirming the amount.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/payments');
  const row = page.getByRole('row').filter({ hasText: payment.receipt_number });
  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('dialog', { name: 'Edit Payment' });
  await expect(form.getByText('This payment has a receipt:')).toBeVisible();
  await expect(form.getByLabel('Amount Paid')).toBeDisabled();
  await expect(form.getByLabel('Details')).toBeEnabled();
  await page.screenshot({ path: 'test-results/payment-locked-1366.png' });
  await form.getByRole('button', { name: 'Cancel' }).click();
  await row.getByRole('button', { name: 'View details' }).click();
  await page.getByRole('button', { name: 'Void payment' }).click();
  const ask = page.getByRole('dialog', { name: 'Void payment' });
  await ask.getByRole('button', { name: 'Void payment' }).click();
  await expect(ask.getByText('Give the reason.')).toBeVisible();
  await ask.getByLabel('Reason').fill('Recorded on the wrong lease');
  await page.screenshot({ path: 'test-results/payment-void-1366.png' });
  await ask.getByRole('button', { name: 'Void payment' }).click();
  await expect(page.getByText('Payment voided.')).toBeVisible();
  await expect(page.getByText(/This payment was voided on .*: Recorded on the wrong lease/)).toBeVisible();
  await page.keyboard.press('Escape');
  // the list hides it unless filtered by Void
  await expect(page.getByRole('row').filter({ hasText: payment.receipt_number })).toHaveCount(0);
  await page.getByLabel('Payment Status').click();
  await page.getByRole('option', { name: 'Void' }).click();
  await expect(page.getByRole('row').filter({ hasText: payment.receipt_number })).toContainText('Void');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: 'test-results/payments-void-filter-360.png', fullPage: true });
  await phone.reload();
  await expect(phone.getByRole('heading', { name: 'Receipt voided' })).toBeVisible();
  await expect(phone.getByText(/^This receipt was voided on [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/)).toBeVisible();
  await expect(phone.getByText('UGX 650,000')).toHaveCount(0);
  await phone.screenshot({ path: 'test-results/receipt-public-void-360.png', fullPage: true });

  // Deleted (a pending payment: a completed one is voided instead), a receipt is no longer valid.
  const pending = await call<{ id: number }>('POST', '/payments', {
    tenant_id: tenant.id,
    unit_id: unit.id,
    payment_date: '2026-11-06',
    amount_paid: 1000,
    status: 'pending',
    effective_start_date: '2026-11-01',
    effective_end_date: '2026-11-30',
  });
  const pendingLink = await call<{ receipt_url: string }>('GET', `/payments/${pending.id}/receipt-link`);
  await call('DELETE', `/payments/${pending.id}`);
  await phone.goto(pendingLink.receipt_url);
  await expect(phone.getByRole('heading', { name: 'Receipt not valid' })).toBeVisible();
  await expect(phone.getByText('This receipt is no longer valid.')).toBeVisible();

  // A code that was never issued is not found.
  await phone.goto(`/r/${'0'.repeat(64)}`);
  await expect(phone.getByRole('heading', { name: 'Receipt not found' })).toBeVisible();
  await phone.setViewportSize({ width: 1280, height: 800 });
  await phone.goto(pendingLink.receipt_url);
  await expect(phone.getByRole('heading', { name: 'Receipt not valid' })).toBeVisible();
  await phone.screenshot({ path: 'test-results/receipt-public-revoked-desktop.png' });
  await phone.goto(href ?? '');
  await expect(phone.getByRole('heading', { name: 'Receipt voided' })).toBeVisible();
  await phone.screenshot({ path: 'test-results/receipt-public-void-desktop.png' });
  await stranger.close();
});
