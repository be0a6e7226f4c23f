import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { API, sessionOf, signIn, kampalaDay } from './helpers.ts';

/**
 * Properties (issue 16): an admin creates a property, gives it a unit through the unit form,
 * narrows the payments to it with the property selector (kept in the URL and on the next page),
 * and opens its details: its units with their status and current tenant, and links to its
 * payments and arrears. Screenshots of the properties page and a filtered list, at 1280 and 360 px
 * wide (written into docs/screenshots when SCREENSHOTS_DIR names it).
 */

const stamp = Date.now().toString(36);
const propertyName = `E2E Court ${stamp}`;
const unitName = `E2E Court Flat ${stamp}`;
const tenantLast = `Prop${stamp}`;
const today = kampalaDay();

const shot = async (page: Page, testInfo: TestInfo, name: string, fullPage = true) => {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage });
  const dir = process.env.SCREENSHOTS_DIR;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
  }
};

/** Closes the snackbar with this message, so that the next one shows at once. */
const snackbar = async (page: Page, message: string) => {
  const alert = page.getByRole('alert').filter({ hasText: message });
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Close' }).click();
  await expect(alert).toBeHidden();
};

const PROPERTY_COLUMNS = ['Name', 'Address', 'Property Type', 'Units', 'Occupied', 'Occupancy %'];

test('screenshots of the properties page and a list of one property, at 1280 and 360 px', async ({
  page,
}, testInfo) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const kololo = (
    (await (await page.request.get(`${API}/properties?q=Kololo%20Heights`)).json()) as { id: number }[]
  )[0]?.id;
  const kololoUnits = Number(
    (await page.request.get(`${API}/units?property_id=${String(kololo)}`)).headers()['x-total-count'],
  );
  expect(kololoUnits).toBeGreaterThan(1);
  const available = (
    (await (await page.request.get(`${API}/dashboard?property_id=${String(kololo)}`)).json()) as {
      counts: { available_units: number };
    }
  ).counts.available_units;
  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 360, height: 740 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto('/properties');
    // a table at 1280 px; cards on a phone (issue 26), where phone-lists.spec.ts checks their fields
    if (name === 'desktop')
      await expect(page.getByRole('table', { name: 'Properties' }).getByRole('row').nth(5)).toBeVisible();
    else await expect(page.getByRole('heading', { name: 'Properties', level: 1 })).toBeVisible();
    // nothing wider than the screen but the table's own scroll
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, testInfo, `properties-${name}`);

    // its details: the units with their status and current tenant
    // a row of a list: the table's at 1280 px, the card at 360 px
    const rowsOf = (label: string) =>
      name === 'desktop'
        ? page.getByRole('table', { name: label }).getByRole('row')
        : page.getByRole('list', { name: label, exact: true }).getByTestId('row-card');
    const kololoRow = rowsOf('Properties').filter({ hasText: 'Kololo Heights' });
    await kololoRow.getByRole('button', { name: 'View details' }).click();
    const details = page.getByRole('dialog', { name: 'Property Details' });
    await expect(
      details.getByRole('table', { name: 'Units' }).getByRole('row').filter({ hasText: 'Kololo Heights' }),
    ).toHaveCount(kololoUnits);
    await shot(page, testInfo, `property-details-${name}`, false); // a dialog: the screen
    await details.getByRole('button', { name: 'Close' }).click();
    await expect(details).toBeHidden();

    await page.goto(`/units?property_id=${String(kololo)}`);
    await expect(page.getByRole('combobox', { name: 'Property', exact: true })).toHaveValue('Kololo Heights');
    await expect(rowsOf('Rental Units').getByRole('button', { name: 'View details' })).toHaveCount(
      kololoUnits,
    );

    // the payments of its units only
    await page.goto(`/payments?property_id=${String(kololo)}`);
    await expect(page.getByRole('combobox', { name: 'Property', exact: true })).toHaveValue('Kololo Heights');
    const rows = rowsOf('Payments');
    await expect(rows.nth(5)).toBeVisible();
    // the table's first row is its heading
    for (const row of (await rows.all()).slice(name === 'desktop' ? 1 : 0))
      await expect(row).toContainText('Kololo Heights');
    const narrow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(narrow).toBeLessThanOrEqual(0);
    await shot(page, testInfo, `payments-by-property-${name}`);

    await page.goto(`/?property_id=${String(kololo)}`);
    await expect(page.getByRole('combobox', { name: 'Property', exact: true })).toHaveValue('Kololo Heights');
    await expect(page.getByRole('region', { name: 'Available Units' }).getByText(/^\d+$/)).toHaveText(
      String(available),
    );
    await shot(page, testInfo, `home-by-property-${name}`);
  }
});

