import { once } from 'node:events';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testDriver } from '../test/harness.ts';
import { dropPostgresDatabase, freshPostgresDatabase } from '../db/databases.ts';
import { HttpClient, startServerProcess, type ServerProcess } from '../test/processes.ts';
import { validTenant, validUnit } from '../test/entities.ts';
import { csv, multipartBody } from '../features/imports/import-test-kit.ts';

const base = process.env.TEST_DATABASE_URL;
const onPostgres = testDriver === 'pg' && !!base;

const ADMIN = { email: 'crash-work@kodi.test', password: 'crash-work-password-1' };
const CAPTCHA = 'crash2';
const START_TIMEOUT = 150_000;
/** Rows of the imported file (the commit saves them 1,000 at a time, in one transaction). */
const IMPORT_ROWS = 5000;
/** Leases the daily run posts late fees on. */
const LEASES = 40;

type Row = Record<string, unknown>;

const alive = (s: ServerProcess | undefined) =>
  !!s && s.child.exitCode === null && s.child.signalCode === null;

/**
 * SIGKILL during the work that saves many rows at once (issue 20): an import's commit and the daily run,
 * on PostgreSQL (the database outlives the server process; on the embedded database the payments'
 * crash test covers the storage itself). After each kill the server restarts on the same database:
 * nothing acknowledged is lost, the import is either wholly saved or not at all and its commit can be
 * made again once, and the run made again posts no fee and queues no message twice.
 */
