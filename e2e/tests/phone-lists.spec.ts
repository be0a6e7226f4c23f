import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { cardColumns, entityList } from '@kodi/domain';
import { API, signIn } from './helpers.ts';

/**
 * Issue 26, 'On a phone' and 'Money first'. At 360 px every entity list of the domain's one list
 * (`entityList`, never a list written here) shows its rows as cards holding their main fields
 * (`cardColumns`: the payments list's date, status, tenant, unit and amount) and its next-page button
 * on screen, and the page does not scroll sideways; the dashboard's money and the arrears fit too.
 * The screenshots of the dashboard, arrears, tenant details, payments list and receipt at 1366 and
 * 360 px go to docs/screenshots.
 */

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 900 };
const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** The element lies within the viewport's width (nothing of it cut at the right or left). */
const expectInsideWidth = async (locator: Locator, what: string, width = PHONE.width) => {
  const box = await locator.boundingBox();
  expect(box, `${what}: on the page`).not.toBeNull();
  if (!box) return;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(width + 0.5);
};

/** The page does not scroll sideways. */
const expectNoSideScroll = async (page: Page, what: string, width = PHONE.width) =>
  expect(
    await page.evaluate<number>('document.documentElement.scrollWidth'),
    `${what}: page width`,
  ).toBeLessThanOrEqual(width);

const shot = async (page: Page, name: string, fullPage = true) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
};

test('every entity list at 360 px shows its rows as cards with their main fields and its next page on screen', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(PHONE);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  // the administrator sees every list
  const lists = entityList;
  let withRows = 0;
  for (const def of lists) {
    await page.goto(def.page.path);
    await expect(page.getByRole('heading', { level: 1, name: def.ui.title }), def.name).toBeVisible();
    const cards = page.getByRole('list', { name: def.ui.title, exact: true });
    const empty = page.getByText(def.ui.emptyText, { exact: true });
    await expect(cards.or(empty), `${def.name}: rows or the empty text`).toBeVisible();
    // no table on a phone: the rows are cards
    await expect(page.getByRole('table', { name: def.ui.title, exact: true }), def.name).toHaveCount(0);
    if (await cards.isVisible()) {
      withRows += 1;
      const card = cards.getByTestId('row-card').first();
      for (const col of cardColumns(def)) {
        const field = card.locator(`[data-card-field="${col.label}"]`);
        await expect(field, `${def.name}: ${col.label} on its card`).toHaveCount(1);
        await expectInsideWidth(field, `${def.name}: ${col.label}`);
      }
      await expectInsideWidth(card, `${def.name}: its card`);
    }
    const next = page.getByRole('button', { name: 'Go to next page' });
    await expect(next, `${def.name}: the next-page button`).toHaveCount(1);
    await expectInsideWidth(next, `${def.name}: the next-page button`);
    await expectNoSideScroll(page, def.name);
  }
  // the demo data fills most lists: the cards were checked, not only the empty texts
  expect(withRows).toBeGreaterThanOrEqual(Math.ceil(lists.length / 2));

  // the payments list's cards: date, status, tenant, unit and amount, not the date alone
  expect(
    cardColumns(entityList.find((d) => d.name === 'payments') ?? entityList[0]!).map((c) => c.field),
  ).toEqual(['payment_date', 'status', 'tenant_name', 'unit_name', 'amount_paid']);
});

