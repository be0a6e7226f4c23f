import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMonths, localTime, type Dashboard } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { companyWith, expectStatus } from '../../test/rent-cycle.ts';
import { validTenant, validUnit } from '../../test/entities.ts';

/**
 * Issue 26, 'Money first': the dashboard's collected this month against the rent due this month
 * (from the books: Rental income credited for the month), overall and per property, and the units let
 * and vacant. The company's day is today in its time zone (the default, Africa/Kampala).
 */
describe(`the dashboard's money (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  const month = localTime('Africa/Kampala', new Date()).date.slice(0, 7);
  const first = `${month}-01`;

  const created = async (res: Parameters<typeof expectStatus>[0]) =>
    expectStatus(res, 201).json<{ id: number }>();

  let n = 0;
  const lease = async (propertyId: number, rate: number, start = first) => {
    n += 1;
    const unit = await created(
      await admin.post(
        '/units',
        validUnit({ name: `Unit ${n}`, property_id: propertyId, monthly_rate: rate }),
      ),
    );
    const tenant = await created(
      await admin.post('/tenants', validTenant({ last_name: `Tenant${n}`, email: `t${n}@example.com` })),
    );
    const occ = await created(
      await admin.post('/occupancy', {
        tenant_id: tenant.id,
        unit_id: unit.id,
        start_date: start,
        rate,
        rent_cycle: 'monthly',
      }),
    );
    return { id: occ.id, tenant_id: tenant.id, unit_id: unit.id };
  };

  const pay = async (l: { tenant_id: number; unit_id: number }, amount: number, status = 'completed') =>
    created(
      await admin.post('/payments', {
        tenant_id: l.tenant_id,
        unit_id: l.unit_id,
        payment_date: first,
        amount_paid: amount,
        payment_method: 'cash',
        status,
        effective_start_date: first,
        effective_end_date: first,
      }),
    );

  beforeEach(async () => {
    t = await setupApp();
    ({ client: admin } = await companyWith(t, ['admin']));
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('answers collected against rent due, per property, and the units let and vacant, each linked by its filter', async () => {
    const nakasero = await created(
      await admin.post('/properties', { name: 'Nakasero Court', address: 'Kampala' }),
    );
    const ntinda = await created(
      await admin.post('/properties', { name: 'Ntinda Flats', address: 'Kampala' }),
    );
    const a = await lease(nakasero.id, 800_000);
    const b = await lease(nakasero.id, 700_000);
    await lease(ntinda.id, 500_000);
    // starts next month: no rent due this month
    await lease(ntinda.id, 900_000, addMonths(first, 1));
    // a vacant unit
    await created(
      await admin.post('/units', validUnit({ name: 'Empty', property_id: ntinda.id, status: 'available' })),
    );
    await pay(a, 800_000);
    await pay(b, 200_000);
    await pay(b, 300_000, 'pending'); // not collected

    const d = expectStatus(await admin.get('/dashboard'), 200).json<Dashboard>();
    expect(d.money).toMatchObject({
      month,
      from: first,
      collected: 1_000_000,
      rent_due: 2_000_000,
      collected_percent: 50,
    });
    // units let are those whose status says so; the list of units filtered by status counts the same
    const units = async (status: string, property?: number) =>
      Number(
        expectStatus(
          await admin.get(
            `/units?filter=${encodeURIComponent(JSON.stringify({ field: 'status', value: status }))}${
              property ? `&property_id=${property}` : ''
            }`,
          ),
          200,
        ).headers['x-total-count'],
      );
    expect(d.money?.let_units).toBe(await units('occupied'));
    expect(d.money?.vacant_units).toBe(await units('available'));
    expect(d.money?.vacant_units).toBeGreaterThanOrEqual(1);

    const byName = Object.fromEntries((d.money?.properties ?? []).map((p) => [p.name, p]));
    expect(byName['Nakasero Court']).toMatchObject({
      property_id: nakasero.id,
      collected: 1_000_000,
      rent_due: 1_500_000,
      collected_percent: 67,
    });
    expect(byName['Ntinda Flats']).toMatchObject({ collected: 0, rent_due: 500_000, collected_percent: 0 });
    expect(byName['Ntinda Flats']?.vacant_units).toBe(await units('available', ntinda.id));

    // collected: the payments list filtered to completed payments dated in the month counts the same
    const to = d.money?.to ?? '';
    const payments = expectStatus(
      await admin.get(
        `/payments?filter=${encodeURIComponent(
          JSON.stringify([
            { field: 'status', value: 'completed' },
            { field: 'payment_date', from: first, to },
          ]),
        )}`,
      ),
      200,
    ).json<{ amount_paid: number }[]>();
    expect(payments.map((p) => p.amount_paid).reduce((x, y) => x + y, 0)).toBe(d.money?.collected);

    // of one property: its own figures
    const one = expectStatus(await admin.get(`/dashboard?property_id=${ntinda.id}`), 200).json<Dashboard>();
    expect(one.money).toMatchObject({ collected: 0, rent_due: 500_000, collected_percent: 0 });
    expect(one.money?.properties.map((p) => p.name)).toEqual(['Ntinda Flats']);
  });

  it('says no percentage when nothing is due, and counts a voided payment out', async () => {
    const p = await created(await admin.post('/properties', { name: 'Bukoto', address: 'Kampala' }));
    const l = await lease(p.id, 600_000, addMonths(first, 1));
    const paid = await pay(l, 100_000);
    let d = expectStatus(await admin.get('/dashboard'), 200).json<Dashboard>();
    expect(d.money).toMatchObject({ collected: 100_000, rent_due: 0, collected_percent: null });
    expectStatus(await admin.post(`/payments/${paid.id}/void`, { reason: 'Entered twice' }), 200);
    d = expectStatus(await admin.get('/dashboard'), 200).json<Dashboard>();
    expect(d.money?.collected).toBe(0);
  });
});
