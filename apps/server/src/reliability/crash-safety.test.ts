import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testDriver } from '../test/harness.ts';
import { databaseUrl, dropPostgresDatabase, freshPostgresDatabase } from '../db/databases.ts';
import { HttpClient, startServerProcess, type ServerProcess } from '../test/processes.ts';

const base = process.env.TEST_DATABASE_URL;
const onPostgres = testDriver === 'pg' && !!base;

/** Payments sent at once, and how many acknowledgements the server gives before it is killed. */
const BURST = 200;
const KILL_AFTER = 60;
const ADMIN = { email: 'crash@kodi.test', password: 'crash-test-password-1' };
const CAPTCHA = 'crash1';
/** A first start creates and migrates the database: give a busy machine time. */
const START_TIMEOUT = 150_000;

type Row = Record<string, unknown>;
type Pair = { tenant_id: number; unit_id: number; occupancy_id: number };
/** What the database says after the restart (read straight from it, not through the API). */
type Stored = {
  payments: {
    id: number;
    payment_serial: string | null;
    receipt_number: string | null;
    status: string;
    ok: boolean;
  }[];
  counters: Record<string, number>;
};

const env = (where: Record<string, string>) => ({
  ...where,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  CAPTCHA_TEST_ANSWER: CAPTCHA,
  DEMO_DATA: '0',
  RATE_LIMITS: '0',
});

const signIn = async (url: string): Promise<HttpClient> => {
  const c = new HttpClient();
  await c.call(url, 'GET', '/auth/status');
  await c.call(url, 'GET', '/captcha');
  const res = await c.call(url, 'POST', '/auth/login', { ...ADMIN, captcha_answer: CAPTCHA });
  expect(res.status).toBe(200);
  return c;
};

const post = async (c: HttpClient, url: string, p: string, body: Row): Promise<Row> => {
  const res = await c.call(url, 'POST', p, body);
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
};

/** Two tenants, two units and a lease for each pair, through the API. */
const seed = async (c: HttpClient, url: string): Promise<Pair[]> => {
  const pairs: Pair[] = [];
  for (const i of [1, 2]) {
    const unit = await post(c, url, '/units', {
      name: `Crash unit ${i}`,
      address: 'Plot 1',
      unit_type: 'house',
      status: 'occupied',
      monthly_rate: 100,
      weekly_rate: 30,
      daily_rate: 5,
    });
    const tenant = await post(c, url, '/tenants', {
      first_name: 'Crash',
      last_name: `Tenant ${i}`,
      sex: 'F',
      phone: '+256772123456',
      date_of_birth: '1990-01-01',
    });
    const occ = await post(c, url, '/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2025-01-01',
      rate: 100,
    });
    pairs.push({ tenant_id: Number(tenant.id), unit_id: Number(unit.id), occupancy_id: Number(occ.id) });
  }
  return pairs;
};

const alive = (s: ServerProcess | undefined) =>
  !!s && s.child.exitCode === null && s.child.signalCode === null;

const serial = (prefix: string, n: number) => `${prefix}-${String(n).padStart(6, '0')}`;

/**
 * Seeds, fires the burst, SIGKILLs the server after KILL_AFTER acknowledgements, restarts it on the same
 * storage and checks every acknowledged payment and every stored row. `inspect` reads the database itself.
 */
