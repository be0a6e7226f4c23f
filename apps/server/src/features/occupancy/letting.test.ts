import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execRows } from '../../db/client.ts';
import { lockUnits } from '../../modules/leases/unit-status.ts';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { portalCompany } from '../../test/portal.ts';

type Lease = { id: number; version: number } & Record<string, unknown>;

/**
 * A unit is let once at a time (issue 26): a lease whose dates meet another running lease of the same
 * unit is refused with 409 `unit_occupied`, naming that lease's tenant and dates; terminated or
 * inactive leases, and other units, let it be.
 */
describe(`a unit is let once at a time (${testDriver})`, () => {
  let t: TestContext;
  let staff: TestClient;
  let unitId: number;
  let otherUnitId: number;
  let grace: number;
  let peter: number;

  beforeEach(async () => {
    t = await setupApp();
    ({ staff } = await portalCompany(t, 'Letting Homes'));
    unitId = expectStatus(await staff.post('/units', validUnit({ name: 'Kololo A1' })), 201).json<Lease>().id;
    otherUnitId = expectStatus(
      await staff.post('/units', validUnit({ name: 'Kololo A2' })),
      201,
    ).json<Lease>().id;
    grace = expectStatus(await staff.post('/tenants', validTenant()), 201).json<Lease>().id;
    peter = expectStatus(
      await staff.post(
        '/tenants',
        validTenant({
          first_name: 'Peter',
          last_name: 'Okello',
          email: 'peter@example.com',
          phone: '+256772000111',
        }),
      ),
      201,
    ).json<Lease>().id;
  });
  afterEach(async () => {
    await t.app.close();
  });

  const lease = (terms: Record<string, unknown>) =>
    staff.post('/occupancy', { tenant_id: grace, unit_id: unitId, rate: 1_500_000, ...terms });

  it('refuses a second lease whose dates meet a running one, naming its tenant and dates', async () => {
    expectStatus(await lease({ start_date: '2026-01-01', end_date: '2026-06-30' }), 201);
    const refused = await lease({ tenant_id: peter, start_date: '2026-06-30' });
    expect(refused.statusCode).toBe(409);
    const message = 'Unit Kololo A1 is let to Grace Namuli from Jan 1, 2026 to Jun 30, 2026.';
    expect(refused.json()).toEqual({ error: message, code: 'unit_occupied', fields: { unit_id: message } });
    // one that starts inside it, and one that covers it whole
    expect(
      (await lease({ tenant_id: peter, start_date: '2025-12-01', end_date: '2026-01-01' })).statusCode,
    ).toBe(409);
    expect((await lease({ tenant_id: peter, start_date: '2025-01-01' })).statusCode).toBe(409);
    // the day after, another unit, or a lease that is not running: let
    expectStatus(await lease({ tenant_id: peter, start_date: '2026-07-01' }), 201);
    expectStatus(await lease({ tenant_id: peter, unit_id: otherUnitId, start_date: '2026-03-01' }), 201);
    expectStatus(
      await lease({ tenant_id: peter, start_date: '2026-02-01', end_date: '2026-02-28', is_active: false }),
      201,
    );
    const open = await lease({ tenant_id: grace, start_date: '2027-01-01' });
    expect(open.json<{ error: string }>().error).toBe(
      'Unit Kololo A1 is let to Peter Okello from Jul 1, 2026, with no end date.',
    );
  });

  it('lets the unit again once the lease is terminated, and checks a change of dates', async () => {
    const first = expectStatus(await lease({ start_date: '2026-01-01' }), 201).json<Lease>();
    expect((await lease({ tenant_id: peter, start_date: '2026-05-01' })).statusCode).toBe(409);
    // the first lease ends: a change of its dates is its own, not a clash with itself
    const ended = expectStatus(
      await staff.put(`/occupancy/${first.id}`, { ...strip(first), end_date: '2026-04-30' }),
      200,
    ).json<Lease>();
    const second = expectStatus(
      await lease({ tenant_id: peter, start_date: '2026-05-01' }),
      201,
    ).json<Lease>();
    // moving the first lease's end into the second's dates is refused
    const moved = await staff.put(`/occupancy/${first.id}`, { ...strip(ended), end_date: '2026-05-31' });
    expect(moved.statusCode).toBe(409);
    expect(moved.json<{ error: string }>().error).toBe(
      'Unit Kololo A1 is let to Peter Okello from May 1, 2026, with no end date.',
    );
    // terminated, the second lease leaves the unit free
    expectStatus(
      await staff.put(`/occupancy/${second.id}`, { ...strip(second), occupancy_status: 'terminated' }),
      200,
    );
    expectStatus(await staff.put(`/occupancy/${first.id}`, { ...strip(ended), end_date: '2026-05-31' }), 200);
  });

  it('lets one of two leases of the same unit sent at the same time', async () => {
    const answers = await Promise.all(
      [grace, peter, grace, peter].map((tenant) => lease({ tenant_id: tenant, start_date: '2026-01-01' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const rows = await t.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM occupancy WHERE unit_id = $1',
      [unitId],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("offers the lease form's units with their rates, vacant ones first, the others with their tenant", async () => {
    expectStatus(await lease({ start_date: '2020-01-01', end_date: '2099-12-31' }), 201);
    const choices = expectStatus(await staff.get('/occupancy/unit-choices'), 200).json<
      {
        id: number;
        name: string;
        monthly_rate: number;
        weekly_rate: number;
        tenant_name: string | null;
        let_until: string | null;
      }[]
    >();
    expect(choices.map((c) => [c.name, c.tenant_name, c.let_until])).toEqual([
      ['Kololo A2', null, null],
      ['Kololo A1', 'Grace Namuli', '2099-12-31'],
    ]);
    expect(choices[0]).toMatchObject({ id: otherUnitId, monthly_rate: 1_500_000, weekly_rate: 375_000 });
    const found = expectStatus(await staff.get('/occupancy/unit-choices?q=a1'), 200).json<{ id: number }[]>();
    expect(found.map((c) => c.id)).toEqual([unitId]);
  });

  // two connections: PostgreSQL only (PGlite has one)
  it.runIf(testDriver === 'pg')(
    'checks a lease after the writer holding its unit commits (the unit lock)',
    async () => {
      const companyId = Number(
        (
          await t.database.query<{ id: number }>('SELECT company_id AS id FROM units WHERE id = $1', [unitId])
        )[0]?.id,
      );
      let second: Promise<{ statusCode: number }> | undefined;
      await t.database.db.transaction(async (tx) => {
        await lockUnits(tx, [unitId]);
        // another writer asks for the same unit while this one holds it, and waits
        second = lease({ tenant_id: peter, start_date: '2026-03-01' });
        await sleep(400);
        await execRows(
          tx,
          sql`INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate)
              VALUES (${companyId}, ${grace}, ${unitId}, '2026-01-01', 1500000)`,
        );
      });
      // it saw the lease committed while it waited
      expect((await second)?.statusCode).toBe(409);
    },
  );
});

/** A record as its form sends it back: the read-only fields left out, the version read kept. */
const strip = (r: Lease): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...r };
  for (const k of [
    'id',
    'company_id',
    'tenant_name',
    'tenant_first_name',
    'tenant_last_name',
    'unit_name',
    'has_lease_doc',
    'back_rent',
    'created_at',
    'updated_at',
    'property_id',
    'lease_doc_name',
  ])
    delete out[k];
  return out;
};
