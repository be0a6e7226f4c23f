import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { API, addUser, sessionOf, signIn, kampalaDay } from './helpers.ts';

/**
 * The operations and reference pages (02-admin §2): for each, an admin adds, finds, views, edits
 * and deletes a record through the page, and a viewer sees the page without what they may not do.
 * Admin is the role that may do all five steps: delete is admin-only on all eight (02-admin §6).
 */

const stamp = Date.now().toString(36);
const today = kampalaDay();
const FORBIDDEN = 'You are not allowed to do this.';
const DASHBOARD = 'Kodi Rentals Dashboard';

/** A three-letter code no ISO country or currency uses (Q then two letters, never QA*). */
const freeCode = () => {
  const letters = 'BCDEFGHIJKLMNOPRSTUVWXYZ';
  const letter = () => letters[Math.floor(Math.random() * letters.length)];
  return `Q${letter()}${letter()}`;
};

/** Records the forms pick, made through the API before the tests (unique names per run). */
const ref = {
  unit: `E2E Ops Unit ${stamp}`,
  tenantLast: `Ops${stamp}`,
  tenant: `Tia Ops${stamp}`,
  vendor: `E2E Ops Vendor ${stamp}`,
  employeeLast: `Wage${stamp}`,
  employee: `Wendy Wage${stamp}`,
  employeeId: 0,
  companyId: 0,
};

const stateFile = (who: string) => path.join(os.tmpdir(), `kodi-e2e-operations-${process.pid}-${who}.json`);
const ADMIN_STATE = stateFile('admin');
const VIEWER_STATE = stateFile('viewer');

/** A form control: a text/number/date field, an enum select, or a server-searching reference picker. */
type Fill = { label: string; value: string; kind?: 'select' | 'pick'; option?: string };

type Messages = { created: string; updated: string; deleted: string };
/** '{Entity} saved successfully!' after a create or an edit (02-admin §8). */
const savedMessages = (entity: string): Messages => ({
  created: `${entity} saved successfully!`,
  updated: `${entity} saved successfully!`,
  deleted: `${entity} deleted successfully!`,
});
/** Countries and currencies: '{Entity} created/updated successfully!' (02-admin §8). */
const referenceMessages = (entity: string): Messages => ({
  created: `${entity} created successfully!`,
  updated: `${entity} updated successfully!`,
  deleted: `${entity} deleted successfully!`,
});

type Case = {
  /** The page heading. */
  title: string;
  route: string;
  /** 'Add {it}', 'New {it}', 'Edit {it}', '{it} Details'. */
  it: string;
  /** For 'No {plural} available or match your search.' */
  plural: string;
  searchLabel: string;
  fills: Fill[];
  /** Typed in the search box; the record's row contains it. */
  search: string;
  row: string[];
  details: string[];
  /** Text shown when the row is expanded (companies). */
  expanded?: string;
  edit: Fill;
  /** The cell that shows the edited value. */
  edited: string;
  /** The delete confirmation (a pattern where the spec gives no text). */
  confirm: () => string | RegExp;
  messages: Messages;
  /** 02-admin §6: Edit and Delete on companies are shown regardless of flags. */
  editDeleteShownToAll?: boolean;
};

const request = `E2E leaking tap ${stamp}`;
const vendor = `E2E Vendor ${stamp}`;
const employeeLast = `Worker${stamp}`;
const company = `E2E Company ${stamp}`;
const countryCode = freeCode();
const country = `E2E Land ${stamp}`;
const currencyCode = freeCode();
const currency = `E2E Dollar ${stamp}`;

