import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { entities, type RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import {
  createOperationsRefs,
  operationsBody,
  validCommissionWage,
  validCompany,
  testCode,
  validCountry,
  validCurrency,
  validEmployee,
  validExpense,
  validVendor,
  type OperationsEntity,
  type OperationsRefs,
} from '../test/operations-bodies.ts';

type Row = Record<string, unknown>;

const ROLES = ['admin', 'company_admin', 'editor', 'viewer'] as const satisfies readonly RoleName[];
type Role = (typeof ROLES)[number];
type Verb = 'list' | 'get' | 'create' | 'update' | 'delete';
/** Expected status for [admin, company_admin, editor, viewer]. */
type ByRole = readonly [number, number, number, number];

/** The entities of 02-admin, whose permission tables the spec writes out (below). */
const ENTITIES: OperationsEntity[] = [
  'maintenance_requests',
  'expenses',
  'vendors',
  'employees',
  'commission_wages',
  'companies',
  'countries',
  'currencies',
];
const COMPANY_OWNED = ENTITIES.filter((e) => entities[e].scope === 'company');

/**
 * 02-admin §6 with product-decisions: everyone with a role reads; canEdit (admin, editor) adds;
 * editing is canEdit for maintenance requests and admin for the rest; deleting is admin only.
 */
const PERMISSIONS: Record<OperationsEntity, Record<Verb, ByRole>> = {
  maintenance_requests: {
    list: [200, 200, 200, 200],
    get: [200, 200, 200, 200],
    create: [201, 403, 201, 403],
    update: [200, 403, 200, 403],
    delete: [204, 403, 403, 403],
  },
  expenses: {
    list: [200, 200, 200, 200],
    get: [200, 200, 200, 200],
    create: [201, 403, 201, 403],
    update: [200, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
  vendors: {
    list: [200, 200, 200, 200],
    get: [200, 200, 200, 200],
    create: [201, 403, 201, 403],
    update: [200, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
  employees: {
    list: [200, 200, 200, 200],
    get: [200, 200, 200, 200],
    create: [201, 403, 201, 403],
    update: [200, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
  commission_wages: {
    list: [200, 200, 200, 200],
    get: [200, 200, 200, 200],
    create: [201, 403, 201, 403],
    update: [200, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
  companies: {
    list: [200, 200, 200, 200],
    get: [200, 200, 200, 200],
    create: [201, 403, 201, 403],
    update: [200, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
  countries: {
    list: [200, 200, 200, 200],
    get: [200, 200, 200, 200],
    create: [201, 403, 201, 403],
    update: [200, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
  currencies: {
    list: [200, 200, 200, 200],
    get: [200, 200, 200, 200],
    create: [201, 403, 201, 403],
    update: [200, 403, 403, 403],
    delete: [204, 403, 403, 403],
  },
};

/**
 * Per entity: `input` (create-body overrides that the server normalises) and what the create answers,
 * an edit and its answer, and the overrides that make one of three records stand out in a search,
 * with searches and the number of rows each finds.
 */
type Case = {
  input: (refs: OperationsRefs) => Row;
  created: Row;
  edit: (refs: OperationsRefs) => Row;
  edited: Row;
  distinct: (refs: OperationsRefs) => Row;
  searches: ReadonlyArray<readonly [q: string, count: number]>;
};

const CASES: Record<OperationsEntity, Case> = {
  maintenance_requests: {
    input: () => ({ priority: 'HIGH', status: 'In_Progress', unit_name: 'ignored', vendor_name: 'ignored' }),
    created: {
      priority: 'high',
      status: 'in_progress',
      request_date: '2026-01-10',
      estimated_cost: 45000,
      unit_name: 'Kololo Heights A1',
      tenant_first_name: 'Grace',
      tenant_last_name: 'Namuli',
      tenant_name: 'Grace Namuli',
      vendor_name: 'Kampala Plumbing Ltd',
    },
    edit: (refs) => ({ status: 'closed', estimated_cost: '52000.50', unit_id: refs.other_unit_id }),
    edited: { status: 'closed', estimated_cost: 52000.5, unit_name: 'Ntinda Cottage 7' },
    distinct: (refs) => ({
      unit_id: refs.other_unit_id,
      description: 'Broken window latch',
      status: 'in_progress',
    }),
    searches: [
      ['ntinda', 1],
      ['LATCH', 1],
      ['in_progress', 1],
      ['kitchen', 2],
      ['kololo', 2],
    ],
  },
  expenses: {
    input: () => ({ category: 'CONDO_FEES', unit_id: '', description: '' }),
    created: {
      category: 'condo_fees',
      amount: 45000,
      expense_date: '2026-01-12',
      unit_id: null,
      unit_name: null,
      description: null,
      vendor_name: 'Kampala Plumbing Ltd',
    },
    edit: (refs) => ({ unit_id: refs.other_unit_id, amount: 1250.75, vendor_id: null }),
    edited: { unit_name: 'Ntinda Cottage 7', amount: 1250.75, vendor_id: null, vendor_name: null },
    distinct: (refs) => ({ unit_id: refs.other_unit_id, category: 'electrical' }),
    searches: [
      ['electr', 1],
      ['ntinda', 1],
      ['plumb', 2],
      ['kololo', 2],
    ],
  },
  vendors: {
    input: () => ({ service_offered: 'ELECTRICAL Repairs' }),
    created: {
      name: 'Kampala Plumbing Ltd',
      service_offered: 'electrical repairs',
      phone: '+256 772 000111',
    },
    edit: () => ({ name: 'Sparky Ltd', service_offered: 'Wiring' }),
    edited: { name: 'Sparky Ltd', service_offered: 'wiring' },
    distinct: () => ({ name: 'Sparky Electricals', service_offered: 'Electrical' }),
    searches: [
      ['sparky', 1],
      ['ELECTRICAL', 1],
      ['plumbing', 3], // the vendor the references use, and two more
    ],
  },
  employees: {
    input: () => ({ status: 'ACTIVE', email: '' }),
    created: {
      status: 'active',
      email: null,
      full_name: 'Peter Okello',
      salary: 800000,
      expected_pay_day: 28,
      hire_date: '2024-03-01',
    },
    edit: () => ({ status: 'Inactive', expected_pay_day: '15' }),
    edited: { status: 'inactive', expected_pay_day: 15 },
    distinct: () => ({
      first_name: 'Jane',
      last_name: 'Achieng',
      email: 'jane@acme.example',
      phone_number: '+254 700 999888',
    }),
    searches: [
      ['jane achieng', 1],
      ['acme.example', 1],
      ['999888', 1],
      ['okello', 3], // the employee the references use, and two more
    ],
  },
  commission_wages: {
    input: () => ({
      payment_method: 'BankTransfer',
      status: 'PAID',
      payment_category: 'Commission',
      commission_split_percentage: '12.5',
    }),
    created: {
      payment_method: 'banktransfer',
      status: 'paid',
      payment_category: 'commission',
      commission_split_percentage: 12.5,
      amount: 800000,
      employee_first_name: 'Peter',
      employee_last_name: 'Okello',
      employee_name: 'Peter Okello',
    },
    edit: () => ({ status: 'voided', amount: 1000, commission_split_percentage: '' }),
    edited: { status: 'voided', amount: 1000, commission_split_percentage: null },
    distinct: () => ({ payment_date: '2025-12-24' }),
    searches: [
      ['2025-12-24', 1],
      ['2026-01-31', 2],
      ['peter okello', 3],
    ],
  },
  companies: {
    input: () => ({ status: 'false', currency_code: '' }),
    created: { name: 'Acacia Property Managers', status: false, currency_code: null },
    edit: () => ({ industry_type: 'Hospitality', status: true, currency_code: 'KES' }),
    edited: { industry_type: 'Hospitality', status: true, currency_code: 'KES' },
    distinct: () => ({
      name: 'Zebra Lodges',
      industry_type: 'Hospitality',
      email: 'stay@zebra.example',
      phone_number: '+256 392 777666',
    }),
    searches: [
      ['zebra', 1],
      ['HOSPITAL', 1],
      ['777666', 1],
      ['acacia', 2],
    ],
  },
  countries: {
    input: () => ({ phone_code: 255 }),
    created: { country_code: 'QAA', country_name: 'Testland 0', phone_code: 255 },
    edit: () => ({ country_name: 'Renamed land', phone_code: '1' }),
    edited: { country_name: 'Renamed land', phone_code: 1 },
    distinct: () => ({ country_name: 'Tokelau' }),
    searches: [
      ['tokel', 1],
      ['qab', 1],
      ['testland', 2],
      ['uga', 1],
    ],
  },
  currencies: {
    input: () => ({ decimal_places: '0' }),
    created: { currency_code: 'XAA', decimal_places: 0, country: 'UGA', symbol: 'T$' },
    edit: () => ({ currency_name: 'Renamed dollar', notes: '' }),
    edited: { currency_name: 'Renamed dollar', notes: null },
    distinct: () => ({ currency_name: 'Tokelau dollar', country: 'KEN' }),
    searches: [
      ['tokelau', 1],
      ['xab', 1],
      ['test dollar', 2],
      ['ken', 2], // with the seeded Kenyan shilling
    ],
  },
};

const encodeFilter = (companyId: number) =>
  encodeURIComponent(JSON.stringify({ field: 'company_id', value: companyId }));

describe(`reference and operations entities (${testDriver})`, () => {
  let t: TestContext;
  let companyA: number;
  let companyB: number;
  let as: Record<Role, TestClient>;
  let adminB: TestClient;
  let refs: OperationsRefs;
  let seq = 0;

  const signIn = async (role: Role, companyId: number) => {
    const u = await buildUser(t.database, { company_id: companyId, roles: [role] });
    const c = new TestClient(t.app);
    expect((await c.login(u.email, u.password)).statusCode).toBe(200);
    return c;
  };

  /** Creates a valid record as company A's admin and answers it. */
  const create = async (entity: OperationsEntity, overrides: Row = {}, client = as.admin, refsOf = refs) => {
    const res = await client.post(`/${entity}`, operationsBody(entity, refsOf, seq++, overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Row & { id: number; version: number };
  };

  beforeEach(async () => {
    t = await setupApp();
    seq = 0;
    companyA = (await buildCompany(t.database, { name: 'A' })).id;
    companyB = (await buildCompany(t.database, { name: 'B' })).id;
    const clients = await Promise.all(ROLES.map((role) => signIn(role, companyA)));
    as = Object.fromEntries(ROLES.map((role, i) => [role, clients[i]])) as Record<Role, TestClient>;
    adminB = await signIn('admin', companyB);
    refs = await createOperationsRefs(as.admin);
  });
  afterEach(async () => {
    await t.app.close();
  });

  it.each(ENTITIES)('%s: creates, reads, lists, updates and deletes, normalising values', async (entity) => {
    const c = CASES[entity];
    const post = await as.admin.post(`/${entity}`, {
      ...operationsBody(entity, refs, 0, c.input(refs)),
      id: 9999,
      company_id: companyB,
    });
    expect(post.statusCode, post.body).toBe(201);
    const record = post.json();
    expect(record).toMatchObject({ ...c.created, version: 1 });
    expect(record.id).not.toBe(9999);
    if (COMPANY_OWNED.includes(entity)) expect(record.company_id).toBe(companyA);

    const read = await as.admin.get(`/${entity}/${record.id}`);
    expect(read.json()).toEqual(record);
    const list = await as.admin.get(`/${entity}`);
    expect(list.json()[0]).toMatchObject({ id: record.id }); // newest first
    expect(Number(list.headers['x-total-count'])).toBe(list.json().length);

    const put = await as.admin.put(`/${entity}/${record.id}`, { ...record, ...c.edit(refs) });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ ...c.edited, version: 2 });
    const stale = await as.admin.put(`/${entity}/${record.id}`, record);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('conflict');

    expect((await as.admin.delete(`/${entity}/${record.id}`)).statusCode).toBe(204);
    expect((await as.admin.get(`/${entity}/${record.id}`)).statusCode).toBe(404);
  });

  it("answers the spec's validation messages", async () => {
    const required = 'This field is required.';
    const cases: ReadonlyArray<readonly [OperationsEntity, Row, Row]> = [
      [
        'maintenance_requests',
        {
          unit_id: '',
          tenant_id: null,
          priority: '',
          status: '',
          request_date: '',
          vendor_id: '',
          description: ' ',
          estimated_cost: null,
        },
        {
          unit_id: required,
          tenant_id: required,
          priority: required,
          status: required,
          request_date: required,
          vendor_id: required,
          description: required,
          estimated_cost: required,
        },
      ],
      [
        'maintenance_requests',
        { ...operationsBody('maintenance_requests', refs), priority: 'urgent', request_date: '2026-02-30' },
        { priority: 'Choose one of the listed values.', request_date: 'Invalid date format (YYYY-MM-DD).' },
      ],
      [
        'expenses',
        { amount: '', category: 'food', expense_date: '2026-13-01' },
        {
          amount: required,
          category: 'Choose one of the listed values.',
          expense_date: 'Invalid date format (YYYY-MM-DD).',
        },
      ],
      ['vendors', {}, { name: required, service_offered: required, phone: required }],
      [
        'employees',
        { status: '', expected_pay_day: '' },
        {
          first_name: required,
          last_name: required,
          phone_number: required,
          job_title: required,
          hire_date: required,
          salary: required,
          expected_pay_day: required,
          status: required,
        },
      ],
      [
        'employees',
        validEmployee({ expected_pay_day: 32, email: 'not-an-address' }),
        {
          expected_pay_day: 'Expected pay day must be a whole number between 1 and 31.',
          email: 'E-mail must be valid.',
        },
      ],
      [
        'commission_wages',
        { commission_split_percentage: 101 },
        {
          employee_id: required,
          payment_date: required,
          payment_category: required,
          payment_method: required,
          status: required,
          payment_start_date: required,
          payment_end_date: required,
          description: required,
          amount: required,
          commission_split_percentage: 'Commission split must be between 0 and 100.',
        },
      ],
      [
        'commission_wages',
        validCommissionWage(refs, { amount: 0 }),
        { amount: 'Amount must be a positive number.' },
      ],
      [
        'commission_wages',
        validCommissionWage(refs, { amount: -5 }),
        { amount: 'Amount must be a positive number.' },
      ],
      [
        'commission_wages',
        validCommissionWage(refs, { payment_start_date: '2026-02-01', payment_end_date: '2026-01-01' }),
        { payment_end_date: 'End date must be after start date.' },
      ],
      [
        'companies',
        { name: '', currency_code: 'usd' },
        { name: required, currency_code: 'Currency code must be exactly 3 uppercase letters.' },
      ],
      [
        'currencies',
        {
          currency_code: 'usd',
          currency_name: '',
          symbol: 'x'.repeat(11),
          decimal_places: 11,
          country: '',
          notes: 'x'.repeat(1001),
        },
        {
          currency_code: 'Currency code must be exactly 3 uppercase letters.',
          currency_name: required,
          symbol: 'Maximum 10 characters.',
          decimal_places: 'Decimal places must be an integer between 0 and 10.',
          country: required,
          notes: 'Maximum 1000 characters.',
        },
      ],
      [
        'currencies',
        validCurrency(0, { currency_code: 'ABCD', decimal_places: 2.5, country: 'Uganda' }),
        {
          currency_code: 'Currency code must be exactly 3 uppercase letters.',
          decimal_places: 'Decimal places must be an integer between 0 and 10.',
          country: 'Country code must be exactly 3 uppercase letters.',
        },
      ],
      [
        'countries',
        { country_code: 'ug', country_name: '', phone_code: '+256' },
        {
          country_code: 'Country code must be exactly 3 uppercase letters.',
          country_name: required,
          phone_code: 'Phone code must contain only digits (1-10 characters).',
        },
      ],
      [
        'countries',
        validCountry(0, { country_code: 'UGAN', phone_code: '12345678901' }),
        {
          country_code: 'Country code must be exactly 3 uppercase letters.',
          phone_code: 'Phone code must contain only digits (1-10 characters).',
        },
      ],
      ['countries', validCountry(0, { phone_code: '' }), { phone_code: required }],
    ];
    for (const [entity, body, fields] of cases) {
      const res = await as.admin.post(`/${entity}`, body);
      expect(res.statusCode, `${entity} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json(), entity).toMatchObject({ code: 'validation_failed', fields });
    }

    // references that do not exist are named; a duplicate code is refused
    const noCountry = await as.admin.post('/currencies', validCurrency(0, { country: 'ZZZ' }));
    expect(noCountry.statusCode).toBe(400);
    expect(noCountry.json()).toEqual({
      error: 'The selected country does not exist.',
      code: 'validation_failed',
      fields: { country: 'Not found.' },
    });
    const noCurrency = await as.admin.post('/companies', validCompany({ currency_code: 'ZZZ' }));
    expect(noCurrency.json()).toMatchObject({
      code: 'validation_failed',
      fields: { currency_code: 'Not found.' },
    });
    const duplicate = await as.admin.post('/countries', validCountry(0, { country_code: 'UGA' }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('duplicate');
    const unknown = await as.admin.post('/vendors', validVendor({ rating: 5 }));
    expect(unknown.json()).toMatchObject({ code: 'validation_failed', fields: { rating: 'Unknown field.' } });
  });

  it.each(ENTITIES)('%s: follows the permission matrix of 02-admin §6', async (entity) => {
    const actual: Record<Verb, number[]> = { list: [], get: [], create: [], update: [], delete: [] };
    for (const role of ROLES) {
      const c = as[role];
      const target = await create(entity);
      // a non-admin reads only their own company; the others are the record made for this role
      const readable = entity === 'companies' ? companyA : target.id;
      actual.list.push((await c.get(`/${entity}`)).statusCode);
      actual.get.push((await c.get(`/${entity}/${readable}`)).statusCode);
      actual.create.push((await c.post(`/${entity}`, operationsBody(entity, refs, seq++))).statusCode);
      const current = (await as.admin.get(`/${entity}/${target.id}`)).json();
      actual.update.push(
        (await c.put(`/${entity}/${target.id}`, { ...current, ...CASES[entity].edit(refs) })).statusCode,
      );
      const denied = await c.delete(`/${entity}/${target.id}`);
      actual.delete.push(denied.statusCode);
      if (denied.statusCode === 403) expect(denied.json().code).toBe('forbidden');
    }
    expect(actual).toEqual(PERMISSIONS[entity]);
  });

  it.each(COMPANY_OWNED)(
    "%s: another company's records are a 404 for every verb and never listed",
    async (entity) => {
      const refsB = await createOperationsRefs(adminB);
      const theirs = await create(entity, {}, adminB, refsB);
      const ours = await create(entity);
      expect((await as.admin.get(`/${entity}/${theirs.id}`)).statusCode).toBe(404);
      expect(
        (await as.admin.put(`/${entity}/${theirs.id}`, { ...theirs, ...CASES[entity].edit(refs) }))
          .statusCode,
      ).toBe(404);
      expect((await as.admin.delete(`/${entity}/${theirs.id}`)).statusCode).toBe(404);
      const ids = (await as.admin.get(`/${entity}?page_size=500`)).json().map((r: Row) => r.id);
      expect(ids).toContain(ours.id);
      expect(ids).not.toContain(theirs.id);
      const filtered = await as.admin.get(`/${entity}?filter=${encodeFilter(companyB)}`);
      expect(filtered.json()).toEqual([]);
      expect(filtered.headers['x-total-count']).toBe('0');
      expect((await adminB.get(`/${entity}/${theirs.id}`)).json()).toMatchObject({ company_id: companyB });
    },
  );

  it('saves creations sent together in one statement, and one by one when one of them is refused', async () => {
    const codes = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => testCode(n));
    // the fifth repeats the second's code: the batch's INSERT fails, and each row is saved on its own
    const sent = codes.map((code, i) => validCountry(i, { country_code: i === 4 ? codes[1] : code }));
    const results = await Promise.all(sent.map((body) => as.admin.post('/countries', body)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(7);
    expect(statuses.filter((s) => s === 409)).toHaveLength(1);
    expect(results.find((r) => r.statusCode === 409)?.json()).toMatchObject({ code: 'duplicate' });
    const saved = results.filter((r) => r.statusCode === 201).map((r) => r.json());
    // each answer is its own record
    for (const r of results.filter((x) => x.statusCode === 201)) {
      const i = results.indexOf(r);
      expect(r.json()).toMatchObject({ country_name: `Testland ${i}` });
    }
    const stored = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM countries WHERE country_code = ANY($1::text[])`,
      [`{${codes.join(',')}}`],
    );
    expect(stored[0]?.n).toBe(7);
    expect(new Set(saved.map((c) => c.id)).size).toBe(7);
    // without a refusal, all of them are saved together
    const more = [11, 12, 13, 14, 15, 16].map((n) => validCountry(n, { country_code: testCode(n) }));
    const ok = await Promise.all(more.map((body) => as.admin.post('/countries', body)));
    expect(ok.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(ok.map((r) => r.json().country_name)).toEqual(more.map((b) => b.country_name));
  });

  it("refuses references to another company's unit, tenant, vendor or employee", async () => {
    const refsB = await createOperationsRefs(adminB);
    const cases: ReadonlyArray<readonly [OperationsEntity, Row, string, string]> = [
      ['maintenance_requests', { unit_id: refsB.unit_id }, 'unit_id', 'The selected unit does not exist.'],
      [
        'maintenance_requests',
        { tenant_id: refsB.tenant_id },
        'tenant_id',
        'The selected tenant does not exist.',
      ],
      ['expenses', { vendor_id: refsB.vendor_id }, 'vendor_id', 'The selected vendor does not exist.'],
      [
        'commission_wages',
        { employee_id: refsB.employee_id },
        'employee_id',
        'The selected employee does not exist.',
      ],
    ];
    for (const [entity, overrides, field, error] of cases) {
      const res = await as.admin.post(`/${entity}`, operationsBody(entity, refs, 0, overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error, code: 'validation_failed', fields: { [field]: 'Not found.' } });
    }
  });

  it('shows non-admins only their own company, and admins every company', async () => {
    const viewerList = await as.viewer.get('/companies');
    expect(viewerList.json().map((r: Row) => r.id)).toEqual([companyA]);
    expect(viewerList.headers['x-total-count']).toBe('1');
    expect((await as.viewer.get(`/companies/${companyB}`)).statusCode).toBe(404);
    expect((await as.admin.get(`/companies/${companyB}`)).json()).toMatchObject({ id: companyB, name: 'B' });
    // an editor may add a company (canEdit) and gets it back, but it is not theirs to see afterwards
    const added = await as.editor.post('/companies', validCompany({ name: 'Editor Co' }));
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ name: 'Editor Co', status: true, currency_code: 'UGX' });
    expect((await as.editor.get(`/companies/${added.json().id}`)).statusCode).toBe(404);
    const all = await as.admin.get('/companies');
    expect(all.headers['x-total-count']).toBe('3');
  });

  it.each(ENTITIES)('%s: searches and pages in SQL with X-Total-Count', async (entity) => {
    const c = CASES[entity];
    const before = Number((await as.admin.get(`/${entity}`)).headers['x-total-count']);
    await create(entity, c.distinct(refs));
    await create(entity);
    await create(entity);
    for (const [q, count] of c.searches) {
      const res = await as.admin.get(`/${entity}?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count'], `${entity} q=${q}`).toBe(String(count));
      expect(res.json()).toHaveLength(count);
    }
    expect((await as.admin.get(`/${entity}?q=nothing-like-this`)).json()).toEqual([]);
    const total = before + 3;
    const first = await as.admin.get(`/${entity}?page=1&page_size=2`);
    expect(first.headers['x-total-count']).toBe(String(total));
    expect(first.json()).toHaveLength(2);
    const last = await as.admin.get(`/${entity}?page=2&page_size=${total - 1}`);
    expect(last.json()).toHaveLength(1);
    const sortField =
      entity === 'countries' ? 'country_code' : entity === 'currencies' ? 'currency_code' : 'id';
    const sorted = (await as.admin.get(`/${entity}?sort=${sortField}&page_size=500`)).json();
    const keys = sorted.map((r: Row) => r[sortField]);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('refuses deleting a vendor, employee, currency or country still referred to, with 409 in_use naming it', async () => {
    const vendor = await create('vendors', validVendor({ name: 'Used vendor' }));
    const expense = await create('expenses', validExpense(refs, { vendor_id: vendor.id }));
    const employee = await create('employees', validEmployee({ first_name: 'Paid' }));
    const wage = await create('commission_wages', validCommissionWage(refs, { employee_id: employee.id }));
    const country = await create('countries', validCountry(7));
    const currency = await create('currencies', validCurrency(7, { country: country.country_code }));
    const company = await create('companies', validCompany({ currency_code: currency.currency_code }));

    const refusals: ReadonlyArray<readonly [string, string]> = [
      [`/vendors/${vendor.id}`, 'expenses'],
      [`/employees/${employee.id}`, 'commission wages'],
      [`/currencies/${currency.id}`, 'companies'],
      [`/countries/${country.id}`, 'currencies'],
    ];
    for (const [path, by] of refusals) {
      const res = await as.admin.delete(path);
      expect(res.statusCode, path).toBe(409);
      expect(res.json()).toEqual({
        error: `This record is still used by ${by}. Remove those first.`,
        code: 'in_use',
      });
      expect((await as.admin.get(path)).statusCode).toBe(200);
    }
    // once what refers to them is gone, they can go
    for (const path of [
      `/expenses/${expense.id}`,
      `/vendors/${vendor.id}`,
      `/commission_wages/${wage.id}`,
      `/employees/${employee.id}`,
      `/companies/${company.id}`,
      `/currencies/${currency.id}`,
      `/countries/${country.id}`,
    ]) {
      expect((await as.admin.delete(path)).statusCode, path).toBe(204);
    }
  });
});
