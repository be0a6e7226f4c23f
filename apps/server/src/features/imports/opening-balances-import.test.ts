import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMonths, defaultCompanySettings, localTime, type ImportRecord } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { csv, upload } from './import-test-kit.ts';

/** Importing running leases (issue 25): the preview says what back rent they charge; opening balances stop it. */
describe(`imports of leases with opening balances (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  const today = localTime(defaultCompanySettings.timezone).date;

  beforeEach(async () => {
    t = await setupApp();
    const companyId = (await buildCompany(t.database, { name: 'Onboarding Homes' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    for (const [first, last, phone] of [
      ['Amina', 'Achieng', '+256701000001'],
      ['Brian', 'Bbosa', '+256701000002'],
      ['Carol', 'Cheptoo', '+256701000003'],
    ] as const)
      expect(
        (
          await admin.post(
            '/tenants',
            validTenant({ first_name: first, last_name: last, phone, email: `${first}@example.com` }),
          )
        ).statusCode,
      ).toBe(201);
    for (const name of ['A1', 'B1', 'C1'])
      expect((await admin.post('/units', validUnit({ name }))).statusCode).toBe(201);
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('previews the back rent of the leases concerned, and the commit gives the balances', async () => {
    const startA = addMonths(today, -6);
    const startB = addMonths(today, -3);
    const res = await upload(admin, 'occupancy', {
      name: 'leases.csv',
      content: csv([
        [
          'Tenant',
          'Unit',
          'Start Date',
          'Rent',
          'Rent Cycle',
          'Opening Balance',
          'Opening Balance Date',
          'External Ref',
        ],
        // owed 300,000 on the day the period due last month fell due: one charge after it
        ['Amina Achieng', 'A1', startA, '500,000', 'Monthly', '300000', addMonths(startA, 5), 'L-A'],
        // no opening balance: every period since the start
        ['Brian Bbosa', 'B1', startB, '500000', 'Monthly', '', '', 'L-B'],
        // a credit, dated today: nothing charged before it
        ['Carol Cheptoo', 'C1', startB, '500000', 'Monthly', '-150000', today, 'L-C'],
      ]),
    });
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json<ImportRecord>();
    expect(p.errors).toEqual([]);
    expect(p.back_rent).toEqual({
      leases: 2,
      charges: 5,
      total: 2_500_000,
      rows: [
        {
          row: 2,
          external_ref: 'L-A',
          tenant: 'Amina Achieng',
          unit: 'A1',
          start_date: startA,
          charges: 1,
          total: 500_000,
        },
        {
          row: 3,
          external_ref: 'L-B',
          tenant: 'Brian Bbosa',
          unit: 'B1',
          start_date: startB,
          charges: 4,
          total: 2_000_000,
        },
      ],
    });
    // GET answers it too
    expect((await admin.get(`/imports/${p.id}`)).json<ImportRecord>().back_rent?.total).toBe(2_500_000);

    const committed = await admin.post(`/imports/${p.id}/commit`);
    expect(committed.json()).toMatchObject({ created: 3 });
    const leases = (await admin.get('/occupancy?sort=id')).json<{ id: number; external_ref: string }[]>();
    const balances: Record<string, number> = {};
    for (const l of leases)
      balances[l.external_ref] = (await admin.get(`/occupancy/${l.id}/ledger`)).json<{
        balance: number;
      }>().balance;
    expect(balances).toEqual({ 'L-A': 800_000, 'L-B': 2_000_000, 'L-C': -150_000 });
  });

  it('refuses a row whose opening balance has no date, or a date before its start', async () => {
    const start = addMonths(today, -2);
    const res = await upload(admin, 'occupancy', {
      name: 'leases.csv',
      content: csv([
        ['Tenant', 'Unit', 'Start Date', 'Rent', 'Opening Balance', 'Opening Balance Date'],
        ['Amina Achieng', 'A1', start, '500000', '300000', ''],
        ['Brian Bbosa', 'B1', start, '500000', '300000', addMonths(start, -1)],
      ]),
    });
    const p = res.json<ImportRecord>();
    expect(p.valid_rows).toBe(0);
    expect(p.errors.map((e) => [e.row, e.field])).toEqual([
      [2, 'opening_balance_date'],
      [3, 'opening_balance_date'],
    ]);
    expect(p.back_rent).toBeNull();
  });
});