describe.skipIf(!onPostgres)('crash safety: SIGKILL during an import commit and during the daily run', () => {
  const servers: ServerProcess[] = [];
  const dbName = `kodi_crash_work_${process.pid}`;
  let dbUrl = '';
  let db: pg.Client | undefined;

  afterAll(async () => {
    await db?.end();
    await Promise.all(servers.filter(alive).map((s) => s.stop()));
    await dropPostgresDatabase(base as string, dbName);
  });

  const start = async () => {
    const s = await startServerProcess(
      {
        DATABASE_URL: dbUrl,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        CAPTCHA_TEST_ANSWER: CAPTCHA,
        DEMO_DATA: '0',
        RATE_LIMITS: '0',
        RENT_CYCLE_SCHEDULER: '0',
        MESSAGES_SENDER: '0',
      },
      { startTimeoutMs: START_TIMEOUT },
    );
    servers.push(s);
    const c = new HttpClient();
    await c.call(s.url, 'GET', '/auth/status');
    await c.call(s.url, 'GET', '/captcha');
    const res = await c.call(s.url, 'POST', '/auth/login', { ...ADMIN, captcha_answer: CAPTCHA });
    expect(res.status).toBe(200);
    const call = async (method: string, p: string, body?: unknown): Promise<Row> => {
      const r = await c.call(s.url, method, p, body);
      if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json;
    };
    return { s, c, call };
  };
  const killed = async (s: ServerProcess) => {
    if (alive(s)) {
      s.child.kill('SIGKILL');
      await once(s.child, 'exit');
    }
    expect(s.child.signalCode).toBe('SIGKILL');
  };
  const one = async (q: string, params: unknown[] = []) => (await db!.query(q, params)).rows[0] as Row;

  it('loses nothing acknowledged and posts nothing twice', async () => {
    const started = Date.now();
    dbUrl = await freshPostgresDatabase(base as string, dbName);
    let server = await start();
    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const companyId = Number(((await server.call('GET', '/auth/status')).user as Row).company_id);
    const tenantsOf = async () =>
      Number((await one('SELECT count(*) AS n FROM tenants WHERE company_id = $1', [companyId])).n);

    // ---------------------------------------------------------------- 1. the import's commit
    const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => [
      'Imported',
      `Tenant ${i + 1}`,
      'F',
      '+256772123456',
      `imported${i + 1}@example.com`,
      '1990-04-12',
    ]);
    const file = multipartBody(
      { entity: 'tenants' },
      {
        name: 'tenants.csv',
        content: csv([['first_name', 'last_name', 'sex', 'phone', 'email', 'date_of_birth'], ...rows]),
      },
    );
    const previewed = await fetch(`${server.s.url}/rentapi/api/imports`, {
      method: 'POST',
      headers: { cookie: server.c.cookie, 'x-csrf-token': server.c.csrf, 'content-type': file.contentType },
      body: file.body,
    });
    const preview = (await previewed.json()) as Row;
    expect(previewed.status, JSON.stringify(preview)).toBe(201);
    const importId = Number(preview.id);
    expect(Number(preview.valid_rows), JSON.stringify(preview).slice(0, 600)).toBe(IMPORT_ROWS);
    const before = await tenantsOf();

    // the commit with its progress: killed once the first 1,000 rows are written, before its answer
    const commit = await fetch(`${server.s.url}/rentapi/api/imports/${importId}/commit`, {
      method: 'POST',
      headers: {
        cookie: server.c.cookie,
        'x-csrf-token': server.c.csrf,
        accept: 'application/x-ndjson',
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(commit.status).toBe(200);
    const reader = commit.body!.getReader();
    let text = '';
    let killedAtProgress = -1;
    let finalLine: Row | undefined;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
        const lines = text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Row);
        const last = lines[lines.length - 1];
        if (last && 'status' in last) finalLine = last;
        const progress = lines.find((l) => Number(l.processed) > 0 && Number(l.processed) < IMPORT_ROWS);
        if (progress && killedAtProgress < 0) {
          killedAtProgress = Number(progress.processed);
          await killed(server.s);
        }
      }
    } catch {
      // the connection died with the server
    }
    if (killedAtProgress < 0) await killed(server.s);
    // the kill came in the middle of the commit: no answer was given
    expect(finalLine, 'no answer before the kill').toBeUndefined();

    server = await start();
    // not acknowledged, and one transaction: nothing of it is saved, the import still waits for its commit
    expect(await tenantsOf()).toBe(before);
    expect((await server.call('GET', `/imports/${importId}`)).status).toBe('previewed');
    const again = await server.call('POST', `/imports/${importId}/commit`, {});
    expect(again).toMatchObject({ status: 'committed', created: IMPORT_ROWS });
    expect(await tenantsOf()).toBe(before + IMPORT_ROWS);
    // once: a second commit is refused and saves nothing more
    const twice = await server.c.call(server.s.url, 'POST', `/imports/${importId}/commit`, {});
    expect(twice.status).toBe(409);
    expect(await tenantsOf()).toBe(before + IMPORT_ROWS);
    // the acknowledged commit outlives a kill right after its answer
    await killed(server.s);
    server = await start();
    expect(await tenantsOf()).toBe(before + IMPORT_ROWS);
    expect((await server.call('GET', `/imports/${importId}`)).status).toBe('committed');

    // ---------------------------------------------------------------- 2. the daily run
    await server.call('PUT', '/company-settings', {
      timezone: 'UTC',
      late_fee: { enabled: true, grace_days: 0, kind: 'flat', amount: 25_000, repeat: 'once', cap: null },
      reminders: [{ event: 'overdue', days: 1, channels: ['email', 'sms'] }],
      version: Number((await server.call('GET', '/company-settings')).version),
    });
    const leases: number[] = [];
    for (let i = 0; i < LEASES; i++) {
      const unit = await server.call('POST', '/units', validUnit({ name: `Run unit ${i}` }));
      const tenant = await server.call('POST', '/tenants', validTenant({ last_name: `Runner ${i}` }));
      const lease = await server.call('POST', '/occupancy', {
        tenant_id: tenant.id,
        unit_id: unit.id,
        start_date: '2026-01-01',
        rate: 500_000,
        rent_cycle: 'monthly',
      });
      leases.push(Number(lease.id));
    }
    const fees = async () =>
      Number(
        (
          await one(`SELECT count(*) AS n FROM charges WHERE company_id = $1 AND kind = 'late_fee'`, [
            companyId,
          ])
        ).n,
      );
    // a first run processes its day alone; later ones every day since the last
    await server.call('POST', '/rent-cycle/run', { as_of: '2026-01-01' });
    // an acknowledged run (January 2 to February 10): its fees must outlive the kill
    const t0 = Date.now();
    const first = await server.call('POST', '/rent-cycle/run', { as_of: '2026-02-10' });
    const runMs = Date.now() - t0;
    expect(Number(first.late_fees_posted)).toBeGreaterThanOrEqual(LEASES);
    const acknowledgedFees = await fees();
    expect(acknowledgedFees).toBe(Number(first.late_fees_posted));

    // the next month's run, killed while it works
    const cut = server.c.call(server.s.url, 'POST', '/rent-cycle/run', { as_of: '2026-03-10' }).then(
      (r) => r,
      () => 'cut off' as const,
    );
    const killAfter = Math.max(10, Math.round(runMs / 4));
    await new Promise((r) => setTimeout(r, killAfter));
    await killed(server.s);
    const answer = await cut;

    server = await start();
    // what was acknowledged is there: the first run's fees, and the killed run's if it answered in time
    const answered = answer === 'cut off' ? 0 : Number(answer.json.late_fees_posted);
    if (answer !== 'cut off') expect(answer.status).toBe(200);
    expect(await fees()).toBeGreaterThanOrEqual(acknowledgedFees + answered);
    // made again: the month's fees once, then nothing more
    const rerun = await server.call('POST', '/rent-cycle/run', { as_of: '2026-03-10' });
    const third = await server.call('POST', '/rent-cycle/run', { as_of: '2026-03-10' });
    expect(Number(third.late_fees_posted)).toBe(0);
    expect(Number(third.reminders_queued)).toBe(0);
    const perLease = (
      await db.query(
        `SELECT occupancy_id, count(*) AS n, count(DISTINCT rent_due_date) AS due FROM charges
          WHERE company_id = $1 AND kind = 'late_fee' GROUP BY occupancy_id ORDER BY occupancy_id`,
        [companyId],
      )
    ).rows as Row[];
    // every lease: one fee per rent due date, the same number for each (February's and March's)
    expect(perLease.map((r) => Number(r.occupancy_id))).toEqual(leases);
    for (const r of perLease) expect(Number(r.n)).toBe(Number(r.due));
    expect(new Set(perLease.map((r) => Number(r.n))).size).toBe(1);
    const dupMessages = (
      await db.query(
        `SELECT dedup_key FROM messages WHERE company_id = $1 AND dedup_key IS NOT NULL
          GROUP BY dedup_key HAVING count(*) > 1`,
        [companyId],
      )
    ).rows;
    expect(dupMessages).toEqual([]);
    const reminders = Number(
      (
        await one(`SELECT count(*) AS n FROM messages WHERE company_id = $1 AND dedup_key IS NOT NULL`, [
          companyId,
        ])
      ).n,
    );
    const runs = Number(
      (await one('SELECT count(*) AS n FROM rent_cycle_runs WHERE company_id = $1', [companyId])).n,
    );

    console.info(
      `[reliability] crash safety (new work, PostgreSQL): import of ${IMPORT_ROWS} rows killed after ${killedAtProgress} ` +
        `written, none kept, committed again once (${IMPORT_ROWS}), a further commit 409, kept through a kill after its answer; daily run of ${LEASES} leases ` +
        `killed ${killAfter} ms in (answer: ${answer === 'cut off' ? answer : answer.status}), ${acknowledgedFees} acknowledged fees kept, ` +
        `the run made again posted ${String(rerun.late_fees_posted)} then 0; ${perLease[0]?.n} fee(s) a lease, ` +
        `${reminders} reminders, no duplicate; ${runs} runs; 3 kills survived; ${Date.now() - started} ms`,
    );
  }, 400_000);
});