const cases: Case[] = [
  {
    title: 'Maintenance Requests',
    route: '/maintenance-requests',
    it: 'Maintenance Request',
    plural: 'maintenance requests',
    searchLabel: 'Search Requests (Description, Status, Unit)',
    fills: [
      { label: 'Unit', value: ref.unit, kind: 'pick' },
      { label: 'Tenant', value: ref.tenantLast, kind: 'pick', option: ref.tenant },
      { label: 'Description', value: request },
      { label: 'Priority', value: 'High', kind: 'select' },
      { label: 'Estimated Cost', value: '150000' },
      { label: 'Vendor', value: ref.vendor, kind: 'pick' },
    ],
    search: request,
    row: [ref.unit, ref.tenant, 'High', 'Open', ref.vendor],
    details: [ref.unit, ref.tenant, request, 'High', 'Open', ref.vendor],
    edit: { label: 'Status', value: 'In Progress', kind: 'select' },
    edited: 'In Progress',
    confirm: () => `Are you sure you want to delete this maintenance request: ${request} (${ref.unit})?`,
    messages: savedMessages('Maintenance request'),
  },
  {
    title: 'Expenses',
    route: '/expenses',
    it: 'Expense',
    plural: 'expenses',
    searchLabel: 'Search Expenses (Category, Unit)',
    fills: [
      { label: 'Unit', value: ref.unit, kind: 'pick' },
      { label: 'Amount', value: '85000' },
      { label: 'Category', value: 'Plumbing', kind: 'select' },
      { label: 'Description', value: `New pipes ${stamp}` },
      { label: 'Vendor', value: ref.vendor, kind: 'pick' },
    ],
    search: ref.unit,
    row: ['Plumbing', `New pipes ${stamp}`, ref.vendor],
    details: [ref.unit, 'Plumbing', `New pipes ${stamp}`, ref.vendor],
    edit: { label: 'Category', value: 'Condominium fees', kind: 'select' },
    edited: 'Condominium fees',
    // The spec gives no text; the app names the category's label and the date as the list shows it.
    confirm: () =>
      /^Are you sure you want to delete this expense: Condominium fees of [A-Z][a-z]{2} \d{1,2}, \d{4}\?$/,
    messages: savedMessages('Expense'),
  },
  {
    title: 'Vendors',
    route: '/vendors',
    it: 'Vendor',
    plural: 'vendors',
    searchLabel: 'Search Vendors (Name, Service)',
    fills: [
      { label: 'Name', value: vendor },
      { label: 'Service Offered', value: 'Plumbing' },
      { label: 'Phone', value: '0772000111' },
    ],
    search: vendor,
    // 02-admin §5: the service is lowercased on save.
    row: ['plumbing', '0772000111'],
    details: [vendor, 'plumbing', '0772000111'],
    edit: { label: 'Phone', value: '0772999888' },
    edited: '0772999888',
    confirm: () => `Are you sure you want to delete vendor: ${vendor}?`,
    messages: savedMessages('Vendor'),
  },
  {
    title: 'Employees',
    route: '/employees',
    it: 'Employee',
    plural: 'employees',
    searchLabel: 'Search Employees (Name, Email, Phone)',
    fills: [
      { label: 'First Name', value: 'Emma' },
      { label: 'Last Name', value: employeeLast },
      { label: 'Email', value: `emma.${stamp}@e2e.test` },
      { label: 'Phone Number', value: '0700111222' },
      { label: 'Job Title', value: 'Caretaker' },
      { label: 'Salary', value: '900000' },
      { label: 'Expected Pay Day', value: '25' },
    ],
    search: employeeLast,
    // 02-admin §2: expected pay day with a suffix, status as a chip.
    row: ['Emma', `emma.${stamp}@e2e.test`, 'Caretaker', '25th', 'Active'],
    details: ['Emma', employeeLast, `emma.${stamp}@e2e.test`, '0700111222', 'Caretaker', '25th', 'Active'],
    edit: { label: 'Job Title', value: 'Site Manager' },
    edited: 'Site Manager',
    confirm: () => `Are you sure you want to delete this employee: Emma ${employeeLast}?`,
    messages: savedMessages('Employee'),
  },
  {
    title: 'Commission and Wages',
    route: '/commission-wages',
    it: 'Commission Wage',
    plural: 'commission wages',
    searchLabel: 'Search (Employee, Company ID, Payment Date)',
    fills: [
      { label: 'Employee', value: ref.employeeLast, kind: 'pick', option: ref.employee },
      { label: 'Payment Category', value: 'Commission', kind: 'select' },
      { label: 'Description', value: `Lease commission ${stamp}` },
      { label: 'Payment Method', value: 'Mobile money', kind: 'select' },
      { label: 'Commission Split %', value: '10' },
      { label: 'Payment Start Date', value: today },
      { label: 'Payment End Date', value: today },
      { label: 'Status', value: 'Pending', kind: 'select' },
      { label: 'Amount', value: '120000' },
    ],
    search: ref.employeeLast,
    row: [ref.employee, 'Commission', `Lease commission ${stamp}`, 'Mobile money', '10%', 'Pending'],
    details: [ref.employee, 'Commission', `Lease commission ${stamp}`, 'Mobile money', '10%', 'Pending'],
    edit: { label: 'Status', value: 'Paid', kind: 'select' },
    edited: 'Paid',
    confirm: () =>
      `Are you sure you want to delete the commission wage of employee ID ${ref.employeeId}, ` +
      `company ID ${ref.companyId}, payment date ${today}?`,
    messages: savedMessages('Commission wage'),
  },
  {
    title: 'Companies',
    route: '/companies',
    it: 'Company',
    plural: 'companies',
    searchLabel: 'Search Companies (Name, Email, Phone, Industry)',
    fills: [
      { label: 'Name', value: company },
      { label: 'Email', value: `office.${stamp}@e2e.test` },
      { label: 'Phone Number', value: '0414000111' },
      { label: 'Industry Type', value: 'Real estate' },
      { label: 'Currency Code', value: 'UGX' },
      { label: 'Description', value: `Landlords of ${stamp}` },
    ],
    search: company,
    row: [`office.${stamp}@e2e.test`, '0414000111', 'Real estate', 'UGX', 'Yes'],
    details: [company, `office.${stamp}@e2e.test`, 'Real estate', 'UGX', `Landlords of ${stamp}`],
    expanded: `Landlords of ${stamp}`,
    edit: { label: 'Industry Type', value: 'Hospitality' },
    edited: 'Hospitality',
    confirm: () => `Are you sure you want to delete company: ${company}?`,
    messages: savedMessages('Company'),
    editDeleteShownToAll: true,
  },
  {
    title: 'Countries',
    route: '/countries',
    it: 'Country',
    plural: 'countries',
    searchLabel: 'Search Countries (Name, Code)',
    fills: [
      { label: 'Country Code', value: countryCode },
      { label: 'Country Name', value: country },
      { label: 'Phone Code', value: '999' },
    ],
    search: country,
    row: [countryCode, '999'],
    // 02-admin §2: the phone code shows with a leading plus in the details.
    details: [countryCode, country, '+999'],
    edit: { label: 'Phone Code', value: '998' },
    edited: '998',
    confirm: () => `Are you sure you want to delete country: ${country} (${countryCode})?`,
    messages: referenceMessages('Country'),
  },
  {
    title: 'Currencies',
    route: '/currencies',
    it: 'Currency',
    plural: 'currencies',
    searchLabel: 'Search Currencies (Name, Code, Country)',
    fills: [
      { label: 'Currency Code', value: currencyCode },
      { label: 'Currency Name', value: currency },
      { label: 'Symbol', value: 'E$' },
      { label: 'Country', value: 'UGA' },
      { label: 'Notes', value: `Test money ${stamp}` },
    ],
    search: currency,
    // Decimal places default to 2 (02-admin §9).
    row: [currencyCode, 'E$', '2', 'UGA'],
    details: [currencyCode, currency, 'E$', 'UGA', `Test money ${stamp}`],
    edit: { label: 'Symbol', value: 'ED$' },
    edited: 'ED$',
    confirm: () => `Are you sure you want to delete currency: ${currency} (${currencyCode})?`,
    messages: referenceMessages('Currency'),
  },
];

