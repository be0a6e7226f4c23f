import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { ledgerOf, runCycle, setSettings } from '../../test/rent-cycle.ts';
import { portalTenant } from '../../test/portal.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { dropPostgresDatabase, freshPostgresDatabase } from '../../db/databases.ts';
import { HttpClient, startServerProcess, type ServerProcess } from '../../test/processes.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import {
  utilityTestCompany,
  type LetUnit,
  type Row,
  type UtilityTestCompany,
} from './utility-test-company.ts';

type Charge = { id: number; date: string; amount: number; description: string; category: string };

/**
 * Issue 28: the recurring service charge per unit per month, a company or property setting the
 * daily run posts (docs/decisions.md, 'The monthly service charge').
 */
describe(`the monthly service charge (${testDriver})`, () => {
  let t: TestContext;
  let a: UtilityTestCompany;
  let b: UtilityTestCompany;
  let admin: TestClient;
  const lets: Record<string, LetUnit> = {};
  const properties: Record<string, number> = {};

  const chargesOf = async (name: string, c = admin): Promise<Charge[]> => {
    const res = await c.get(`/occupancy/${String(lets[name]?.lease)}/charges`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Charge[]>().sort((x, y) => x.date.localeCompare(y.date) || x.id - y.id);
  };
  const shown = (charges: Charge[]) => charges.map((c) => [c.date, c.amount, c.description]);

  beforeAll(async () => {
    t = await setupApp();
    a = await utilityTestCompany(t);
    b = await utilityTestCompany(t, 'B Agency');
    admin = a.admin;
    const inherits = await a.property('Acacia Court');
    const own = Number(
      (await a.make('/properties', { name: 'Baobab House', address: '2 Baobab road', service_charge: 2000 }))
        .id,
    );
    const none = Number(
      (await a.make('/properties', { name: 'Cedar Flats', address: '3 Cedar road', service_charge: 0 })).id,
    );
    const owned = await a.ownedProperty('Owned Court', '2026-01-01');
    Object.assign(properties, { inherits, own, none });
    // S1 let all year; S2 from 11 November (20 of 30 days); S3 until 15 November (15 days)
    lets.S1 = await a.letUnit(inherits, 'S1', '2026-01-01');
    lets.S2 = await a.letUnit(inherits, 'S2', '2026-11-11');
    lets.S3 = await a.letUnit(inherits, 'S3', '2026-06-01', { lease: { end_date: '2026-11-15' } });
    lets.S4 = await a.letUnit(own, 'S4', '2026-01-01');
    lets.S5 = await a.letUnit(none, 'S5', '2026-01-01');
    lets.S6 = await a.letUnit(owned, 'S6', '2026-01-01');
    lets.S7 = await a.letUnit(inherits, 'S7', null);
    lets.B1 = await b.letUnit(await b.property('Other Court'), 'B1', '2026-01-01');
  }, 180_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it('is a company setting only its admins change, and another company’s stays as it was', async () => {
    const before = (await admin.get('/company-settings')).json<Row>();
    expect(before).toMatchObject({ service_charge_amount: 0, service_charge_description: 'Service charge' });
    for (const role of ['viewer', 'editor'] as const) {
      const c = await a.as(role);
      const res = await c.put('/company-settings', { service_charge_amount: 1500, version: before.version });
      expect(res.statusCode, role).toBe(403);
    }
    const bad = await admin.put('/company-settings', { service_charge_amount: -1, version: before.version });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fields: Row }>().fields).toHaveProperty('service_charge_amount');
    const saved = (
      await setSettings(admin, { service_charge_amount: 1500, service_charge_description: '' })
    ).json<Row>();
    expect(saved).toMatchObject({
      service_charge_amount: 1500,
      service_charge_description: 'Service charge',
    });
    // the other company's settings are untouched
    expect((await b.admin.get('/company-settings')).json<Row>()).toMatchObject({ service_charge_amount: 0 });
    // a property's own amount: null (the company's), 0 (none) or an amount, never negative
    const amounts: Row = {};
    for (const [name, id] of Object.entries(properties))
      amounts[name] = (await admin.get(`/properties/${String(id)}`)).json<Row>().service_charge;
    expect(amounts).toEqual({ inherits: null, own: 2000, none: 0 });
    const negative = await admin.post('/properties', { name: 'X', address: 'Y', service_charge: -5 });
    expect(negative.statusCode).toBe(400);
  });

  it('posts each lease let its charge on the billing day, once, whatever runs twice', async () => {
    await runCycle(admin, '2026-11-01');
    expect(shown(await chargesOf('S1'))).toEqual([['2026-11-01', 1500, 'Service charge November 2026']]);
    // the property's own amount, and none
    expect(shown(await chargesOf('S4'))).toEqual([['2026-11-01', 2000, 'Service charge November 2026']]);
    expect(await chargesOf('S5')).toEqual([]);
    // ending on 15 November: 15 of 30 days
    expect(shown(await chargesOf('S3'))).toEqual([
      ['2026-11-01', 750, 'Service charge November 2026 (15 of 30 days)'],
    ]);
    // not started yet: nothing
    expect(await chargesOf('S2')).toEqual([]);
    // the same day again: nothing more
    await runCycle(admin, '2026-11-01');
    expect(await chargesOf('S1')).toHaveLength(1);
    // starting on 11 November: charged on the first run after, for its 20 of 30 days, dated its start
    await runCycle(admin, '2026-11-12');
    expect(shown(await chargesOf('S2'))).toEqual([
      ['2026-11-11', 1000, 'Service charge November 2026 (20 of 30 days)'],
    ]);
    expect(await chargesOf('S1')).toHaveLength(1);
    // December: every lease still let; the ended lease no more
    await runCycle(admin, '2026-12-01');
    expect(shown(await chargesOf('S1')).map((c) => c[2])).toEqual([
      'Service charge November 2026',
      'Service charge December 2026',
    ]);
    expect(shown(await chargesOf('S2'))[1]).toEqual(['2026-12-01', 1500, 'Service charge December 2026']);
    expect(await chargesOf('S3')).toHaveLength(1);
    await runCycle(admin, '2026-12-01');
    const [{ n, months } = { n: 0, months: 0 }] = await t.database.query<{ n: number; months: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (occupancy_id, service_month))::int AS months
         FROM charges WHERE company_id = $1 AND service_month IS NOT NULL`,
      [a.companyId],
    );
    // November: S1, S2, S3, S4, S6; December: S1, S2, S4, S6
    expect({ n, months }).toEqual({ n: 9, months: 9 });
    // the other company: nothing
    await runCycle(b.admin, '2026-12-01');
    expect(await chargesOf('B1', b.admin)).toEqual([]);
  });

  it('follows the company’s meter billing day when it has one', async () => {
    await setSettings(admin, { utility_billing_day: 5 });
    await runCycle(admin, '2027-01-04');
    expect(await chargesOf('S1')).toHaveLength(2);
    await runCycle(admin, '2027-01-05');
    expect(shown(await chargesOf('S1'))[2]).toEqual(['2027-01-05', 1500, 'Service charge January 2027']);
  });

  it('posts to the company’s income, or an owned property’s to its owners; each entry balanced', async () => {
    const [own] = await chargesOf('S1');
    expect(own?.category).toBe('utility');
    expect(await a.chargeLines(own?.id ?? 0)).toEqual([
      { role: 'receivable', debit: '1500.00', credit: '0.00' },
      { role: 'charge_income:utility', debit: '0.00', credit: '1500.00' },
    ]);
    const [owned] = await chargesOf('S6');
    expect(await a.chargeLines(owned?.id ?? 0)).toEqual([
      { role: 'receivable', debit: '1500.00', credit: '0.00' },
      { role: 'owner_rent_due', debit: '0.00', credit: '1500.00' },
    ]);
    const entries = await t.database.query<{ entries: number; charges: number; unbalanced: number }>(
      `SELECT (SELECT count(*)::int FROM journal_entries e JOIN charges c ON c.company_id = e.company_id
                 AND c.id = e.source_id WHERE e.company_id = $1 AND e.source = 'charge'
                 AND c.service_month IS NOT NULL) AS entries,
              (SELECT count(*)::int FROM charges WHERE company_id = $1 AND service_month IS NOT NULL) AS charges,
              (SELECT count(*)::int FROM (SELECT l.entry_id FROM journal_lines l WHERE l.company_id = $1
                 GROUP BY l.entry_id HAVING sum(l.debit) <> sum(l.credit)) x) AS unbalanced`,
      [a.companyId],
    );
    expect(entries[0]?.entries).toBe(entries[0]?.charges);
    expect(entries[0]?.charges).toBeGreaterThan(0);
    expect(entries[0]?.unbalanced).toBe(0);
  });

  it('shows on the lease’s ledger, in the tenant portal and on the statement like any charge', async () => {
    const lease = Number(lets.S1?.lease);
    const staff = await ledgerOf(admin, lease, '2026-12-31');
    expect(staff.entries.filter((e) => e.category === 'utility').map((e) => [e.date, e.amount])).toEqual([
      ['2026-11-01', 1500],
      ['2026-12-01', 1500],
    ]);
    const tenant = await portalTenant(t, admin, Number(lets.S1?.tenant));
    const portal = (await tenant.get(`/portal/leases/${String(lease)}/ledger`)).json<{
      entries: { category: string | null; amount: number; description: string }[];
    }>();
    const november = portal.entries.find((e) => e.description.includes('Service charge November 2026'));
    expect(november).toMatchObject({ category: 'utility', amount: 1500 });
    const pdf = await tenant.get(`/portal/leases/${String(lease)}/statement.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain('Service charge November 2026');
  });
});

