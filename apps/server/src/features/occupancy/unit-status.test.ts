import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '@kodi/domain';
import { companyTodayIn } from '../../modules/companies/company-settings.ts';
import { followLeasesDaily } from '../../modules/leases/unit-status.ts';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { portalCompany } from '../../test/portal.ts';

type Row = { id: number; version: number } & Record<string, unknown>;

/** A record as its form sends it back: the read-only fields left out, the version read kept. */
const strip = (r: Row): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...r };
  for (const k of ['id', 'company_id', 'tenant_name', 'tenant_first_name', 'tenant_last_name', 'unit_name'])
    delete out[k];
  for (const k of ['has_lease_doc', 'back_rent', 'created_at', 'updated_at', 'property_id', 'lease_doc_name'])
    delete out[k];
  return out;
};

/** A CSV file of these rows, posted as `POST /imports` of leases (multipart, as a browser sends it). */
const importLeases = async (client: TestClient, rows: readonly (readonly string[])[]) => {
  const boundary = '----kodiUnitStatus';
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="entity"\r\n\r\noccupancy\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leases.csv"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${rows.map((r) => r.join(',')).join('\r\n')}\r\n` +
      `--${boundary}--\r\n`,
  );
  const preview = expectStatus(
    await client.post('/imports', body, { 'content-type': `multipart/form-data; boundary=${boundary}` }),
    201,
  ).json<{ id: number }>();
  return expectStatus(await client.post(`/imports/${preview.id}/commit`), 200).json<{ created: number }>();
};

/**
 * A unit's status follows its leases (issue 26): an available unit let today becomes occupied, an
 * occupied one no lease lets any more available again; maintenance is never changed, nor another
 * company's units; a lease that starts later changes its unit on its first day (the daily run).
 */