const crashAndRecover = async (
  label: string,
  processEnv: Record<string, string>,
  inspect: ((companyId: number) => Promise<Stored>) | undefined,
  servers: ServerProcess[],
) => {
  const started = Date.now();
  const first = await startServerProcess(processEnv, { startTimeoutMs: START_TIMEOUT });
  servers.push(first);
  const c = await signIn(first.url);
  const companyId = Number(((await c.call(first.url, 'GET', '/auth/status')).json.user as Row).company_id);
  const pairs = await seed(c, first.url);

  const acknowledged: Row[] = [];
  const refused: string[] = [];
  let lost = 0;
  let killedAt = 0;
  const burstStart = Date.now();
  await Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const pair = pairs[i % 2] as Pair;
      try {
        const res = await c.call(first.url, 'POST', '/payments', {
          tenant_id: pair.tenant_id,
          unit_id: pair.unit_id,
          payment_date: '2026-01-05',
          amount_paid: 100 + i,
          status: 'completed',
          payment_method: 'cash',
          effective_start_date: '2026-01-01',
          effective_end_date: '2026-01-31',
        });
        if (res.status === 201) {
          acknowledged.push(res.json);
          if (acknowledged.length === KILL_AFTER) {
            killedAt = Date.now() - burstStart;
            first.child.kill('SIGKILL');
          }
        } else refused.push(`${res.status} ${JSON.stringify(res.json)}`);
      } catch {
        lost++; // the connection died with the server
      }
    }),
  );
  if (first.child.exitCode === null && first.child.signalCode === null) await once(first.child, 'exit');
  expect(refused).toEqual([]);
  expect(first.child.signalCode).toBe('SIGKILL');
  expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(lost, 'the kill came in the middle of the burst').toBeGreaterThan(0);

  const restartStart = Date.now();
  const second = await startServerProcess(processEnv, { startTimeoutMs: START_TIMEOUT });
  servers.push(second);
  const restartMs = Date.now() - restartStart;
  const c2 = await signIn(second.url);
  const list = await c2.call(second.url, 'GET', '/payments?page_size=500');
  expect(list.status).toBe(200);
  const rows = list.json as unknown as Row[];
  const byId = new Map(rows.map((r) => [Number(r.id), r]));

  // every acknowledged payment is there, with the serial and receipt number it was acknowledged with
  for (const a of acknowledged) {
    const r = byId.get(Number(a.id));
    expect(r, `acknowledged payment ${String(a.id)}`).toBeDefined();
    expect(r?.payment_serial).toBe(a.payment_serial);
    expect(r?.receipt_number).toBe(a.receipt_number);
  }
  // no half-written row: a serial, a lease of the same tenant and unit, a receipt number when completed
  const leases = new Map(pairs.map((p) => [p.occupancy_id, p]));
  for (const r of rows) {
    expect(r.payment_serial).toMatch(/^PAY-\d{6}$/);
    const lease = leases.get(Number(r.occupancy_id));
    expect(lease, `payment ${String(r.id)} has a lease`).toBeDefined();
    expect([r.tenant_id, r.unit_id]).toEqual([lease?.tenant_id, lease?.unit_id]);
    expect(r.status).toBe('completed');
    expect(r.receipt_number).toMatch(/^RCT-\d{6}$/);
  }
  // gapless from 1, no duplicates, on both sequences
  const n = rows.length;
  const expected = (prefix: string) => Array.from({ length: n }, (_, i) => serial(prefix, i + 1));
  expect(rows.map((r) => String(r.payment_serial)).sort()).toEqual(expected('PAY'));
  expect(rows.map((r) => String(r.receipt_number)).sort()).toEqual(expected('RCT'));

  // the next payment continues both sequences
  const next = await c2.call(second.url, 'POST', '/payments', {
    tenant_id: pairs[0]?.tenant_id,
    unit_id: pairs[0]?.unit_id,
    payment_date: '2026-01-06',
    amount_paid: 1,
    effective_start_date: '2026-01-01',
    effective_end_date: '2026-01-31',
  });
  expect(next.status).toBe(201);
  expect(next.json).toMatchObject({
    payment_serial: serial('PAY', n + 1),
    receipt_number: serial('RCT', n + 1),
  });

  // the database itself: every row whole, and the counters equal the highest number given
  if (inspect) {
    const stored = await inspect(companyId);
    expect(stored.payments).toHaveLength(n + 1);
    expect(stored.payments.filter((p) => !p.ok)).toEqual([]);
    expect(stored.counters).toEqual({ payment_serial: n + 1, receipt_number: n + 1 });
  }

  console.info(
    `[reliability] crash safety (${label}): ${BURST} payments sent at once, SIGKILL after ${KILL_AFTER} ` +
      `acknowledged (${killedAt} ms into the burst); ${acknowledged.length} acknowledged, ${lost} cut off, ` +
      `${n} stored and checked (${n - acknowledged.length} committed but never acknowledged); ` +
      `restart ${restartMs} ms; whole scenario ${Date.now() - started} ms`,
  );
};

/** The payments and counters of a company, with a check that each payment's lease is its tenant's and unit's. */
const STORED_SQL = {
  payments: `SELECT p.id, p.payment_serial, p.receipt_number, p.status,
                    (p.payment_serial IS NOT NULL AND (p.status <> 'completed' OR p.receipt_number IS NOT NULL)
                     AND o.id IS NOT NULL) AS ok
               FROM payments p
               LEFT JOIN occupancy o ON o.company_id = p.company_id AND o.id = p.occupancy_id
                                    AND o.tenant_id = p.tenant_id AND o.unit_id = p.unit_id
              WHERE p.company_id = $1 ORDER BY p.id`,
  counters: 'SELECT name, value FROM counters WHERE company_id = $1',
};

const toStored = (payments: Row[], counters: Row[]): Stored => ({
  payments: payments.map((p) => ({
    id: Number(p.id),
    payment_serial: p.payment_serial as string | null,
    receipt_number: p.receipt_number as string | null,
    status: String(p.status),
    ok: p.ok === true,
  })),
  counters: Object.fromEntries(counters.map((c) => [String(c.name), Number(c.value)])),
});

describe.skipIf(!onPostgres)('crash safety: SIGKILL in a burst of payments, on PostgreSQL', () => {
  const servers: ServerProcess[] = [];
  const dbName = `kodi_crash_${process.pid}`;
  const dbUrl = databaseUrl(base ?? 'postgres://localhost/x', dbName);

  afterAll(async () => {
    await Promise.all(servers.filter(alive).map((s) => s.stop()));
    await dropPostgresDatabase(base as string, dbName);
  });

  it('keeps every acknowledged payment, no half-written row, gapless numbers', async () => {
    await freshPostgresDatabase(base as string, dbName);
    await crashAndRecover(
      'PostgreSQL',
      env({ DATABASE_URL: dbUrl }),
      async (companyId) => {
        const client = new pg.Client({ connectionString: dbUrl });
        await client.connect();
        try {
          const payments = (await client.query(STORED_SQL.payments, [companyId])).rows as Row[];
          const counters = (await client.query(STORED_SQL.counters, [companyId])).rows as Row[];
          return toStored(payments, counters);
        } finally {
          await client.end();
        }
      },
      servers,
    );
  }, 400_000);
});

describe.skipIf(testDriver === 'pg')(
  'crash safety: SIGKILL in a burst of payments, on an embedded data directory',
  () => {
    const servers: ServerProcess[] = [];
    let dataDir: string | undefined;

    afterAll(async () => {
      await Promise.all(servers.filter(alive).map((s) => s.stop()));
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('keeps every acknowledged payment, no half-written row, gapless numbers', async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-crash-'));
      await crashAndRecover(
        'PGlite data directory',
        env({ DATA_DIR: dataDir }),
        // PGlite belongs to the server process: the API's view, and the next numbers given, are the proof here
        undefined,
        servers,
      );
    }, 400_000);
  },
);
