import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { addDays, localTime } from '@kodi/domain';
import { testDriver } from '../../test/harness.ts';
import { dropPostgresDatabase, freshPostgresDatabase } from '../../db/databases.ts';
import { HttpClient, startServerProcess, type ServerProcess } from '../../test/processes.ts';
import { validTenant, validUnit } from '../../test/entities.ts';

const base = process.env.TEST_DATABASE_URL;
const onPostgres = testDriver === 'pg' && !!base;
const CAPTCHA = 'twin3';
const email = 'cycle@servers.test';
const password = 'two-servers-password';

/**
 * Two real server processes on one PostgreSQL database, both running the scheduler (a tick a
 * second): the company's day is run once, its fee posted once and its reminder queued once; two
 * runs asked at the same moment of the two servers post nothing twice either.
 */
describe.skipIf(!onPostgres)('the daily run with two servers on one database', { timeout: 240_000 }, () => {
  const dbName = `kodi_two_cycle_${process.pid}`;
  let url: string;
  const servers: ServerProcess[] = [];
  const c = new HttpClient();
  let db: pg.Client;
  const today = localTime('UTC').date;
  let leaseId = 0;

  const call = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
    const res = await c.call(server.url, method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };

  beforeAll(async () => {
    url = await freshPostgresDatabase(base as string, dbName);
    const env = {
      DATABASE_URL: url,
      CAPTCHA_TEST_ANSWER: CAPTCHA,
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: password,
      DEMO_DATA: '0',
      RATE_LIMITS: '0',
      // the messages stay queued here (features/messages has its own two-server test)
      MESSAGES_SENDER: '0',
    };
    // the company, its policy and a lease first, on one server without a scheduler
    const setup = await startServerProcess(
      { ...env, RENT_CYCLE_SCHEDULER: '0' },
      { startTimeoutMs: 120_000 },
    );
    try {
      await c.call(setup.url, 'GET', '/auth/status');
      await c.call(setup.url, 'GET', '/captcha');
      await call(setup, 'POST', '/auth/login', { email, password, captcha_answer: CAPTCHA });
      await call(setup, 'PUT', '/company-settings', {
        timezone: 'UTC',
        daily_run_hour: 0,
        late_fee: { enabled: true, grace_days: 0, kind: 'flat', amount: 25_000, repeat: 'weekly', cap: null },
        reminders: [{ event: 'overdue', days: 1, channels: ['email', 'sms'] }],
        version: 1,
      });
      const unit = (await call(setup, 'POST', '/units', validUnit())) as { id: number };
      const tenant = (await call(setup, 'POST', '/tenants', validTenant())) as { id: number };
      // due yesterday, unpaid: a fee and an overdue reminder today
      const lease = (await call(setup, 'POST', '/occupancy', {
        tenant_id: tenant.id,
        unit_id: unit.id,
        start_date: addDays(today, -1),
        rate: 500_000,
        rent_cycle: 'monthly',
      })) as { id: number };
      leaseId = lease.id;
    } finally {
      await setup.stop();
    }
    const started = await Promise.allSettled([
      startServerProcess({ ...env, RENT_CYCLE_TICK_SECONDS: '1' }, { startTimeoutMs: 120_000 }),
      startServerProcess({ ...env, RENT_CYCLE_TICK_SECONDS: '1' }, { startTimeoutMs: 120_000 }),
    ]);
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    db = new pg.Client({ connectionString: url });
    await db.connect();
  }, 240_000);

  afterAll(async () => {
    await db?.end();
    await Promise.all(servers.map((s) => s.stop()));
    await dropPostgresDatabase(base as string, dbName);
  });

  const rows = async <T extends Record<string, unknown>>(text: string) => (await db.query<T>(text)).rows;

  it('runs the company’s day once: one run, one fee, one message a channel', async () => {
    const deadline = Date.now() + 60_000;
    while ((await rows('SELECT 1 FROM rent_cycle_runs')).length === 0) {
      if (Date.now() > deadline) throw new Error(`no run:\n${servers.map((s) => s.output()).join('\n')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // both servers keep ticking every second
    await new Promise((r) => setTimeout(r, 5_000));
    const runs = await rows<{
      trigger: string;
      as_of: string;
      late_fees_posted: number;
      reminders_queued: number;
      runner: string;
    }>(
      `SELECT trigger, to_char(as_of, 'YYYY-MM-DD') AS as_of, late_fees_posted, reminders_queued, runner FROM rent_cycle_runs`,
    );
    expect(runs).toEqual([
      expect.objectContaining({
        trigger: 'schedule',
        as_of: today,
        late_fees_posted: 1,
        reminders_queued: 2,
      }),
    ]);
    const pids = servers.map((s) => `:${s.child.pid}`);
    expect(pids.some((p) => runs[0]?.runner.endsWith(p))).toBe(true);
    expect(await rows(`SELECT to_char(date, 'YYYY-MM-DD') AS date FROM charges`)).toEqual([{ date: today }]);
    expect(await rows(`SELECT channel, status FROM messages ORDER BY channel`)).toEqual([
      { channel: 'email', status: 'queued' },
      { channel: 'sms', status: 'queued' },
    ]);
    // the jobs: each one done, none left waiting or failed
    const jobs = await rows<{ state: string }>(`SELECT state FROM pgboss.job WHERE name = 'rent-cycle'`);
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
  });

  it('posts nothing twice when both servers are asked to run the same day at once', async () => {
    const week = addDays(today, 7);
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const answers = await Promise.all([
      call(a, 'POST', '/rent-cycle/run', { as_of: week }),
      call(b, 'POST', '/rent-cycle/run', { as_of: week }),
    ]);
    expect(answers.map((x) => x.late_fees_posted).sort()).toEqual([0, 1]);
    const fees = await rows<{ date: string }>(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date FROM charges WHERE occupancy_id = ${leaseId} ORDER BY date`,
    );
    expect(fees.map((f) => f.date)).toEqual([today, week]);
    const messages = await rows<{ n: number; d: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT dedup_key)::int AS d FROM messages',
    );
    expect(messages[0]).toEqual({ n: messages[0]?.d, d: messages[0]?.d });
  });
  it('posts each rent once when both servers run the days to come at once (issue 25)', async () => {
    const later = addDays(today, 70);
    const [a, b] = servers as [ServerProcess, ServerProcess];
    await Promise.all([
      call(a, 'POST', '/rent-cycle/run', { as_of: later }),
      call(b, 'POST', '/rent-cycle/run', { as_of: later }),
    ]);
    const rent = await rows<{ key: string; n: number }>(
      `SELECT key, count(*)::int AS n FROM journal_entries WHERE source = 'rent' AND source_id = ${leaseId}
        GROUP BY key ORDER BY key`,
    );
    // due yesterday, a month later and two months later: each once
    expect(rent.length).toBe(3);
    expect(rent.every((r) => r.n === 1)).toBe(true);
    const [balance] = await rows<{ receivable: string }>(
      `SELECT receivable::text FROM lease_balances WHERE occupancy_id = ${leaseId}`,
    );
    const [sum] = await rows<{ s: string }>(
      `SELECT sum(amount)::text AS s FROM lease_rent_posted WHERE occupancy_id = ${leaseId}`,
    );
    expect(sum?.s).toBe('1500000.00');
    // the rent and the late fees posted, nothing else
    const [fees] = await rows<{ s: string }>(
      `SELECT coalesce(sum(amount), 0)::text AS s FROM charges WHERE occupancy_id = ${leaseId}`,
    );
    expect(Number(balance?.receivable)).toBe(1_500_000 + Number(fees?.s));
  });
});