test('a property: created, given a unit, filtering payments, with its units in its details', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();

  // the drawer has Properties above Units
  await page.goto('/properties');
  await expect(page.getByRole('heading', { name: 'Properties', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Properties' });
  for (const column of PROPERTY_COLUMNS)
    await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  // the demo's buildings, with their share of units occupied
  await expect(table.getByRole('row').filter({ hasText: 'Kololo Heights' })).toContainText(/\d%/);

  // a new property
  await page.getByRole('button', { name: 'Add Property', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'New Property' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(propertyName);
  await form.getByRole('textbox', { name: 'Address', exact: true }).fill('Plot 77, Acacia Avenue, Kampala');
  await form.getByLabel('Manager Name').fill('Irene Nakato');
  await form.getByRole('button', { name: 'Save' }).click();
  await snackbar(page, 'Property created successfully!');
  const row = table.getByRole('row').filter({ hasText: propertyName });
  await expect(row).toContainText('Residential');
  await expect(row.getByRole('cell').nth(4)).toHaveText('0');

  // a unit in it, picked in the unit form
  await page.goto('/units');
  await page.getByRole('button', { name: 'Add Unit' }).click();
  const unitForm = page.getByRole('dialog', { name: 'New Unit' });
  await unitForm.getByRole('textbox', { name: 'Name', exact: true }).fill(unitName);
  const picker = unitForm.getByRole('combobox', { name: 'Property', exact: true });
  await picker.click();
  await picker.fill(`Court ${stamp}`);
  await page.getByRole('option', { name: propertyName, exact: true }).click();
  await expect(picker).toHaveValue(propertyName);
  await unitForm.getByLabel('Address').fill('Plot 77, Acacia Avenue, Kampala');
  await unitForm.getByLabel('Monthly Rate').fill('900000');
  await unitForm.getByLabel('Weekly Rate').fill('240000');
  await unitForm.getByLabel('Daily Rate').fill('35000');
  await unitForm.getByRole('button', { name: 'Save' }).click();
  await snackbar(page, 'Unit created successfully!');
  await expect(page.getByRole('row').filter({ hasText: unitName })).toContainText(propertyName);

  // its tenant, lease and a payment, through the API
  const { csrf } = await sessionOf(page);
  const post = async (entity: string, data: Record<string, unknown>) => {
    const res = await page.request.post(`${API}/${entity}`, { headers: { 'X-CSRF-Token': csrf }, data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { id: number };
  };
  const unitId = Number(
    (
      (await (await page.request.get(`${API}/units?q=${encodeURIComponent(unitName)}`)).json()) as {
        id: number;
      }[]
    )[0]?.id,
  );
  const tenant = await post('tenants', {
    first_name: 'Pia',
    last_name: tenantLast,
    sex: 'F',
    phone: '0772000555',
    date_of_birth: '1991-02-03',
  });
  await post('occupancy', { tenant_id: tenant.id, unit_id: unitId, start_date: '2025-01-01', rate: 900000 });
  await post('payments', {
    tenant_id: tenant.id,
    unit_id: unitId,
    payment_date: today,
    amount_paid: 900000,
    payment_method: 'cash',
    effective_start_date: today,
    effective_end_date: today,
  });

  // the payments of the property: the selector narrows the list, the URL says which
  await page.goto('/payments');
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  const payments = page.getByRole('table', { name: 'Payments' });
  await expect(payments.getByRole('row').nth(5)).toBeVisible(); // the demo's payments
  const selector = page.getByRole('combobox', { name: 'Property', exact: true });
  await selector.click();
  await selector.fill(`Court ${stamp}`);
  await page.getByRole('option', { name: propertyName, exact: true }).click();
  await expect(page).toHaveURL(/[?&]property_id=\d+/);
  const propertyId = new URL(page.url()).searchParams.get('property_id');
  await expect(payments.getByRole('row')).toHaveCount(2); // the heading and its one payment
  await expect(payments.getByRole('row').nth(1)).toContainText(`Pia ${tenantLast}`);
  await expect(payments.getByRole('row').nth(1)).toContainText(unitName);

  // kept when moving to another of those pages
  await page.goto('/units');
  await expect(page).toHaveURL(new RegExp(`[?&]property_id=${propertyId}`));
  await expect(page.getByRole('combobox', { name: 'Property', exact: true })).toHaveValue(propertyName);
  await expect(
    page.getByRole('table', { name: 'Rental Units' }).getByRole('button', { name: 'View details' }),
  ).toHaveCount(1);

  // the details of the property: its unit, let to its tenant, and links to its payments and arrears
  await page.goto('/properties');
  await page.getByLabel('Search Properties (Name, Address, Manager)').fill(propertyName);
  await expect(page.getByRole('button', { name: 'View details' })).toHaveCount(1);
  const found = table.getByRole('row').filter({ hasText: propertyName });
  await expect(found.getByRole('cell').nth(4)).toHaveText('1');
  await found.getByRole('button', { name: 'View details' }).click();
  const details = page.getByRole('dialog', { name: 'Property Details' });
  const units = details.getByRole('table', { name: 'Units' });
  await expect(units.getByRole('row').nth(1)).toContainText(unitName);
  await expect(units.getByRole('row').nth(1)).toContainText(`Pia ${tenantLast}`);
  await expect(details.getByRole('link', { name: 'Its arrears' })).toHaveAttribute(
    'href',
    `/arrears?property_id=${propertyId}`,
  );
  await details.getByRole('link', { name: 'Its payments' }).click();
  await expect(page).toHaveURL(new RegExp(`/payments\\?property_id=${propertyId}$`));
  await expect(payments.getByRole('row')).toHaveCount(2);

  // all properties again: the choice is forgotten
  await page.getByRole('combobox', { name: 'Property', exact: true }).click();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page).not.toHaveURL(/property_id/);
  await expect(payments.getByRole('row').nth(5)).toBeVisible();
  await page.goto('/units');
  await expect(page).not.toHaveURL(/property_id/);
});