/** A field's label, with the asterisk of a required one. */
const labelled = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);

const fill = async (page: Page, dialog: Locator, f: Fill) => {
  if (f.kind === 'select') {
    // A select is named by its label and its current value.
    await dialog.getByRole('combobox', { name: new RegExp(`^${f.label}`) }).click();
    await page.getByRole('option', { name: f.value, exact: true }).click();
  } else if (f.kind === 'pick') {
    const box = dialog.getByRole('combobox', { name: f.label, exact: true });
    await box.click();
    await box.fill(f.value);
    await page.getByRole('option', { name: f.option ?? f.value, exact: true }).click();
    await expect(box).toHaveValue(f.option ?? f.value);
  } else {
    await dialog.getByLabel(labelled(f.label)).fill(f.value);
  }
};

/** Sees the snackbar message and closes it, so that the next one shows at once. */
const snackbar = async (page: Page, message: string) => {
  const alert = page.getByRole('alert').filter({ hasText: message });
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Close' }).click();
  await expect(alert).toBeHidden();
};

const openPage = async (page: Page, c: Case) => {
  await page.goto(c.route);
  await expect(page.getByRole('heading', { name: c.title, level: 1 })).toBeVisible();
};

/** Searches the list; the record is the only row. */
const findOnly = async (page: Page, c: Case, search: string) => {
  await page.getByLabel(c.searchLabel).fill(search);
  await expect(page.getByRole('button', { name: 'View details' })).toHaveCount(1);
  const row = page.getByRole('row').filter({ hasText: search });
  await expect(row).toBeVisible();
  return row;
};

