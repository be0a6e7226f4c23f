import { DEFAULT_DAILY_RUN_HOUR, DEFAULT_TIMEZONE, isTimeZone, localTime } from '@kodi/domain';
import type { Database } from '../../db/client.ts';
import { runRentCycle } from './run.ts';
import { startJobQueue } from '../../db/job-queue.ts';

/**
 * The daily run's scheduler: a durable job queue in PostgreSQL (pg-boss, in its own schema `pgboss`,
 * on the same database and connection pool as the app: on the embedded database through the same
 * PGlite instance). Each server ticks every `tickSeconds`: it finds the companies whose local hour
 * has reached their `daily_run_hour` and whose day has no scheduled run yet, and queues one job per
 * company and day (pg-boss's `short` policy keeps one such job waiting per key, whichever server
 * queued it). Any server's worker takes a job (`FOR UPDATE SKIP LOCKED`), runs the company's cycle
 * (run.ts: a scheduled run of a day is recorded once, under the company's lock), and pg-boss retries a
 * job that failed or whose server died. A server started after downtime finds the companies due at
 * once, and their run catches up the days missed.
 */

export const RENT_CYCLE_QUEUE = 'rent-cycle';

type Job = { company_id: number; as_of: string };

export type SchedulerOptions = {
  tickSeconds: number;
  /** the clock (tests move it) */
  now?: () => Date;
  log?: (message: string, err?: unknown) => void;
  /** the server's public address (the owners' statements link to the owner portal) */
  publicUrl?: string;
};

export type RentCycleScheduler = {
  /** looks for companies due and queues their runs (the timer calls it; tests too) */
  tick: () => Promise<number>;
  stop: () => Promise<void>;
};

/** The companies whose run of their local today is due at `now`, and that day. */
export const companiesDue = async (database: Database, now: Date): Promise<Job[]> => {
  const companies = await database.query<{ id: number; timezone: string | null; hour: number | null }>(
    `SELECT c.id, s.timezone, s.daily_run_hour AS hour
       FROM companies c LEFT JOIN company_settings s ON s.company_id = c.id
      WHERE c.status ORDER BY c.id`,
  );
  const due: Job[] = [];
  for (const c of companies) {
    const tz = c.timezone && isTimeZone(c.timezone) ? c.timezone : DEFAULT_TIMEZONE;
    const local = localTime(tz, now);
    if (local.hour >= (c.hour ?? DEFAULT_DAILY_RUN_HOUR))
      due.push({ company_id: Number(c.id), as_of: local.date });
  }
  if (due.length === 0) return [];
  const done = await database.query<{ company_id: number }>(
    `SELECT r.company_id FROM rent_cycle_runs r
       JOIN unnest($1::int[], $2::date[]) AS d(company_id, as_of) ON d.company_id = r.company_id AND d.as_of = r.as_of
      WHERE r.trigger = 'schedule'`,
    [due.map((d) => d.company_id), due.map((d) => d.as_of)],
  );
  const ran = new Set(done.map((d) => Number(d.company_id)));
  return due.filter((d) => !ran.has(d.company_id));
};

export const startRentCycleScheduler = async (
  database: Database,
  { tickSeconds, now = () => new Date(), log = () => undefined, publicUrl }: SchedulerOptions,
): Promise<RentCycleScheduler> => {
  const boss = await startJobQueue(database, {
    name: RENT_CYCLE_QUEUE,
    retryDelay: 60,
    expireInSeconds: 30 * 60,
    label: 'rent cycle',
    log,
  });
  await boss.work<Job>(
    RENT_CYCLE_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, Math.min(tickSeconds, 10)) },
    async ([job]) => {
      if (!job) return;
      await runRentCycle(database, {
        companyId: job.data.company_id,
        asOf: job.data.as_of,
        trigger: 'schedule',
        ...(publicUrl === undefined ? {} : { publicUrl }),
      });
    },
  );

  let stopped = false;
  const tick = async (): Promise<number> => {
    if (stopped) return 0;
    const due = await companiesDue(database, now());
    for (const d of due) {
      await boss.send(RENT_CYCLE_QUEUE, d, { singletonKey: `${d.company_id}:${d.as_of}` });
    }
    return due.length;
  };
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = tick().catch((err: unknown) => log('rent cycle: tick failed', err));
  }, tickSeconds * 1000);
  timer.unref();
  running = tick().catch((err: unknown) => log('rent cycle: tick failed', err));

  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
    },
  };
};