describe(`unit status follows the leases (${testDriver})`, () => {
  let t: TestContext;
  let staff: TestClient;
  let companyId: number;
  let today: string;
  let tenant: number;

  const unit = async (overrides: Record<string, unknown> = {}) =>
    expectStatus(await staff.post('/units', validUnit(overrides)), 201).json<Row>().id;
  const statusOf = async (client: TestClient, id: number) =>
    expectStatus(await client.get(`/units/${id}`), 200).json<Row>().status;
  const lease = async (unitId: number, terms: Record<string, unknown> = {}) =>
    expectStatus(
      await staff.post('/occupancy', {
        tenant_id: tenant,
        unit_id: unitId,
        rate: 1_500_000,
        start_date: addDays(today, -40),
        ...terms,
      }),
      201,
    ).json<Row>();
  const change = async (l: Row, terms: Record<string, unknown>) =>
    expectStatus(await staff.put(`/occupancy/${l.id}`, { ...strip(l), ...terms }), 200).json<Row>();

  beforeEach(async () => {
    t = await setupApp();
    let company;
    ({ staff, company } = await portalCompany(t, 'Status Homes'));
    companyId = company.id;
    today = await companyTodayIn(t.database.db, companyId);
    tenant = expectStatus(await staff.post('/tenants', validTenant()), 201).json<Row>().id;
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('marks a unit occupied when a current lease is created, and available when it ends or goes', async () => {
    const property = expectStatus(
      await staff.post('/properties', { name: 'Kololo Court', address: 'Plot 4, Kololo' }),
      201,
    ).json<Row>().id;
    const a = await unit({ name: 'A1', property_id: property });
    const b = await unit({ name: 'B1' });
    const first = await lease(a);
    expect(await statusOf(staff, a)).toBe('occupied');
    // the property's count follows the unit (its triggers)
    const occupiedCount = async () =>
      expectStatus(await staff.get(`/properties/${property}`), 200).json<Row>().occupied_count;
    expect(await occupiedCount()).toBe(1);

    // terminated: available again
    const ended = await change(first, { occupancy_status: 'terminated' });
    expect(await statusOf(staff, a)).toBe('available');
    expect(await occupiedCount()).toBe(0);
    // active again, then moved to another unit: the first unit is free, the second let
    const again = await change(ended, { occupancy_status: 'active' });
    expect(await statusOf(staff, a)).toBe('occupied');
    const moved = await change(again, { unit_id: b });
    expect([await statusOf(staff, a), await statusOf(staff, b)]).toEqual(['available', 'occupied']);
    // an end date in the past, then the lease deleted
    const past = await change(moved, { end_date: addDays(today, -1) });
    expect(await statusOf(staff, b)).toBe('available');
    await change(past, { end_date: null });
    expect(await statusOf(staff, b)).toBe('occupied');
    expectStatus(await staff.delete(`/occupancy/${past.id}`), 204);
    expect(await statusOf(staff, b)).toBe('available');
  });

  it('keeps a unit occupied while another current lease lets it', async () => {
    const a = await unit({ name: 'A1' });
    const old = await lease(a, { start_date: addDays(today, -400), end_date: addDays(today, -41) });
    await lease(a);
    expect(await statusOf(staff, a)).toBe('occupied');
    expectStatus(await staff.delete(`/occupancy/${old.id}`), 204);
    expect(await statusOf(staff, a)).toBe('occupied');
  });

  it('never changes a unit in maintenance, nor one of another company', async () => {
    const m = await unit({ name: 'M1', status: 'maintenance' });
    const l = await lease(m);
    expect(await statusOf(staff, m)).toBe('maintenance');
    await change(l, { occupancy_status: 'terminated' });
    expect(await statusOf(staff, m)).toBe('maintenance');

    const other = await portalCompany(t, 'Other Homes');
    const theirs = expectStatus(
      await other.staff.post('/units', validUnit({ name: 'A1', status: 'occupied' })),
      201,
    ).json<Row>().id;
    const mine = await unit({ name: 'A1' });
    const l2 = await lease(mine);
    expectStatus(await staff.delete(`/occupancy/${l2.id}`), 204);
    expect(await statusOf(other.staff, theirs)).toBe('occupied');
    // another company's unit cannot be let at all (404 or 400: not ours)
    const refused = await staff.post('/occupancy', {
      tenant_id: tenant,
      unit_id: theirs,
      rate: 1,
      start_date: today,
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await statusOf(other.staff, theirs)).toBe('occupied');
  });

  it('lets staff set any status by hand', async () => {
    const a = await unit({ name: 'A1' });
    await lease(a);
    const u = expectStatus(await staff.get(`/units/${a}`), 200).json<Row>();
    const { id: _id, company_id: _c, property_name: _p, created_at: _ca, updated_at: _ua, ...form } = u;
    for (const k of ['has_image_1', 'has_image_2']) delete form[k];
    expectStatus(await staff.put(`/units/${a}`, { ...form, status: 'maintenance' }), 200);
    expect(await statusOf(staff, a)).toBe('maintenance');
  });

  it('marks the units of imported leases occupied, not those of leases to come', async () => {
    await unit({ name: 'A1' });
    const b = await unit({ name: 'B1' });
    const c = await unit({ name: 'C1' });
    const created = await importLeases(staff, [
      ['Tenant', 'Unit', 'Start Date', 'End Date', 'Rent', 'Rent Cycle'],
      ['+256772123456', 'A1', addDays(today, -30), '', '900000', 'Monthly'],
      ['+256772123456', 'B1', addDays(today, -30), '', '900000', 'Monthly'],
      ['+256772123456', 'C1', addDays(today, 10), '', '900000', 'Monthly'],
    ]);
    expect(created.created).toBe(3);
    const units = expectStatus(await staff.get('/units?sort=name'), 200).json<Row[]>();
    expect(units.map((u) => [u.name, u.status])).toEqual([
      ['A1', 'occupied'],
      ['B1', 'occupied'],
      ['C1', 'available'],
    ]);
    expect(b).toBeGreaterThan(0);

    // the daily run of C1's first day lets it; run again, nothing changes
    const run = (day: string, from: string) =>
      t.database.db.transaction((tx) => followLeasesDaily(tx, companyId, day, from));
    expect(await run(addDays(today, 9), addDays(today, 9))).toEqual([]);
    expect(await run(addDays(today, 10), addDays(today, 10))).toEqual([c]);
    expect(await run(addDays(today, 10), addDays(today, 10))).toEqual([]);
    expect(await statusOf(staff, c)).toBe('occupied');
  });

  it('frees, in the daily run, the unit of a lease whose last day has passed', async () => {
    const a = await unit({ name: 'A1' });
    const m = await unit({ name: 'M1', status: 'maintenance' });
    await lease(a, { end_date: addDays(today, 5) });
    await lease(m, { end_date: addDays(today, 5) });
    const run = (day: string, from: string) =>
      t.database.db.transaction((tx) => followLeasesDaily(tx, companyId, day, from));
    expect(await run(addDays(today, 5), addDays(today, 5))).toEqual([]);
    // days missed are caught up: the run of the 8th processes the 6th to the 8th
    expect(await run(addDays(today, 8), addDays(today, 6))).toEqual([a]);
    expect([await statusOf(staff, a), await statusOf(staff, m)]).toEqual(['available', 'maintenance']);
  });
});
