import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { addUser, signIn, kampalaDay } from './helpers.ts';

/** A valid 1×1 PNG (the server checks the bytes). */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const today = () => kampalaDay();
const inDays = (n: number) => kampalaDay(n);

/** The number on a dashboard count card. */
const dashboardCount = async (page: Page, title: string): Promise<number> => {
  const card = page.getByRole('region', { name: title });
  const text = await card.getByText(/^\d+$/).textContent();
  return Number(text);
};

const atHome = async (page: Page) => {
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Available Units' })).toBeVisible();
};

const goHome = async (page: Page) => {
  await page.goto('/');
  await atHome(page);
};

/** Types into a server-searching picker and chooses the option. */
const pick = async (page: Page, label: string, search: string, option: string) => {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(search);
  await page.getByRole('option', { name: option }).click();
  await expect(box).toHaveValue(option);
};

const choose = async (page: Page, label: RegExp, option: string) => {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

test('a user adds a unit with an image, a tenant, an occupancy and a payment, then downloads its receipt', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000); // a long flow over six pages
  const stamp = Date.now().toString(36);
  const unitName = `E2E Unit ${stamp}`;
  const first = 'Eve';
  const last = `Tester${stamp}`;
  const tenantName = `${first} ${last}`;
  const pngPath = testInfo.outputPath('unit.png');
  fs.mkdirSync(testInfo.outputDir, { recursive: true });
  fs.writeFileSync(pngPath, Buffer.from(PNG_BASE64, 'base64'));

  await signIn(page);
  await atHome(page);
  const availableBefore = await dashboardCount(page, 'Available Units');
  const paymentsBefore = await dashboardCount(page, 'Payments This Month');

  // Unit with an image.
  await page.goto('/units');
  await expect(page.getByRole('heading', { name: 'Rental Units' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Unit' }).click();
  const unitDialog = page.getByRole('dialog', { name: 'New Unit' });
  await unitDialog.getByLabel('Name').fill(unitName);
  await unitDialog.getByLabel('Address').fill('Plot 1, Test Road, Kampala');
  await unitDialog.getByLabel('Monthly Rate').fill('750000');
  await unitDialog.getByLabel('Weekly Rate').fill('200000');
  await unitDialog.getByLabel('Daily Rate').fill('30000');
  await unitDialog.getByLabel('Image 1', { exact: true }).setInputFiles(pngPath);
  await expect(unitDialog.getByAltText('Image 1 preview')).toBeVisible();
  await unitDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Unit created successfully!')).toBeVisible();
  await expect(unitDialog).toBeHidden();
  const unitRow = page.getByRole('row').filter({ hasText: unitName });
  await expect(unitRow).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toContainText(unitName); // newest on top

  await unitRow.getByRole('button', { name: 'View details' }).click();
  const details = page.getByRole('dialog', { name: 'Unit Details' });
  await expect(details.getByRole('img', { name: 'Image 1' })).toBeVisible();
  await expect(details.getByText('No image provided.')).toBeVisible();
  await details.getByRole('button', { name: 'Close' }).click();

  await goHome(page);
  await expect.poll(() => dashboardCount(page, 'Available Units')).toBe(availableBefore + 1);

  // Tenant.
  await page.goto('/tenants');
  await page.getByRole('button', { name: 'Add Tenant' }).click();
  const tenantDialog = page.getByRole('dialog', { name: 'New Tenant' });
  await tenantDialog.getByLabel('First Name').fill(first);
  await tenantDialog.getByLabel('Last Name').fill(last);
  await choose(page, /^Sex/, 'Female');
  // the way Ugandans write it (spaces anywhere), saved in E.164 (docs/decisions.md, One phone number)
  await tenantDialog.getByRole('textbox', { name: 'Phone', exact: true }).fill('0772 123 456');
  await tenantDialog.getByLabel('Date of Birth').fill('1990-05-01');
  await tenantDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Tenant created successfully!')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: last })).toContainText('+256772123456');

  // another tenant with the same number, written another way: a warning under the phone (issue 26)
  await page.getByRole('button', { name: 'Add Tenant' }).click();
  const second = page.getByRole('dialog', { name: 'New Tenant' });
  const phone = second.getByRole('textbox', { name: 'Phone', exact: true });
  await phone.fill('+256 772-123456');
  const shared = second.getByTestId('shared-phone-note');
  await expect(shared).toContainText(tenantName);
  await expect(shared).toContainText('this phone too: a payment from it cannot say whose it is.');
  // a number nobody else has (not one of Uganda's, at that): no warning
  await phone.fill('0772 123 45');
  await expect(shared).toBeHidden();
  await second.getByRole('button', { name: 'Cancel' }).click();
  await expect(second).toBeHidden();

  // Occupancy of that tenant in that unit.
  await page.goto('/occupancy');
  await page.getByRole('button', { name: 'Add Occupancy Record' }).click();
  const occupancyDialog = page.getByRole('dialog', { name: 'New Occupancy Record' });
  await pick(page, 'Tenant', last, tenantName);
  // the picker says the unit is vacant, and the unit fills the rate of the cycle (issue 26)
  await pick(page, 'Unit', unitName, `${unitName} · Vacant`);
  await expect(occupancyDialog.getByRole('spinbutton', { name: 'Rate', exact: true })).toHaveValue('750000');
  await choose(page, /^Rent Cycle/, 'Weekly');
  await expect(occupancyDialog.getByRole('spinbutton', { name: 'Rate', exact: true })).toHaveValue('200000');
  await choose(page, /^Rent Cycle/, 'Monthly');
  await occupancyDialog.getByRole('spinbutton', { name: 'Rate', exact: true }).fill('750000');
  await occupancyDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Occupancy record created successfully!')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: tenantName })).toContainText(unitName);

  // Payment: the picker shows the tenant's unit; choosing the tenant fills the unit and the amount due
  // today, the first month's rent (issue 26)
  await page.goto('/payments');
  await page.getByRole('button', { name: 'Add Payment' }).click();
  const paymentDialog = page.getByRole('dialog', { name: 'New Payment' });
  await pick(page, 'Tenant', last, `${tenantName} · ${unitName}`);
  await expect(paymentDialog.getByRole('combobox', { name: 'Unit' })).toHaveValue(unitName);
  await expect(paymentDialog.getByLabel('Amount Paid')).toHaveValue('750000');
  await expect(paymentDialog.getByTestId('payment-suggestion')).toContainText('Balance due today');
  await expect(paymentDialog.getByLabel('Payment Date')).toHaveValue(today());
  await paymentDialog.getByLabel('Effective End Date').fill(inDays(30));
  await paymentDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Payment record created successfully!')).toBeVisible();
  const paymentRow = page.getByRole('row').filter({ hasText: tenantName });
  await expect(paymentRow).toContainText('Completed');
  await expect(paymentRow).toContainText('RCT-');

  // Its receipt and the PDF.
  await paymentRow.getByRole('link', { name: 'Print receipt' }).click();
  await expect(page).toHaveURL(/\/payments\/\d+\/receipt$/);
  await expect(page.getByText(/Receipt No: RCT-\d{6}/)).toBeVisible();
  await expect(page.getByText(tenantName)).toBeVisible();
  await expect(page.getByText('Thank you for your payment!')).toBeVisible();
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^receipt_RCT-\d{6}\.pdf$/);
  const file = await download.path();
  expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await page.getByRole('link', { name: 'Back to Payments' }).click();
  await expect(page).toHaveURL(/\/payments$/);

  await goHome(page);
  await expect.poll(() => dashboardCount(page, 'Payments This Month')).toBe(paymentsBefore + 1);
});

test('an invalid unit form shows the required messages and the form warning', async ({ page }) => {
  await signIn(page);
  await atHome(page);
  await page.goto('/units');
  await page.getByRole('button', { name: 'Add Unit' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Unit' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This field is required.').first()).toBeVisible();
  await expect(page.getByText('Please correct the form errors.')).toBeVisible();
  await dialog.getByLabel('Monthly Rate').fill('-5');
  await expect(dialog.getByText('Must be a positive number > 0.')).toBeVisible();

  // Persistent: Escape does not close it; Cancel does, and reopening starts clean.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Add Unit' }).click();
  await expect(
    page.getByRole('dialog', { name: 'New Unit' }).getByText('This field is required.'),
  ).toHaveCount(0);
});

test('a viewer sees the lists without Add, Edit or Delete', async ({ page, browser }) => {
  await signIn(page);
  await atHome(page);
  const { email, password } = await addUser(page, ['viewer']);

  const context = await browser.newContext();
  const viewer = await context.newPage();
  await signIn(viewer, email, password);
  await atHome(viewer);
  for (const path of ['/units', '/tenants', '/payments']) {
    await viewer.goto(path);
    await expect(viewer.getByRole('button', { name: 'View details' }).first()).toBeVisible();
    await expect(viewer.getByRole('button', { name: /^Add / })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  }

  // Companies show Edit and Delete to everybody (02-admin §6); the server refuses a viewer's delete
  // with 403, the message shows, and the viewer stays signed in where they are.
  await viewer.goto('/companies');
  await viewer.getByRole('button', { name: 'Delete' }).first().click();
  await viewer.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(viewer.getByText('You are not allowed to do this.').first()).toBeVisible();
  await expect(viewer).toHaveURL(/\/companies$/);
  await viewer.goto('/units');
  await expect(viewer).toHaveURL(/\/units$/);
  await expect(viewer.getByRole('button', { name: 'View details' }).first()).toBeVisible();
  await context.close();
});
