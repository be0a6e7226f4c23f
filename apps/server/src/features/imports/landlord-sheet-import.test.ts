import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMonths, defaultCompanySettings, localTime, type ImportRecord } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { csv, upload } from './import-test-kit.ts';

type Row = Record<string, unknown>;

/**
 * Issue 26, 'Bringing the books in': a landlord's own sheet of tenants, units, rents and balances is
 * enough; the preview names things, fills what the file lacks when asked, and checks phones.
 */
describe(`imports of a landlord's own sheet (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  const today = localTime(defaultCompanySettings.timezone).date;
  const start = addMonths(today, -3);
  const unitIds: Record<string, number> = {};

  beforeEach(async () => {
    t = await setupApp();
    const companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    const property = await admin.post('/properties', { name: 'Kololo Court', address: 'Plot 4, Kololo' });
    expect(property.statusCode, property.body).toBe(201);
    const propertyId = property.json<{ id: number }>().id;
    expect(
      (
        await admin.post(
          '/tenants',
          validTenant({ first_name: 'Amina', last_name: 'Achieng', phone: '+256701000001' }),
        )
      ).statusCode,
    ).toBe(201);
    for (const name of ['A1', 'B1', 'C1', 'D1', 'E1', 'F1']) {
      const res = await admin.post('/units', validUnit({ name, property_id: propertyId }));
      expect(res.statusCode, res.body).toBe(201);
      unitIds[name] = res.json<{ id: number }>().id;
    }
  });
  afterEach(async () => {
    await t.app.close();
  });

  const sheet = csv([
    ['Tenant name', 'Phone', 'Unit', 'Rent', 'Start date', 'Opening balance'],
    // a tenant Kodi has: found by name, its lease and what it owes now
    ['Amina Achieng', '0701 000 001', 'A1', '500,000', start, '300000'],
    // new tenants, phones written every which way
    ['Brian  Bbosa Okello', '0772-123-456', 'B1', 'UGX 450,000', start, '0'],
    ['Carol Cheptoo', '+256 772 123 456', 'C1', '400000', start, ''],
    // the same new tenant in a second unit: one tenant, two leases
    ['Brian Bbosa Okello', '256772123456', 'D1', '450000', start, ''],
    // a number that is no Ugandan number
    ['Dan Dungu', '0999 123 456', 'E1', '400000', start, ''],
    // one word: no last name to give the new tenant
    ['Esther', '0701 000 009', 'F1', '400000', start, ''],
  ]);

  it('creates tenants, leases and opening balances from one sheet, once the missing values are given', async () => {
    const first = await upload(admin, 'occupancy', { name: 'my tenants.csv', content: sheet });
    expect(first.statusCode, first.body).toBe(201);
    const p1 = first.json<ImportRecord>();
    expect(p1.mapping).toMatchObject({
      'Tenant name': 'tenant_id',
      Phone: 'new_tenant_phone',
      Unit: 'unit_id',
      Rent: 'rate',
      'Start date': 'start_date',
      'Opening balance': 'opening_balance',
    });
    // what the file lacks, offered for every row without it instead of refusing the sheet
    expect(p1.missing).toEqual(
      expect.arrayContaining([
        { field: 'opening_balance_date', label: 'Opening Balance Date', rows: 1 },
        { field: 'new_tenant_sex', label: "Tenant's sex", rows: 4 },
        { field: 'new_tenant_date_of_birth', label: "Tenant's date of birth", rows: 4 },
      ]),
    );
    expect(p1.valid_rows).toBe(0);

    const fill = {
      new_tenant_sex: 'Female',
      new_tenant_date_of_birth: '1990-01-01',
      opening_balance_date: today,
    };
    const again = await upload(
      admin,
      'occupancy',
      { name: 'my tenants.csv', content: sheet },
      { fill: JSON.stringify(fill), replaces: String(p1.id) },
    );
    expect(again.statusCode, again.body).toBe(201);
    const p = again.json<ImportRecord>();
    expect(p.fill).toEqual(fill);
    expect(p).toMatchObject({ total_rows: 6, valid_rows: 4, invalid_rows: 2 });
    expect(p.errors).toEqual([
      { row: 6, field: 'new_tenant_phone', message: 'This is not a possible phone number for Uganda.' },
      {
        row: 7,
        field: 'tenant_id',
        message: "No tenant matches 'Esther': give a first and a last name to add the tenant.",
      },
    ]);
    // two tenants, one phone: a warning, saved all the same
    expect(p.warnings).toEqual([
      {
        row: 4,
        field: 'new_tenant_phone',
        message:
          'Carol Cheptoo has the same phone as Brian Bbosa Okello (row 3): a payment from it cannot say whose it is.',
      },
    ]);
    // named, never by id; the filled values said as such
    const sample = p.sample as Row[];
    expect(sample.map((r) => r.names)).toEqual([
      { tenant_id: 'Amina Achieng', unit_id: 'A1 · Kololo Court' },
      { tenant_id: 'Brian Bbosa Okello', unit_id: 'B1 · Kololo Court' },
      { tenant_id: 'Carol Cheptoo', unit_id: 'C1 · Kololo Court' },
      { tenant_id: 'Brian Bbosa Okello', unit_id: 'D1 · Kololo Court' },
    ]);
    expect(sample[0]).toMatchObject({ opening_balance: 300_000, filled: ['opening_balance_date'] });
    expect(sample[0]?.new_tenant).toBeUndefined();
    expect(sample[1]).toMatchObject({
      rate: 450_000,
      filled: ['new_tenant_sex', 'new_tenant_date_of_birth'],
      new_tenant: { first_name: 'Brian Bbosa', last_name: 'Okello', phone: '+256772123456', sex: 'F' },
    });
    expect(sample[1]?.tenant_id).toBeUndefined();

    // the errors file: the rejected rows as written, with their messages
    const errorsFile = (await admin.get(`/imports/${p.id}/errors.csv`)).body.replace(/^\uFEFF/, '');
    const lines = errorsFile.trim().split('\r\n');
    expect(lines).toEqual([
      'Tenant name,Phone,Unit,Rent,Start date,Opening balance,error',
      `Dan Dungu,0999 123 456,E1,400000,${start},,Tenant's phone: This is not a possible phone number for Uganda.`,
      `Esther,0701 000 009,F1,400000,${start},,Tenant: No tenant matches 'Esther': give a first and a last name to add the tenant.`,
    ]);

    const done = await admin.post(`/imports/${p.id}/commit`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ created: 4, tenants_created: 2, skipped_invalid: 2 });

    const tenants = (await admin.get('/tenants?sort=id')).json<Row[]>();
    expect(tenants.map((x) => [x.first_name, x.last_name, x.phone, x.sex, x.date_of_birth])).toEqual([
      ['Amina', 'Achieng', '+256701000001', 'F', '1990-04-12'],
      ['Brian Bbosa', 'Okello', '+256772123456', 'F', '1990-01-01'],
      ['Carol', 'Cheptoo', '+256772123456', 'F', '1990-01-01'],
    ]);
    const leases = (await admin.get('/occupancy?sort=id')).json<Row[]>();
    expect(
      leases.map((l) => [l.tenant_name, l.unit_name, l.opening_balance, l.opening_balance_date]),
    ).toEqual([
      ['Amina Achieng', 'A1', 300_000, today],
      ['Brian Bbosa Okello', 'B1', 0, null],
      ['Carol Cheptoo', 'C1', null, null],
      ['Brian Bbosa Okello', 'D1', null, null],
    ]);
    // Amina owes what the sheet says: nothing is charged for the periods before it
    const ledger = (await admin.get(`/occupancy/${String(leases[0]?.id)}/ledger`)).json<{
      balance: number;
    }>();
    expect(ledger.balance).toBe(300_000);
  });

  it('splits one name column into first and last names, warns of shared phones and refuses impossible ones', async () => {
    const res = await upload(
      admin,
      'tenants',
      {
        name: 'tenants.csv',
        content: csv([
          ['Full name', 'Mobile', 'Date of birth'],
          ['Grace Namuli', '0772 555 111', '1991-02-03'],
          // the phone of a tenant Kodi has
          ['Moses Kato Ssebunya', '0701-000-001', '1985-06-07'],
          // the phone of the first row
          ['Sarah Nakato', '+256772555111', '1993-08-09'],
          ['Peter Okot', '0772 12', '1990-01-01'],
          ['Madonna', '0772 555 222', '1990-01-01'],
        ]),
      },
      { fill: JSON.stringify({ sex: 'M' }) },
    );
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json<ImportRecord>();
    expect(p.mapping).toMatchObject({ 'Full name': 'full_name', Mobile: 'phone' });
    expect(p.missing).toEqual([{ field: 'sex', label: 'Sex', rows: 5 }]);
    expect(p).toMatchObject({ valid_rows: 3, invalid_rows: 2 });
    expect(p.errors).toEqual([
      { row: 5, field: 'phone', message: 'Invalid phone number format.' },
      { row: 6, field: 'full_name', message: "Give a first and a last name: 'Madonna' is one word." },
    ]);
    expect(p.warnings).toEqual([
      {
        row: 3,
        field: 'phone',
        message:
          'Moses Kato Ssebunya has the same phone as Amina Achieng, already a tenant: a payment from it cannot say whose it is.',
      },
      {
        row: 4,
        field: 'phone',
        message:
          'Sarah Nakato has the same phone as Grace Namuli (row 2): a payment from it cannot say whose it is.',
      },
    ]);
    expect((p.sample as Row[]).map((r) => [r.first_name, r.last_name, r.phone, r.sex, r.filled])).toEqual([
      ['Grace', 'Namuli', '+256772555111', 'M', ['sex']],
      ['Moses Kato', 'Ssebunya', '+256701000001', 'M', ['sex']],
      ['Sarah', 'Nakato', '+256772555111', 'M', ['sex']],
    ]);
    // a number that fits the pattern but is no Ugandan number
    const impossible = await upload(admin, 'tenants', {
      name: 'one.csv',
      content: csv([
        ['Tenant name', 'Phone', 'Sex', 'Date of birth'],
        ['Jane Akello', '0123 456 789', 'F', '1990-01-01'],
      ]),
    });
    expect(impossible.json<ImportRecord>().errors).toEqual([
      { row: 2, field: 'phone', message: 'This is not a possible phone number for Uganda.' },
    ]);
  });

  it("derives a unit's weekly and daily rates from its monthly one when the file has none", async () => {
    const res = await upload(admin, 'units', {
      name: 'units.csv',
      content: csv([
        ['Unit', 'Property', 'Address', 'Rent', 'Weekly rent'],
        ['G1', 'Kololo Court', 'Plot 4, Kololo', '500,000', ''],
        ['G2', 'Kololo Court', 'Plot 4, Kololo', '520000', '130000'],
        ['G3', 'Kololo Court', 'Plot 4, Kololo', '0', ''],
      ]),
    });
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json<ImportRecord>();
    // the 'greater than 0' rule stays (and nothing is derived from a rate refused)
    expect(p.errors.map((e) => [e.row, e.field])).toEqual([
      [4, 'monthly_rate'],
      [4, 'weekly_rate'],
      [4, 'daily_rate'],
    ]);
    expect(
      (p.sample as Row[]).map((r) => [r.name, r.monthly_rate, r.weekly_rate, r.daily_rate, r.names]),
    ).toEqual([
      ['G1', 500_000, 115_385, 16_438, { property_id: 'Kololo Court' }],
      ['G2', 520_000, 130_000, 17_096, { property_id: 'Kololo Court' }],
    ]);
    expect((await admin.post(`/imports/${p.id}/commit`)).json()).toMatchObject({ created: 2 });
  });

  it('asks for a value only of a kind one value can be given for, and refuses one that is not read', async () => {
    const bad = await upload(
      admin,
      'tenants',
      {
        name: 't.csv',
        content: csv([
          ['Full name', 'Phone'],
          ['Ann Apio', '0772555333'],
        ]),
      },
      { fill: JSON.stringify({ date_of_birth: 'yesterday-ish' }) },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Date of Birth');
    const p = (
      await upload(admin, 'tenants', {
        name: 't.csv',
        content: csv([
          ['Full name', 'Phone'],
          ['Ann Apio', ''],
        ]),
      })
    ).json<ImportRecord>();
    // a phone is each tenant's own: no value for every row is offered
    expect(p.missing.map((m) => m.field).sort()).toEqual(['date_of_birth', 'sex']);
  });
});