test('the dashboard, arrears, a tenant, the payments and a receipt at 1366 and 360 px', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();

  for (const [width, viewport] of [
    [1366, DESKTOP],
    [360, PHONE],
  ] as const) {
    await page.setViewportSize(viewport);

    // the dashboard: what came in against the rent due, occupancy, arrears by age; nothing cut
    await page.goto('/');
    const money = page.getByTestId('money-card');
    await expect(money.getByTestId('collected')).toBeVisible();
    await expect(page.getByTestId('total-arrears')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Arrears by age' })).toBeVisible();
    await expectInsideWidth(page.getByTestId('total-arrears'), 'total arrears', width);
    await expectInsideWidth(money.getByTestId('collected'), 'collected', width);
    await expectNoSideScroll(page, `dashboard at ${width}`, width);
    await page.waitForTimeout(300);
    await shot(page, `dashboard-${width}`);

    // arrears: phone, totals row (table) or cards, Remind
    await page.goto('/arrears');
    if (width === 1366) {
      const table = page.getByRole('table', { name: 'Arrears' });
      await expect(table.getByRole('row').nth(1)).toBeVisible();
      await expect(table.getByRole('cell', { name: /^Total \(\d+ leases?\)$/ })).toBeVisible();
      // every column fits: the table is no wider than its container
      const container = page.locator('.MuiTableContainer-root').filter({ has: table });
      const [scroll, client] = await container.evaluate((c: { scrollWidth: number; clientWidth: number }) => [
        c.scrollWidth,
        c.clientWidth,
      ]);
      expect(scroll, 'arrears table width').toBeLessThanOrEqual(client ?? 0);
      await expect(table.getByRole('button', { name: 'Remind' }).first()).toBeVisible();
    } else {
      const card = page.getByRole('list', { name: 'Arrears' }).getByTestId('row-card').first();
      await expect(card.locator('[data-card-field="Phone"]')).toBeVisible();
      await expectInsideWidth(card.locator('[data-card-field="Balance"]'), 'arrears balance');
      await expectNoSideScroll(page, 'arrears');
    }
    await shot(page, `arrears-${width}`);

    // the payments list, and a receipt
    await page.goto('/payments');
    await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
    await expect(
      width === 1366
        ? // a payment's row, not 'Fetching data...' (the rows are drawn in a transition)
          page
            .getByRole('table', { name: 'Payments' })
            .getByRole('row')
            .nth(1)
            .filter({ hasNotText: 'Fetching data' })
        : page.getByTestId('row-card').first(),
    ).toBeVisible();
    await shot(page, `payments-${width}`);

    await page.getByRole('link', { name: 'Print receipt' }).first().click();
    await expect(page.getByRole('heading', { name: 'Payment Receipt' })).toBeVisible();
    await expect(page.getByText('Period', { exact: true })).toBeVisible();
    await expect(page.getByText('Reference', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    await expectNoSideScroll(page, 'receipt', width);
    await shot(page, `receipt-${width}`);
    if (width === 1366) {
      // printed: the receipt alone, without the app bar or the drawer
      await page.emulateMedia({ media: 'print' });
      await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
      await expect(page.locator('header').first()).toBeHidden();
      await shot(page, 'receipt-print');
      await page.emulateMedia({ media: 'screen' });
    }

    // a tenant's details
    // a demo tenant with a lease: the oldest lease is the demo data's (specs before this one add
    // tenants of their own, some of the same name without any lease)
    const lease = (
      (await (await page.request.get(`${API}/occupancy?page_size=1&sort=start_date`)).json()) as {
        tenant_name: string;
      }[]
    )[0];
    expect(lease, 'a lease in the demo data').toBeDefined();
    await page.goto('/tenants');
    const name = lease?.tenant_name ?? '';
    await page.getByLabel('Search Tenants (Name, Phone)').fill(name);
    // its row (a table's at 1366 px, a card at 360 px) once the search has answered, not the first
    // row of the list before it
    let row = page.locator('tr, [data-testid="row-card"]');
    for (const part of name.split(' ')) row = row.filter({ hasText: part });
    await row.first().getByRole('button', { name: 'View details' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    // the hub: leases with their balance and statement, the last payments with their receipts
    await expect(dialog.getByRole('heading', { name: 'Leases' })).toBeVisible();
    await expect(dialog.getByTestId('tenant-lease').first()).toContainText(/Owes|Credit/);
    await expect(dialog.getByRole('button', { name: 'Statement' }).first()).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Last payments' })).toBeVisible();
    await expect(dialog.getByRole('link', { name: /^Receipt / }).first()).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Messages sent' })).toBeVisible();
    await dialog.getByRole('heading', { name: 'Leases' }).scrollIntoViewIfNeeded();
    await shot(page, `tenant-details-${width}`, false);
    await page.keyboard.press('Escape');
  }
});
