import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTime, type Dashboard } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';

type Row = Record<string, unknown>;
type Month = {
  month: string;
  rental_income: number;
  late_fees: number;
  other_income: number;
  expenses: Record<string, number>;
  total_expenses: number;
  net_income: number;
  completed_payments?: number;
  owners_collections?: number;
  management_fees?: number;
  owners_expenses?: number;
};

/**
 * Issue 27: the income statement of an agency (docs/decisions.md "An agency's income statement and
 * dashboard"): a company with one property of its own and one owned at 10% counts its own rent and the
 * management fee, not the owner's rent, nor the expenses paid from the owner's funds.
 */
describe(`an agency's income statement (${testDriver})`, () => {
  // the company's month (Africa/Kampala): the dashboard's, and the day a void's entries are dated in
  const M = localTime('Africa/Kampala', new Date()).date.slice(0, 7);
  const first = `${M}-01`;
  let t: TestContext;
  let companyId: number;
  let admin: TestClient;
  let owned: number;
  let own: number;

  const make = async (path: string, body: Row): Promise<number> => {
    const res = await admin.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return Number(res.json<Row>().id);
  };
  const month = async (q = '', basis = 'cash'): Promise<Month> => {
    const res = await admin.get(`/income-statement?from=${M}&to=${M}&basis=${basis}${q}`);
    expect(res.statusCode, res.body).toBe(200);
    const [m] = res.json<Month[]>();
    return m!;
  };

  beforeAll(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Acacia Agency' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    expect((await admin.login(u.email, u.password)).statusCode).toBe(200);
    const owner = await make('/owners', { first_name: 'Grace', last_name: 'Namuli', payout_method: 'bank' });
    owned = await make('/properties', { name: 'Kololo Court', address: 'Kololo' });
    own = await make('/properties', { name: 'Own Block', address: 'Ntinda' });
    const uOwned = await make('/units', validUnit({ name: 'K1', property_id: owned }));
    const uOwn = await make('/units', validUnit({ name: 'N1', property_id: own }));
    expect(
      (await admin.put(`/properties/${owned}/owners`, [{ owner_id: owner, share_percent: 100 }])).statusCode,
    ).toBe(200);
    // owners from long ago (a PUT sets them from today)
    await t.database.query(
      `UPDATE property_owner_sets SET effective_from = '2020-01-01' WHERE company_id = $1 AND property_id = $2`,
      [companyId, owned],
    );
    expect(
      (
        await admin.put(`/properties/${owned}/agreement`, {
          fee_kind: 'percent_of_collected',
          fee_amount: 10,
        })
      ).statusCode,
    ).toBe(200);
    const tOwned = await make('/tenants', validTenant({ first_name: 'Tom', phone: '+256772000011' }));
    const tOwn = await make('/tenants', validTenant({ first_name: 'Ann', phone: '+256772000012' }));
    const lease = (tenant: number, unit: number, rate: number) =>
      make('/occupancy', { tenant_id: tenant, unit_id: unit, start_date: first, end_date: null, rate });
    await lease(tOwned, uOwned, 1000000);
    await lease(tOwn, uOwn, 700000);
    const pay = (tenant: number, unit: number, amount: number) =>
      make('/payments', {
        tenant_id: tenant,
        unit_id: unit,
        payment_date: first,
        amount_paid: amount,
        payment_method: 'cash',
        status: 'completed',
        effective_start_date: first,
        effective_end_date: first,
      });
    await pay(tOwned, uOwned, 1000000);
    await pay(tOwn, uOwn, 700000);
    const spend = (unit: number, amount: number, category: string) =>
      make('/expenses', { unit_id: unit, expense_date: first, amount, category });
    await spend(uOwned, 200000, 'repairs');
    await spend(uOwn, 50000, 'repairs');
    await spend(uOwned, 30000, 'cleaning');
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it("shows the company's own rent and the management fee, not the owner's rent nor their expenses (cash)", async () => {
    expect(await month()).toMatchObject({
      month: M,
      rental_income: 700000,
      late_fees: 0,
      other_income: 100000,
      expenses: { repairs: 50000 },
      total_expenses: 50000,
      net_income: 750000,
      completed_payments: 1700000,
      owners_collections: 1000000,
      management_fees: 100000,
      owners_expenses: 230000,
    });
    // one property: the owned one earns the company its fee only
    expect(await month(`&property_id=${owned}`)).toMatchObject({
      rental_income: 0,
      other_income: 100000,
      expenses: {},
      total_expenses: 0,
      net_income: 100000,
      completed_payments: 1000000,
      owners_collections: 1000000,
    });
    // the company's own: as before, no agency figures
    const mine = await month(`&property_id=${own}`);
    expect(mine).toMatchObject({
      rental_income: 700000,
      other_income: 0,
      total_expenses: 50000,
      net_income: 650000,
    });
    expect(mine.owners_collections).toBeUndefined();
  });

  it('leaves the expenses paid from the owners funds out on the accrual basis too', async () => {
    expect(await month('', 'accrual')).toMatchObject({
      rental_income: 700000,
      other_income: 100000,
      expenses: { repairs: 50000 },
      total_expenses: 50000,
      net_income: 750000,
      management_fees: 100000,
      owners_expenses: 230000,
    });
  });

  it("answers on the dashboard all money collected against all rent due, the owners' part apart", async () => {
    const res = await admin.get('/dashboard');
    expect(res.statusCode, res.body).toBe(200);
    const money = res.json<Dashboard>().money!;
    expect(money).toMatchObject({
      month: M,
      collected: 1700000,
      owners_collected: 1000000,
      rent_due: 1700000,
      collected_percent: 100,
    });
    const byName = Object.fromEntries(money.properties.map((p) => [p.name, p]));
    expect(byName['Kololo Court']).toMatchObject({
      collected: 1000000,
      owners_collected: 1000000,
      rent_due: 1000000,
    });
    expect(byName['Own Block']).toMatchObject({ collected: 700000, owners_collected: 0, rent_due: 700000 });
    const one = (await admin.get(`/dashboard?property_id=${owned}`)).json<Dashboard>().money!;
    expect(one).toMatchObject({ collected: 1000000, owners_collected: 1000000, rent_due: 1000000 });
  });

  it('answers a void at once: the voided collection and its fee leave the month', async () => {
    const [p] = await t.database.query<{ id: number }>(
      `SELECT id FROM payments WHERE company_id = $1 AND property_id = $2`,
      [companyId, owned],
    );
    const res = await admin.post(`/payments/${p!.id}/void`, { reason: 'Bounced cheque' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await month()).toMatchObject({
      rental_income: 700000,
      other_income: 0,
      completed_payments: 700000,
      owners_collections: 0,
      management_fees: 0,
    });
  });
});