const base = process.env.TEST_DATABASE_URL;
const onPostgres = testDriver === 'pg' && !!base;
const CAPTCHA = 'svc3';
const email = 'service@servers.test';
const password = 'two-servers-password';

/** Two real server processes on one PostgreSQL database asked to run the same day at once. */
describe.skipIf(!onPostgres)(
  'the service charge with two servers on one database',
  { timeout: 240_000 },
  () => {
    const dbName = `kodi_two_service_${process.pid}`;
    const servers: ServerProcess[] = [];
    const c = new HttpClient();
    let db: pg.Client;
    let leaseId = 0;

    const call = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
      const res = await c.call(server.url, method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
      return res.json as Row;
    };

    beforeAll(async () => {
      const url = await freshPostgresDatabase(base as string, dbName);
      const env = {
        DATABASE_URL: url,
        CAPTCHA_TEST_ANSWER: CAPTCHA,
        ADMIN_EMAIL: email,
        ADMIN_PASSWORD: password,
        DEMO_DATA: '0',
        RATE_LIMITS: '0',
        MESSAGES_SENDER: '0',
        RENT_CYCLE_SCHEDULER: '0',
      };
      const started = await Promise.allSettled([
        startServerProcess(env, { startTimeoutMs: 120_000 }),
        startServerProcess(env, { startTimeoutMs: 120_000 }),
      ]);
      for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
      for (const s of started) if (s.status === 'rejected') throw s.reason;
      const [first] = servers as [ServerProcess];
      await c.call(first.url, 'GET', '/auth/status');
      await c.call(first.url, 'GET', '/captcha');
      await call(first, 'POST', '/auth/login', { email, password, captcha_answer: CAPTCHA });
      await call(first, 'PUT', '/company-settings', {
        timezone: 'UTC',
        service_charge_amount: 1200,
        version: 1,
      });
      const unit = await call(first, 'POST', '/units', validUnit());
      const tenant = await call(first, 'POST', '/tenants', validTenant());
      leaseId = Number(
        (
          await call(first, 'POST', '/occupancy', {
            tenant_id: tenant.id,
            unit_id: unit.id,
            start_date: '2026-01-01',
            rate: 500_000,
            rent_cycle: 'monthly',
          })
        ).id,
      );
      db = new pg.Client({ connectionString: url });
      await db.connect();
    }, 240_000);

    afterAll(async () => {
      await db?.end();
      await Promise.all(servers.map((s) => s.stop()));
      await dropPostgresDatabase(base as string, dbName);
    });

    it('posts the month’s charge once when both servers run the same day at once', async () => {
      const [one, two] = servers as [ServerProcess, ServerProcess];
      await Promise.all([
        call(one, 'POST', '/rent-cycle/run', { as_of: '2026-11-02' }),
        call(two, 'POST', '/rent-cycle/run', { as_of: '2026-11-02' }),
      ]);
      await Promise.all([
        call(one, 'POST', '/rent-cycle/run', { as_of: '2026-11-02' }),
        call(two, 'POST', '/rent-cycle/run', { as_of: '2026-11-02' }),
      ]);
      const { rows } = await db.query<{ description: string; amount: string; entries: number }>(
        `SELECT c.description, c.amount::text AS amount,
              (SELECT count(*)::int FROM journal_entries e WHERE e.source = 'charge' AND e.source_id = c.id) AS entries
         FROM charges c WHERE c.occupancy_id = $1 AND c.service_month IS NOT NULL`,
        [leaseId],
      );
      expect(rows).toEqual([{ description: 'Service charge November 2026', amount: '1200.00', entries: 1 }]);
    });
  },
);
