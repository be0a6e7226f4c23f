import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedBill } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { buildCompany } from '../../test/factories.ts';
import { utilityTestCompany, type Row, type UtilityTestCompany } from './utility-test-company.ts';

/** Issue 28: a building's bill split across its units let in the period, to the cent. */
describe(`shared bills (${testDriver})`, () => {
  let t: TestContext;
  let company: UtilityTestCompany;
  let companyA: number;
  let admin: TestClient;
  let propertyId: number;
  const units: Record<string, number> = {};
  const leases: Record<string, number> = {};

  const as: UtilityTestCompany['as'] = (role, companyId) => company.as(role, companyId);
  const make: UtilityTestCompany['make'] = (path, body, c) => company.make(path, body, c);
  const bill = async (body: Row, c = admin) => {
    const res = await c.post('/shared-bills', {
      property_id: propertyId,
      kind: 'water',
      period_start: '2026-04-01',
      period_end: '2026-04-30',
      description: 'Water master bill',
      ...body,
    });
    return res;
  };
  const created = async (body: Row) => {
    const res = await bill(body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<SharedBill>();
  };
  const sum = (b: SharedBill) => Math.round(b.parts.reduce((s, p) => s + p.amount * 100, 0));

  beforeAll(async () => {
    t = await setupApp();
    company = await utilityTestCompany(t);
    ({ companyId: companyA, admin } = company);
    propertyId = await company.property('Acacia Court', '1 Acacia road');
    // B1 and B2 let the whole of April, B3 from April 21 (10 days), B4 vacant
    for (const [name, size, start] of [
      ['B1', 100, '2026-01-01'],
      ['B2', 50, '2026-03-01'],
      ['B3', 50, '2026-04-21'],
      ['B4', 80, null],
    ] as const) {
      const made = await company.letUnit(propertyId, name, start, {
        unit: { size_sqft: size },
        tenant: { email: `${name}@example.com` },
      });
      units[name] = made.unit;
      if (made.lease) leases[name] = made.lease;
    }
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it('splits equally by the days let, the rounding to the largest part, posted as charges', async () => {
    // 1,000.00 over 30 + 30 + 10 days: 428.57 + 428.57 + 142.85, the cent left to B1 (the first largest)
    const b = await created({ amount: 1000, split: 'equal' });
    expect(b.parts.map((p) => [p.unit_name, p.days, p.amount])).toEqual([
      ['B1', 30, 428.58],
      ['B2', 30, 428.57],
      ['B3', 10, 142.85],
    ]);
    expect(sum(b)).toBe(100_000);
    expect(b.apportioned).toBe(1000);
    // each part is a utility charge of its lease, dated the period's end, posted
    const charges = (await admin.get(`/occupancy/${String(leases.B1)}/charges`)).json<Row[]>();
    expect(charges).toEqual([
      expect.objectContaining({
        id: b.parts[0]?.charge_id,
        category: 'utility',
        amount: 428.58,
        date: '2026-04-30',
        description: expect.stringMatching(/^Water master bill \(.+ – .+, shared\)$/) as unknown,
      }),
    ]);
    const [{ n } = { n: 0 }] = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM journal_entries WHERE company_id = $1 AND source = 'charge'
          AND source_id = ANY($2::int[])`,
      [companyA, b.parts.map((p) => p.charge_id)],
    );
    expect(n).toBe(3);
  });

  it('splits by size times days, and what the master meter’s sub-meters did not account for', async () => {
    // weights 30×100, 30×50, 10×50 = 3000, 1500, 500 of 5000: 600.00, 300.00, 100.00 of 1,000.00
    const bySize = await created({ amount: 1000, split: 'by_size', kind: 'service_charge' });
    expect(bySize.parts.map((p) => p.amount)).toEqual([600, 300, 100]);
    // 33,333 cents as 6 : 3 : 1 = 19,999.8, 9,999.9, 3,333.3: floors 19,999, 9,999, 3,333, the 2 cents left to the largest
    const odd = await created({ amount: 333.33, split: 'by_size', kind: 'security' });
    expect(odd.parts.map((p) => p.amount)).toEqual([200.01, 99.99, 33.33]);
    expect(sum(odd)).toBe(33_333);

    // a master meter read 100 m³ in April; its sub-meters 40 + 20: 40 % of the bill is shared
    const master = await make('/meters', { number: 'MASTER', kind: 'water', property_id: propertyId });
    const sub1 = await make('/meters', { number: 'S1', kind: 'water', unit_id: units.B1 });
    const sub2 = await make('/meters', { number: 'S2', kind: 'water', unit_id: units.B2 });
    for (const [meter, value] of [
      [master, 100],
      [sub1, 40],
      [sub2, 20],
    ] as const)
      await make('/meter_readings', { meter_id: meter.id, reading_date: '2026-04-30', value });
    const byMaster = await created({ amount: 2500, split: 'by_master_meter' });
    expect(byMaster).toMatchObject({ meter_id: master.id, apportioned: 1000 });
    // 1,000.00 by days 30 : 30 : 10
    expect(byMaster.parts.map((p) => p.amount)).toEqual([428.58, 428.57, 142.85]);
    expect(sum(byMaster)).toBe(100_000);

    // listed, newest first; this property's only
    const list = (await admin.get(`/shared-bills?property_id=${String(propertyId)}`)).json<SharedBill[]>();
    expect(list.map((b) => b.id)).toEqual([byMaster.id, odd.id, bySize.id, expect.any(Number)]);
  });

  it('refuses what cannot be split, and keeps to roles and the company', async () => {
    // no unit let in the period; an electricity bill by a master meter there is none of
    expect(
      (
        await bill({ amount: 10, split: 'equal', period_start: '2025-01-01', period_end: '2025-01-31' })
      ).json(),
    ).toMatchObject({
      code: 'validation_failed',
      fields: { property_id: 'No unit of this property is let in the period.' },
    });
    expect((await bill({ amount: 10, split: 'by_master_meter', kind: 'electricity' })).json()).toMatchObject({
      fields: { split: 'The property has no electricity master meter.' },
    });
    expect((await bill({ amount: 10, split: 'equal', period_end: '2026-03-01' })).statusCode).toBe(400);
    for (const role of ['editor', 'viewer'] as const)
      expect((await bill({ amount: 10, split: 'equal' }, await as(role))).statusCode).toBe(403);
    const stranger = await as('admin', (await buildCompany(t.database)).id);
    expect((await bill({ amount: 10, split: 'equal' }, stranger)).statusCode).toBe(404);
    expect((await stranger.get('/shared-bills')).json()).toEqual([]);
    // a viewer reads them
    expect((await (await as('viewer')).get('/shared-bills')).json<SharedBill[]>()).toHaveLength(4);
  });
});
