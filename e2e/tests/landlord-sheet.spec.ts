import { expect, test } from '@playwright/test';
import { API, sessionOf, signIn } from './helpers.ts';

/**
 * Issue 26: a landlord's own sheet (tenant name, phone, unit, rent, start date, opening balance) is
 * previewed as what it will make: tenants named, new ones said so, the values the file lacks given
 * once for every row, shared phones warned of, impossible ones refused; then imported.
 */
test('previews and imports a combined sheet of tenants, leases and opening balances', async ({ page }) => {
  const tag = Date.now().toString(36).slice(-5).toUpperCase();
  const digits = String(Date.now()).slice(-6);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Kodi Rentals Dashboard' })).toBeVisible();
  const { csrf } = await sessionOf(page);
  for (const name of [`S${tag}-1`, `S${tag}-2`, `S${tag}-3`]) {
    const res = await page.request.post(`${API}/units`, {
      headers: { 'X-CSRF-Token': csrf },
      data: {
        name,
        address: 'Plot 9, Ntinda Road, Kampala',
        unit_type: 'apartment',
        status: 'available',
        monthly_rate: 600000,
        weekly_rate: 140000,
        daily_rate: 20000,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  const start = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
  const sheet = [
    'Tenant name,Phone,Unit,Rent,Start date,Opening balance',
    `Brian Sheet${tag},0701 ${digits.slice(0, 3)} ${digits.slice(3)},S${tag}-1,"600,000",${start},250000`,
    `Carol Sheet${tag},+256 701 ${digits},S${tag}-2,UGX 600000,${start},`,
    `Dan Sheet${tag},0999 123 456,S${tag}-3,600000,${start},`,
    '',
  ].join('\r\n');

  await page.goto('/import');
  await page.getByLabel('Import into').selectOption('occupancy');
  await page.getByLabel('Choose file').setInputFiles({
    name: 'my tenants.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(sheet),
  });
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page.getByText('3 rows: 0 valid, 3 rejected.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Values the file lacks' })).toBeVisible();
  await page.getByLabel(/Tenant's sex/).selectOption('F');
  await page.getByLabel(/Tenant's date of birth/).fill('1990-01-01');
  await page.getByLabel(/Opening Balance Date/).fill(new Date().toISOString().slice(0, 10));
  await page.getByRole('button', { name: 'Preview again' }).click();

  await expect(page.getByText('3 rows: 2 valid, 1 rejected.')).toBeVisible();
  const rejected = page.getByRole('table', { name: 'Rejected rows' });
  await expect(rejected).toContainText('This is not a possible phone number for Uganda.');
  const warnings = page.getByRole('table', { name: 'Warnings' });
  await expect(warnings).toContainText(`Carol Sheet${tag} has the same phone as Brian Sheet${tag} (row 2)`);
  const sample = page.getByRole('table', { name: 'Sample' });
  await expect(sample).toContainText(`Brian Sheet${tag} (new tenant)`);
  await expect(sample).toContainText(`S${tag}-1`);
  await expect(sample).toContainText('(given for every row)');

  await page.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(page.getByText('2 tenants added.')).toBeVisible();
  await page.goto('/tenants');
  await page.getByLabel('Search Tenants (Name, Phone)').fill(`Sheet${tag}`);
  await expect(
    page
      .getByRole('table')
      .first()
      .getByRole('row')
      .filter({ hasText: `Sheet${tag}` }),
  ).toHaveCount(2);
});