const saveEdit = async (page: Page, c: Case, row: Locator) => {
  await row.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${c.it}` });
  await expect(dialog.getByRole('form', { name: `Edit ${c.it}` })).toBeVisible(); // loaded
  await fill(page, dialog, c.edit);
  await dialog.getByRole('button', { name: 'Save' }).click();
  return dialog;
};

const confirmDelete = async (page: Page, row: Locator, text: string | RegExp) => {
  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Delete' });
  await expect(dialog.getByText(text, { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  return dialog;
};

/** A context without the describe's stored session (the test options apply to `browser.newContext`). */
const FRESH = { storageState: { cookies: [], origins: [] } };

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext(FRESH);
  const page = await context.newPage();
  await signIn(page);
  await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
  const { csrf, companyId } = await sessionOf(page);
  ref.companyId = companyId;
  const post = async (entity: string, data: Record<string, unknown>) => {
    const res = await page.request.post(`${API}/${entity}`, { headers: { 'X-CSRF-Token': csrf }, data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { id: number };
  };
  await post('units', {
    name: ref.unit,
    address: 'Plot 9, Ops Road, Kampala',
    unit_type: 'apartment',
    status: 'available',
    monthly_rate: 600000,
    weekly_rate: 160000,
    daily_rate: 25000,
  });
  await post('tenants', {
    first_name: 'Tia',
    last_name: ref.tenantLast,
    sex: 'F',
    phone: '0772000222',
    date_of_birth: '1992-03-04',
  });
  await post('vendors', { name: ref.vendor, service_offered: 'plumber', phone: '0772000333' });
  const employee = await post('employees', {
    first_name: 'Wendy',
    last_name: ref.employeeLast,
    phone_number: '0700000444',
    job_title: 'Agent',
    hire_date: today,
    salary: 500000,
    expected_pay_day: 28,
  });
  ref.employeeId = employee.id;
  const viewer = await addUser(page, ['viewer']);
  await context.storageState({ path: ADMIN_STATE });
  await context.close();

  const viewerContext = await browser.newContext(FRESH);
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewer.email, viewer.password);
  await expect(viewerPage.getByRole('heading', { name: DASHBOARD })).toBeVisible();
  await viewerContext.storageState({ path: VIEWER_STATE });
  await viewerContext.close();
});

test.afterAll(() => {
  for (const file of [ADMIN_STATE, VIEWER_STATE]) fs.rmSync(file, { force: true });
});

test.describe('an admin', () => {
  test.use({ storageState: ADMIN_STATE });

  for (const c of cases) {
    test(`${c.title}: adds, finds, views, edits and deletes a record`, async ({ page }) => {
      await openPage(page, c);
      await page.getByRole('button', { name: `Add ${c.it}`, exact: true }).click();
      const form = page.getByRole('dialog', { name: `New ${c.it}` });
      for (const f of c.fills) await fill(page, form, f);
      await form.getByRole('button', { name: 'Save' }).click();
      await snackbar(page, c.messages.created);
      await expect(form).toBeHidden();

      const row = await findOnly(page, c, c.search);
      for (const text of c.row) await expect(row).toContainText(text);
      if (c.expanded) {
        await row.getByRole('button', { name: 'Expand row' }).click();
        await expect(page.getByText(c.expanded, { exact: true })).toBeVisible();
      }

      await row.getByRole('button', { name: 'View details' }).click();
      const details = page.getByRole('dialog', { name: `${c.it} Details` });
      for (const text of c.details) await expect(details).toContainText(text);
      await details.getByRole('button', { name: 'Close' }).click();
      await expect(details).toBeHidden();

      const edit = await saveEdit(page, c, row);
      await snackbar(page, c.messages.updated);
      await expect(edit).toBeHidden();
      await expect(row.getByRole('cell', { name: c.edited, exact: true })).toBeVisible();

      const confirm = await confirmDelete(page, row, c.confirm());
      await snackbar(page, c.messages.deleted);
      await expect(confirm).toBeHidden();
      await expect(page.getByText(`No ${c.plural} available or match your search.`)).toBeVisible();
    });
  }
});

test.describe('a viewer', () => {
  test.use({ storageState: VIEWER_STATE });

  for (const c of cases) {
    const hidden = c.editDeleteShownToAll ? 'Add' : 'Add, Edit or Delete';
    test(`${c.title}: sees the list without ${hidden}`, async ({ page }) => {
      await openPage(page, c);
      await expect(page.getByRole('button', { name: 'View details' }).first()).toBeVisible();
      await expect(page.getByRole('button', { name: /^Add / })).toHaveCount(0);
      if (!c.editDeleteShownToAll) {
        await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
        await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
      }
    });
  }

  test('Companies: the server refuses a viewer’s edit and delete with a message; the viewer stays signed in', async ({
    page,
  }) => {
    const c = cases.find((x) => x.editDeleteShownToAll);
    if (!c) throw new Error('no case shows Edit and Delete to everyone');
    await openPage(page, c);
    // Only their own company (product decisions: admins see every company, others their own).
    const details = page.getByRole('button', { name: 'View details' });
    await expect(details).toHaveCount(1);
    const row = page.getByRole('row').filter({ has: details });
    const name = (await row.getByRole('cell').nth(1).textContent()) ?? '';
    // As an alert, once: the snackbar is mounted outside the open dialog, so screen readers hear it
    const refused = page.getByRole('alert').filter({ hasText: FORBIDDEN });

    const edit = await saveEdit(page, c, row);
    await expect(refused).toHaveCount(1);
    await expect(refused).toBeVisible();
    await expect(edit).toBeVisible(); // the form stays open with the user's input
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(edit).toBeHidden();
    await expect(row.getByRole('cell', { name: c.edited, exact: true })).toHaveCount(0);

    await confirmDelete(page, row, `Are you sure you want to delete company: ${name}?`);
    await expect(refused).toBeVisible();
    await expect(page.getByText(FORBIDDEN)).toHaveCount(1);
    await expect(row).toBeVisible();

    await page.reload();
    await expect(page).toHaveURL(/\/companies$/);
    await expect(page.getByRole('heading', { name: c.title, level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'View details' }).first()).toBeVisible();
  });
});
