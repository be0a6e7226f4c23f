import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { API, kampalaDay, sessionOf, signIn } from './helpers.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** A call of the API with the signed-in staff session (its CSRF token); answers the body. */
const call = async (page: Page, method: 'POST' | 'PUT', url: string, data: unknown) => {
  const { csrf } = await sessionOf(page);
  const res = await page.request.fetch(`${API}${url}`, { method, headers: { 'X-CSRF-Token': csrf }, data });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return (await res.json()) as { id: number };
};

/**
 * Issue 27's story: an owner with two properties managed at 10% of what is collected; rent recorded,
 * the month run, the owner's statement PDF opened (its text read), the owner paid out in the payout
 * run, and the payout seen in the owner portal at 360 px.
 */
test('an owner with two properties at 10%: rent, the run, the statement PDF, the payout, the portal at 360 px', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const today = kampalaDay();
  const month = today.slice(0, 7);
  const tag = Date.now().toString(36).slice(-5);
  const name = `Story ${tag}`;

  // the owner, two properties with a unit and a tenant each, owned 100% at 10% of what is collected
  const owner = await call(page, 'POST', '/owners', {
    first_name: name,
    last_name: 'Owner',
    email: `story-${tag}@e2e.test`,
    payout_method: 'bank',
  });
  for (const [i, rent] of [
    [1, 500000],
    [2, 300000],
  ] as const) {
    const property = await call(page, 'POST', '/properties', {
      name: `Story ${tag} House ${i}`,
      address: 'Kira',
    });
    const unit = await call(page, 'POST', '/units', {
      name: `S${tag}-${i}`,
      property_id: property.id,
      address: 'Kira Road',
      unit_type: 'apartment',
      status: 'available',
      monthly_rate: rent,
      weekly_rate: rent / 4,
      daily_rate: rent / 30,
    });
    await call(page, 'PUT', `/properties/${property.id}/owners`, [
      { owner_id: owner.id, share_percent: 100 },
    ]);
    await call(page, 'PUT', `/properties/${property.id}/agreement`, {
      fee_kind: 'percent_of_collected',
      fee_amount: 10,
    });
    const tenant = await call(page, 'POST', '/tenants', {
      first_name: `Tenant${i}`,
      last_name: tag,
      sex: 'F',
      country_code: '+256',
      date_of_birth: '1990-04-12',
      phone: `+25677${String(Date.now()).slice(-6)}${i}`,
      status: 'active',
    });
    await call(page, 'POST', '/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: `${month}-01`,
      rate: rent,
    });
    // the rent recorded
    await call(page, 'POST', '/payments', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      payment_date: today,
      amount_paid: rent,
      payment_method: 'cash',
      status: 'completed',
      effective_start_date: `${month}-01`,
      effective_end_date: today,
    });
  }
  // the month run (the daily run)
  await call(page, 'POST', '/rent-cycle/run', {});

  // the owner's statement of this month, as a PDF, from their details
  await page.goto('/owners');
  await page.getByLabel(/^Search Owners/).fill(name);
  const row = page.getByRole('table', { name: 'Owners' }).getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: 'View details' }).click();
  const details = page.getByRole('dialog', { name: 'Owner Details' });
  const statement = details.getByRole('region', { name: 'Owner statement' });
  await statement.getByLabel('Month').fill(month);
  const download = page.waitForEvent('download');
  await statement.getByRole('button', { name: 'Statement', exact: true }).click();
  const file = await (await download).path();
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  expect(text).toContain('Owner Statement');
  expect(text).toContain(`${name} Owner`);
  expect(text).toMatch(/Rent and other income collected UGX 500,000/);
  expect(text).toMatch(/Management fees -UGX 50,000/);
  expect(text).toMatch(/Management fees -UGX 30,000/);
  expect(text).toMatch(/Available to pay out UGX 720,000/);
  // sent to the owner through the message log (no mail server here: queued, then logged)
  await statement.getByRole('button', { name: 'Send statement' }).click();
  await expect(statement.getByRole('status')).toContainText(`E-mail to story-${tag}@e2e.test queued.`);
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // the payout run: the owner's available amount, paid on its line
  await page.getByRole('navigation').getByRole('link', { name: 'Owner Payouts' }).click();
  await expect(page.getByRole('heading', { name: 'Owner Payouts' })).toBeVisible();
  await page.getByRole('button', { name: 'Propose payouts' }).click();
  const line = page
    .getByRole('table', { name: 'Proposed payouts' })
    .getByRole('row')
    .filter({ hasText: name });
  await expect(line).toContainText('UGX 720,000');
  await expect(line.getByRole('textbox')).toHaveValue(/^720000(\.00)?$/);
  await line.getByRole('button', { name: /^Pay / }).click();
  await expect(line).toContainText('Paid');
  const made = page.getByRole('table', { name: 'Payouts made' }).getByRole('row').filter({ hasText: name });
  await expect(made).toContainText('UGX 720,000');
  await page.screenshot({ path: `${SHOTS}/owner-payouts-1366.png`, fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  // once the page has settled at its new width (the payout's notice slides in from the right)
  await expect
    .poll(() => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'))
    .toBe(0);
  await page.screenshot({ path: `${SHOTS}/owner-payouts-360.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });

  // the owner, invited, sees the payout in the portal at 360 px
  await page.goto('/owners');
  await page.getByLabel(/^Search Owners/).fill(name);
  await row.getByRole('button', { name: 'View details' }).click();
  const portal = details.getByRole('region', { name: 'Owner portal' });
  await portal.getByRole('button', { name: 'Invite by e-mail' }).click();
  const link = await portal.getByLabel('Invitation link').inputValue();
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const own = await phone.newPage();
  await own.goto(new URL(link).pathname + new URL(link).search);
  await own.getByLabel('Password', { exact: true }).fill('Story-owner-e2e-2026');
  await own.getByLabel('Confirm password').fill('Story-owner-e2e-2026');
  await own.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(own.getByRole('heading', { name: new RegExp(`Story ${tag} House 1`) })).toBeVisible();
  await own.getByRole('button', { name: 'Statements' }).click();
  await own.getByLabel('Month').fill(month);
  await expect(own.getByTestId('statement-totals').locator('[data-figure="payouts"]')).toContainText(
    '720,000',
  );
  await expect(own.getByTestId('payouts')).toContainText('720,000');
  expect(await own.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
  await own.screenshot({ path: `${SHOTS}/owner-story-portal-360.png`, fullPage: true });
  await phone.close();
});
