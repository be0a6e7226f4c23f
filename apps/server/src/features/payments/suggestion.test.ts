import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { signInAs } from '../../test/sign-in.ts';
import { buildCompany } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';

type Suggestion = {
  occupancy_id: number;
  unit_id: number;
  unit_name: string | null;
  property_name: string | null;
  as_of: string;
  balance: number;
  rent: number;
  amount: number;
  due: boolean;
  period_start: string | null;
  period_end: string | null;
};

/** The first day of the month `back` months before today (UTC). */
const monthStart = (back: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1)).toISOString().slice(0, 10);
};

describe(`payment form: the tenant's unit, the amount due and its period (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let unit: { id: number };
  let tenant: { id: number };
  let lease: { id: number; start_date: string };

  const signIn = (roles: RoleName[], company = companyId) => signInAs(t, company, roles);

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    admin = await signIn(['admin']);
    const property = (
      await admin.post('/properties', { name: 'Kololo Heights', address: 'Plot 4, Kololo' })
    ).json<{
      id: number;
    }>();
    unit = (await admin.post('/units', validUnit({ name: 'A3', property_id: property.id }))).json();
    tenant = (await admin.post('/tenants', validTenant({ first_name: 'Jane', last_name: 'Doe' }))).json();
    const res = await admin.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: monthStart(2),
      rate: 800000,
    });
    expect(res.statusCode, res.body).toBe(201);
    lease = res.json();
  });
  afterEach(async () => {
    await t.app.close();
  });

  const suggestion = (client: TestClient, query: string) => client.get(`/payments/suggestion?${query}`);

  it('suggests the balance due for the periods unpaid, then the next rent once it is paid', async () => {
    const res = await suggestion(admin, `tenant_id=${tenant.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json<Suggestion>();
    const ledger = (await admin.get(`/occupancy/${lease.id}/ledger`)).json<{ balance: number }>();
    expect(s).toMatchObject({
      occupancy_id: lease.id,
      unit_id: unit.id,
      unit_name: 'A3',
      property_name: 'Kololo Heights',
      balance: ledger.balance,
      amount: ledger.balance,
      rent: 800000,
      due: true,
      period_start: lease.start_date,
    });
    expect(s.amount).toBeGreaterThanOrEqual(3 * 800000);
    expect(s.period_end! >= s.as_of).toBe(true);

    const paid = await admin.post('/payments', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      payment_date: s.as_of,
      amount_paid: s.amount,
      status: 'completed',
      effective_start_date: s.period_start,
      effective_end_date: s.period_end,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const next = (await suggestion(admin, `tenant_id=${tenant.id}&unit_id=${unit.id}`)).json<Suggestion>();
    expect(next).toMatchObject({ balance: 0, amount: 800000, due: false });
    // the period after the last one started: it begins after today, the day after the previous end
    expect(next.period_start! > next.as_of).toBe(true);
    expect(next.period_start! > s.period_end!).toBe(true);
  });

  it('is the company’s: another company’s tenant, another unit or no lease is 404; viewers 403', async () => {
    const other = await signIn(['admin'], (await buildCompany(t.database, { name: 'Other' })).id);
    expect((await suggestion(other, `tenant_id=${tenant.id}`)).statusCode).toBe(404);
    const unit2 = (await admin.post('/units', validUnit({ name: 'B1' }))).json<{ id: number }>();
    expect((await suggestion(admin, `tenant_id=${tenant.id}&unit_id=${unit2.id}`)).statusCode).toBe(404);
    const loner = (await admin.post('/tenants', validTenant({ phone: '+256772999888' }))).json<{
      id: number;
    }>();
    expect((await suggestion(admin, `tenant_id=${loner.id}`)).statusCode).toBe(404);
    expect((await suggestion(admin, 'tenant_id=abc')).statusCode).toBe(400);
    const viewer = await signIn(['viewer']);
    expect((await suggestion(viewer, `tenant_id=${tenant.id}`)).statusCode).toBe(403);
    expect((await new TestClient(t.app).get(`/payments/suggestion?tenant_id=${tenant.id}`)).statusCode).toBe(
      401,
    );
  });

  it('lists tenants with the unit they rent and their balance, neither sortable', async () => {
    const ledger = (await admin.get(`/occupancy/${lease.id}/ledger`)).json<{ balance: number }>();
    const loner = (
      await admin.post('/tenants', validTenant({ first_name: 'Solo', phone: '+256772999888' }))
    ).json<{
      id: number;
    }>();
    const res = await admin.get('/tenants?sort=first_name');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ id: number; current_unit: string | null; balance: number | null }[]>();
    expect(rows.find((r) => r.id === tenant.id)).toMatchObject({
      current_unit: 'A3, Kololo Heights',
      balance: ledger.balance,
    });
    expect(rows.find((r) => r.id === loner.id)).toMatchObject({ current_unit: null, balance: null });
    // the picker reads the same rows: a search by name finds her with her unit
    const found = (await admin.get('/tenants?q=jane&page_size=20')).json<{ current_unit: string }[]>();
    expect(found.map((r) => r.current_unit)).toEqual(['A3, Kololo Heights']);
    expect((await admin.get('/tenants?sort=balance')).statusCode).toBe(400);
    expect((await admin.get('/tenants?sort=-current_unit')).statusCode).toBe(400);
    // a terminated lease lets nothing: the unit is gone, the balance stays
    const full = (await admin.get(`/occupancy/${lease.id}`)).json<Record<string, unknown>>();
    const ended = await admin.put(`/occupancy/${lease.id}`, { ...full, occupancy_status: 'terminated' });
    expect(ended.statusCode, ended.body).toBe(200);
    const after = (await admin.get(`/tenants/${tenant.id}`)).json<{
      current_unit: string | null;
      balance: number;
    }>();
    expect(after).toMatchObject({ current_unit: null, balance: ledger.balance });
  });
});
