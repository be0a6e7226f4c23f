import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

/** A tenants file whose phone column has a header no rule maps ('Contact'), and two bad rows. */
const tenantsFile = (tag: string) =>
  [
    'First Name,Last Name,Sex,Contact,Date of Birth,External Ref',
    `Amina,Imported${tag},F,0772 410001,1991-03-04,E2E-${tag}-1`,
    `Brian,Imported${tag},M,0772 410002,12/05/1988,E2E-${tag}-2`,
    `Carol,Imported${tag},F,+256 772 410003,1979-11-30,E2E-${tag}-3`,
    `Dan,Imported${tag},Q,0772 410004,1990-01-01,E2E-${tag}-4`,
    `Eve,,F,0772 410005,1990-01-01,E2E-${tag}-5`,
    `Fred,Imported${tag},M,0772 410006,1985-07-08,E2E-${tag}-6`,
    '',
  ].join('\r\n');

test.describe('Import', () => {
  test('imports a tenants file with two bad rows: fixes the mapping, downloads the errors, commits, sees the tenants', async ({
    page,
  }) => {
    const tag = Date.now().toString(36);
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
    await page.goto('/import');
    await expect(page.getByRole('heading', { name: 'Import', level: 1 })).toBeVisible();
    await page.getByLabel('Import into').selectOption('tenants');
    await page.getByLabel('Dates in the file').selectOption('DD/MM/YYYY');
    await page.getByLabel('Choose file').setInputFiles({
      name: 'tenants.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(tenantsFile(tag)),
    });
    await page.getByRole('button', { name: 'Upload and preview' }).click();

    // 'Contact' is not a header the import knows: every row lacks its phone
    await expect(page.getByText('6 rows: 0 valid, 6 rejected.')).toBeVisible();
    const contact = page.getByLabel('Field for column Contact');
    await expect(contact).toHaveValue('');
    await contact.selectOption('phone');
    await page.getByRole('button', { name: 'Preview again' }).click();
    await expect(page.getByText('6 rows: 4 valid, 2 rejected.')).toBeVisible();
    const rejected = page.getByRole('table', { name: 'Rejected rows' });
    await expect(rejected.getByRole('row')).toHaveCount(3);
    await expect(rejected).toContainText('Choose one of the listed values.');
    await expect(rejected).toContainText('This field is required.');

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the rejected rows' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^import_\d+_errors\.csv$/);
    const errors = fs
      .readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(errors).toEqual([
      'First Name,Last Name,Sex,Contact,Date of Birth,External Ref,error',
      `Dan,Imported${tag},Q,0772 410004,1990-01-01,E2E-${tag}-4,Sex: Choose one of the listed values.`,
      `Eve,,F,0772 410005,1990-01-01,E2E-${tag}-5,Last Name: This field is required.`,
    ]);

    await page.getByRole('button', { name: 'Import 4 rows' }).click();
    await expect(
      page.getByText('Imported: 4 created, 0 updated, 0 unchanged, 2 rejected rows skipped.'),
    ).toBeVisible();
    const imports = page.getByRole('table', { name: 'Imports' });
    await expect(imports.getByRole('row').nth(1)).toContainText('Committed');
    await expect(imports.getByRole('row').nth(1)).toContainText('4 valid / 2 rejected');
    await expect(imports.getByRole('row').nth(1).getByRole('link', { name: 'errors.csv' })).toBeVisible();

    await page.goto('/tenants');
    await page.getByLabel('Search Tenants (Name, Phone)').fill(`Imported${tag}`);
    const list = page.getByRole('table').first();
    await expect(list.getByRole('row').filter({ hasText: `Imported${tag}` })).toHaveCount(4);
    await expect(list).toContainText('Amina');
    await expect(list).toContainText('+256772410001');
  });

  test('fits a 360 px wide screen', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
    await page.goto('/import');
    await expect(page.getByRole('heading', { name: 'Import', level: 1 })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Imports' })).toBeVisible();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
