import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingRun } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { buildCompany } from '../../test/factories.ts';
import { PNG_1PX } from '../../test/entities.ts';
import { runCycle, setSettings } from '../../test/rent-cycle.ts';
import { portalTenant } from '../../test/portal.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { utilityTestCompany, type Row, type UtilityTestCompany } from './utility-test-company.ts';

/** Issue 28: the billing run of meters' readings, by hand and by the daily run. */
describe(`utility billing (${testDriver})`, () => {
  let t: TestContext;
  let company: UtilityTestCompany;
  let companyA: number;
  let admin: TestClient;
  let propertyId: number;
  let tariffId: number;
  const units: Record<string, number> = {};
  const meters: Record<string, number> = {};
  const leases: Record<string, number> = {};
  const tenants: Record<string, number> = {};

  const as: UtilityTestCompany['as'] = (role, companyId) => company.as(role, companyId);
  const make: UtilityTestCompany['make'] = (path, body, c) => company.make(path, body, c);
  const read = async (meter: string, reading_date: string, value: number, photo?: string): Promise<Row> =>
    make('/meter_readings', { meter_id: meters[meter], reading_date, value, ...(photo ? { photo } : {}) });
  const run = async (period_end: string, c = admin, extra: Row = {}) => {
    const res = await c.post('/utility-billing/run', { period_end, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BillingRun>();
  };
  const chargesOf = async (lease: string) => {
    const res = await admin.get(`/occupancy/${String(leases[lease])}/charges`);
    expect(res.statusCode).toBe(200);
    return res.json<Row[]>();
  };
  const lines = (chargeId: number) => company.chargeLines(chargeId);

  beforeAll(async () => {
    t = await setupApp();
    company = await utilityTestCompany(t);
    ({ companyId: companyA, admin } = company);
    propertyId = await company.property('Acacia Court', '1 Acacia road');
    tariffId = Number(
      (
        await make('/tariffs', {
          name: 'Water domestic',
          kind: 'water',
          blocks: '10: 150.5; 30: 200; above: 250.25',
          fixed_charge: 300,
          minimum_charge: 1000,
        })
      ).id,
    );
    // A1 let from January; A3 let from March 10 (its February reading is of no lease); A2 vacant
    const starts: Record<string, string | null> = {
      A1: '2026-01-01',
      A2: null,
      A3: '2026-03-10',
      A4: '2026-01-01',
    };
    for (const name of ['A1', 'A2', 'A3', 'A4']) {
      const made = await company.letUnit(propertyId, name, starts[name] ?? null, {
        tenant: { email: `${name}@example.com`, phone: `+25677230000${name.slice(1)}` },
      });
      units[name] = made.unit;
      if (made.tenant) tenants[name] = made.tenant;
      if (made.lease) leases[name] = made.lease;
      meters[name] = Number(
        (
          await make('/meters', {
            number: `WM-${name}`,
            kind: 'water',
            unit_id: units[name],
            // A4's meter has no tariff: its readings wait
            ...(name === 'A4' ? {} : { tariff_id: tariffId }),
            initial_reading: 1204,
            installed_on: '2026-01-01',
          })
        ).id,
      );
    }
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it('bills the ready readings to the lease of their unit at their date, priced exactly, posted once', async () => {
    // 12.5 m³: 10 × 150.5 + 2.5 × 200 + 300 = 2,305.00
    const a1 = await read('A1', '2026-02-28', 1216.5);
    // vacant: A2; A3 not let yet on Feb 28; A4 without a tariff
    const a2 = await read('A2', '2026-02-28', 1210);
    await read('A3', '2026-02-28', 1207);
    await read('A4', '2026-02-28', 1300);
    // a flagged reading (lower) is held back
    const low = await read('A1', '2026-03-05', 1200);
    expect(low.status).toBe('flagged');

    // roles: company admins and admins run it; editors and viewers may not
    for (const role of ['editor', 'viewer'] as const) {
      const res = await (await as(role)).post('/utility-billing/run', { period_end: '2026-02-28' });
      expect(res.statusCode).toBe(403);
    }
    // another company's run bills nothing of this one, nor can it name its property
    const stranger = await as('admin', (await buildCompany(t.database)).id);
    expect(await run('2026-12-31', stranger)).toMatchObject({ readings_billed: 0, charges_made: 0 });
    const foreign = await stranger.post('/utility-billing/run', {
      period_end: '2026-12-31',
      property_id: propertyId,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await admin.post('/utility-billing/run', { period_end: '28/02/2026' })).statusCode).toBe(400);

    const first = await run('2026-02-28', await as('company_admin'));
    expect(first).toMatchObject({
      period_end: '2026-02-28',
      readings_billed: 3,
      charges_made: 1,
      total_charged: 2305,
      held_back: 0,
      no_tariff: 1,
      not_listed: 0,
    });
    expect(first.charges).toEqual([
      expect.objectContaining({
        reading_id: a1.id,
        occupancy_id: leases.A1,
        meter_number: 'WM-A1',
        unit_name: 'A1',
        consumption: 12.5,
        amount: 2305,
        description: 'Water 12.5 m³ (1,204 – 1,216.5), meter WM-A1',
      }),
    ]);
    // billed to nobody: A2 (vacant) and A3 (let only from March 10), each priced all the same
    expect(first.vacant.map((v) => [v.meter_number, v.consumption, v.amount])).toEqual([
      ['WM-A2', 6, 1203],
      ['WM-A3', 3, 1000],
    ]);
    expect(first.vacant[0]?.reading_id).toBe(a2.id);

    const [charge] = await chargesOf('A1');
    expect(charge).toMatchObject({
      category: 'utility',
      date: '2026-02-28',
      amount: 2305,
      description: 'Water 12.5 m³ (1,204 – 1,216.5), meter WM-A1',
    });
    const chargeId = Number(charge?.id);
    // posted with it: Dr receivable, Cr utility income
    expect(await lines(chargeId)).toEqual([
      { role: 'receivable', debit: '2305.00', credit: '0.00' },
      { role: 'charge_income:utility', debit: '0.00', credit: '2305.00' },
    ]);
    // the reading is billed, with its charge, and no longer changes
    const billed = (await admin.get(`/meter_readings/${String(a1.id)}`)).json<Row>();
    expect(billed).toMatchObject({ status: 'billed', charge_id: chargeId, billed_amount: 2305 });
    const change = await admin.put(`/meter_readings/${String(a1.id)}`, { ...billed, value: 1220 });
    expect(change.statusCode).toBe(409);
    // vacant readings are billed to nobody: marked, with no charge
    expect((await admin.get(`/meter_readings/${String(a2.id)}`)).json<Row>()).toMatchObject({
      status: 'billed',
      charge_id: null,
    });

    // a run twice is once, two at once too
    const [again, twice] = await Promise.all([run('2026-02-28'), run('2026-02-28')]);
    expect(again.readings_billed + twice.readings_billed).toBe(0);
    expect(await chargesOf('A1')).toHaveLength(1);
    const [{ n } = { n: 0 }] = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM journal_entries WHERE company_id = $1 AND source = 'charge'`,
      [companyA],
    );
    expect(n).toBe(1);
  });

  it('bills a confirmed reading (a lower one used nothing: the minimum charge), one property at a time', async () => {
    const low = (await admin.get(`/meter_readings?meter_id=${String(meters.A1)}&status=flagged`)).json<
      Row[]
    >();
    const flagged = low[0] as Row;
    expect(flagged).toMatchObject({ status: 'flagged', flag: 'lower' });
    // held back until confirmed
    expect(await run('2026-03-31')).toMatchObject({ readings_billed: 0, held_back: 1 });
    expect((await admin.post(`/meter_readings/${String(flagged.id)}/confirm`, {})).statusCode).toBe(200);
    // A3's March reading (let from March 10): 8 m³, less than three times its 3 m³ before
    expect(await read('A3', '2026-03-31', 1215)).toMatchObject({ status: 'ready' });
    const other = Number((await make('/properties', { name: 'Baobab', address: '2 Baobab road' })).id);
    expect(await run('2026-03-31', admin, { property_id: other })).toMatchObject({ readings_billed: 0 });
    const answer = await run('2026-03-31', admin, { property_id: propertyId });
    expect(answer.charges.map((c) => [c.meter_number, c.consumption, c.amount, c.description])).toEqual([
      ['WM-A1', 0, 1000, 'Water 0 m³ (1,216.5 – 1,200), meter WM-A1'],
      // 8 m³: 1,204 + 300
      ['WM-A3', 8, 1504, 'Water 8 m³ (1,207 – 1,215), meter WM-A3'],
    ]);
    expect((await chargesOf('A3')).map((c) => c.amount)).toEqual([1504]);
  });

  it('bills on the company’s billing day by the daily run, once', async () => {
    await setSettings(admin, { utility_billing_day: 15 });
    await read('A1', '2026-04-14', 1210, PNG_1PX);
    expect((await runCycle(admin, '2026-04-14')).as_of).toBe('2026-04-14');
    expect(await chargesOf('A1')).toHaveLength(2);
    await runCycle(admin, '2026-04-15');
    const charges = await chargesOf('A1');
    expect(charges.map((c) => [c.date, c.amount])).toEqual([
      ['2026-02-28', 2305],
      ['2026-03-05', 1000],
      // 10 m³: 1,505 + 300
      ['2026-04-14', 1805],
    ]);
    await runCycle(admin, '2026-04-15');
    expect(await chargesOf('A1')).toHaveLength(3);
    // the setting is kept and checked
    expect((await admin.get('/company-settings')).json<Row>().utility_billing_day).toBe(15);
    const current = (await admin.get('/company-settings')).json<{ version: number }>();
    const bad = await admin.put('/company-settings', { utility_billing_day: 31, version: current.version });
    expect(bad.statusCode).toBe(400);
  });

  it('shows the tenant the water charge with its readings in the portal, on the ledger and the statement', async () => {
    const tenant = await portalTenant(t, admin, Number(tenants.A1));
    const lease = String(leases.A1);
    const ledger = (await tenant.get(`/portal/leases/${lease}/ledger`)).json<{
      entries: { charge_id: number | null; category: string | null; amount: number; description: string }[];
    }>();
    const water = ledger.entries.filter((e) => e.category === 'utility');
    expect(water.map((e) => [e.amount, e.description])).toEqual([
      [2305, 'Utility: Water 12.5 m³ (1,204 – 1,216.5), meter WM-A1'],
      [1000, 'Utility: Water 0 m³ (1,216.5 – 1,200), meter WM-A1'],
      [1805, 'Utility: Water 10 m³ (1,200 – 1,210), meter WM-A1'],
    ]);
    const readings = (await tenant.get(`/portal/leases/${lease}/meter-readings`)).json<Row[]>();
    expect(readings[0]).toEqual({
      id: expect.any(Number) as unknown,
      charge_id: water[2]?.charge_id,
      meter_number: 'WM-A1',
      kind: 'water',
      unit_of_measure: 'm3',
      previous_date: '2026-03-05',
      previous_value: 1200,
      reading_date: '2026-04-14',
      value: 1210,
      consumption: 10,
      amount: 1805,
      has_photo: true,
    });
    expect(readings.map((r) => r.charge_id)).toEqual(water.map((e) => e.charge_id).reverse());
    const photo = await tenant.get(`/portal/meter-readings/${String(readings[0]?.id)}/photo`);
    expect(photo.statusCode).toBe(200);
    expect(photo.rawPayload.equals(Buffer.from(PNG_1PX, 'base64'))).toBe(true);
    // another tenant sees neither the lease's readings nor their photos
    const other = await portalTenant(t, admin, Number(tenants.A3));
    expect((await other.get(`/portal/leases/${lease}/meter-readings`)).statusCode).toBe(404);
    expect((await other.get(`/portal/meter-readings/${String(readings[0]?.id)}/photo`)).statusCode).toBe(404);
    // the statement lists the charges with their readings' words
    const pdf = await tenant.get(`/portal/leases/${lease}/statement.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain('Water 10 m³ (1,200 – 1,210), meter WM-A1');
  });

  it('reminds a tenant of an amount due that includes the utility charges', async () => {
    const lease = Number(leases.A1);
    const ledger = (await admin.get(`/occupancy/${String(lease)}/ledger`)).json<{
      as_of: string;
      entries: { date: string; kind: string; amount: number; category: string | null }[];
    }>();
    // due before today: every rent and charge (no payments on this lease); the utility ones among them
    const due = ledger.entries.filter((e) => e.date < ledger.as_of && ['rent', 'charge'].includes(e.kind));
    const utilities = due.filter((e) => e.category === 'utility').reduce((sum, e) => sum + e.amount, 0);
    expect(utilities).toBe(2305 + 1000 + 1805);
    const total = due.reduce((sum, e) => sum + e.amount, 0);
    // the company's overdue e-mail, with the amount due first
    const templates = (await admin.get('/message-templates')).json<Row[]>();
    const overdue = templates.find((m) => m.kind === 'overdue' && m.channel === 'email');
    const put = await admin.put(`/message-templates/${String(overdue?.id)}`, {
      name: overdue?.name,
      channel: 'email',
      kind: 'overdue',
      subject: 'Rent due',
      body: 'Due {{amount_due}} of {{balance}} for {{unit_name}}.',
      version: overdue?.version,
    });
    expect(put.statusCode, put.body).toBe(200);
    const res = await admin.post('/arrears/remind', { channel: 'email', occupancy_ids: [lease] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ results: { status: string }[] }>().results.map((r) => r.status)).toEqual(['queued']);
    const [message] = await t.database.query<{ body: string }>(
      `SELECT body FROM messages WHERE company_id = $1 AND occupancy_id = $2 AND kind = 'reminder'
        ORDER BY id DESC LIMIT 1`,
      [companyA, lease],
    );
    const amount = /Due \D*([\d,.]+) of/.exec(message?.body ?? '')?.[1] ?? '';
    expect(Number(amount.replaceAll(',', '')), message?.body).toBe(total);
  });

  it('bills a reading of an owned property to the owners’ rent due, not the company’s income', async () => {
    const owned = await company.ownedProperty('Owned Court', '2026-01-01');
    const { unit, lease } = await company.letUnit(owned, 'O1', '2026-01-01', {
      tenant: { email: 'o1@example.com', phone: '+256772300099' },
    });
    const meter = Number(
      (
        await make('/meters', {
          number: 'WM-O1',
          kind: 'water',
          unit_id: unit,
          tariff_id: tariffId,
          initial_reading: 100,
          installed_on: '2026-01-01',
        })
      ).id,
    );
    await make('/meter_readings', { meter_id: meter, reading_date: '2026-05-31', value: 110 });
    const answer = await run('2026-05-31', admin, { property_id: owned });
    expect(answer.charges.map((c) => [c.occupancy_id, c.amount])).toEqual([[lease, 1805]]);
    expect(await lines(answer.charges[0]?.charge_id ?? 0)).toEqual([
      { role: 'receivable', debit: '1805.00', credit: '0.00' },
      { role: 'owner_rent_due', debit: '0.00', credit: '1805.00' },
    ]);
  });
});
