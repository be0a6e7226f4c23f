/** Valid bodies for the operations and reference entities (02-admin), for API tests. */
import { expect } from 'vitest';
import type { TestClient } from './client.ts';
import { validTenant, validUnit } from './entities.ts';

type Body = Record<string, unknown>;

/** The records of one company that operations bodies refer to. */
export type OperationsRefs = {
  unit_id: number;
  other_unit_id: number;
  tenant_id: number;
  vendor_id: number;
  employee_id: number;
};

/** A distinct three-letter code for the n-th record a test creates ('QAA', 'QAB', ...). */
export const testCode = (n: number, first = 'Q') =>
  `${first}${String.fromCharCode(65 + (Math.floor(n / 26) % 26))}${String.fromCharCode(65 + (n % 26))}`;

export const validVendor = (overrides: Body = {}): Body => ({
  name: 'Kampala Plumbing Ltd',
  service_offered: 'Plumbing',
  phone: '+256 772 000111',
  ...overrides,
});

export const validEmployee = (overrides: Body = {}): Body => ({
  first_name: 'Peter',
  last_name: 'Okello',
  email: 'peter.okello@example.com',
  phone_number: '+256 701 222333',
  job_title: 'Caretaker',
  hire_date: '2024-03-01',
  salary: 800_000,
  expected_pay_day: 28,
  status: 'active',
  ...overrides,
});

export const validMaintenanceRequest = (refs: OperationsRefs, overrides: Body = {}): Body => ({
  unit_id: refs.unit_id,
  tenant_id: refs.tenant_id,
  vendor_id: refs.vendor_id,
  request_date: '2026-01-10',
  description: 'Leaking kitchen tap',
  priority: 'medium',
  status: 'open',
  estimated_cost: 45_000,
  ...overrides,
});

export const validExpense = (refs: OperationsRefs, overrides: Body = {}): Body => ({
  unit_id: refs.unit_id,
  vendor_id: refs.vendor_id,
  expense_date: '2026-01-12',
  amount: 45_000,
  category: 'plumbing',
  description: 'New kitchen tap',
  ...overrides,
});

export const validCommissionWage = (refs: OperationsRefs, overrides: Body = {}): Body => ({
  employee_id: refs.employee_id,
  payment_date: '2026-01-31',
  payment_category: 'salary',
  payment_method: 'banktransfer',
  commission_split_percentage: null,
  payment_start_date: '2026-01-01',
  payment_end_date: '2026-01-31',
  status: 'paid',
  description: 'January salary',
  amount: 800_000,
  ...overrides,
});

export const validCompany = (overrides: Body = {}): Body => ({
  name: 'Acacia Property Managers',
  email: 'info@acacia.example',
  phone_number: '+256 414 000000',
  website: 'https://acacia.example',
  address: 'Plot 1, Acacia Avenue, Kampala',
  industry_type: 'Real estate',
  currency_code: 'UGX',
  status: true,
  description: 'Manages flats in Kololo.',
  ...overrides,
});

export const validCountry = (n = 0, overrides: Body = {}): Body => ({
  country_code: testCode(n),
  country_name: `Testland ${n}`,
  phone_code: '255',
  ...overrides,
});

/** A currency of a seeded country (the test harness seeds UGA, KEN, USA and GBR). */
export const validCurrency = (n = 0, overrides: Body = {}): Body => ({
  currency_code: testCode(n, 'X'),
  currency_name: `Test dollar ${n}`,
  symbol: 'T$',
  decimal_places: 2,
  country: 'UGA',
  notes: 'Used in tests only.',
  ...overrides,
});

const created = async (client: TestClient, path: string, body: Body): Promise<number> => {
  const res = await client.post(path, body);
  expect(res.statusCode, res.body).toBe(201);
  return Number(res.json().id);
};

/** Two units, a tenant, a vendor and an employee of the client's company, through the real routes. */
export const createOperationsRefs = async (client: TestClient): Promise<OperationsRefs> => ({
  unit_id: await created(client, '/units', validUnit()),
  other_unit_id: await created(client, '/units', validUnit({ name: 'Ntinda Cottage 7' })),
  tenant_id: await created(client, '/tenants', validTenant()),
  vendor_id: await created(client, '/vendors', validVendor()),
  employee_id: await created(client, '/employees', validEmployee()),
});

export type OperationsEntity =
  | 'maintenance_requests'
  | 'expenses'
  | 'vendors'
  | 'employees'
  | 'commission_wages'
  | 'companies'
  | 'countries'
  | 'currencies';

/** A valid create body of each entity; `n` keeps unique values (codes) apart when a test makes several. */
export const operationsBody = (
  entity: OperationsEntity,
  refs: OperationsRefs,
  n = 0,
  overrides: Body = {},
): Body => {
  switch (entity) {
    case 'maintenance_requests':
      return validMaintenanceRequest(refs, overrides);
    case 'expenses':
      return validExpense(refs, overrides);
    case 'vendors':
      return validVendor(overrides);
    case 'employees':
      return validEmployee(overrides);
    case 'commission_wages':
      return validCommissionWage(refs, overrides);
    case 'companies':
      return validCompany(overrides);
    case 'countries':
      return validCountry(n, overrides);
    case 'currencies':
      return validCurrency(n, overrides);
  }
};
