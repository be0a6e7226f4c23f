import PgBoss from 'pg-boss';
import type { Database } from './client.ts';
import { advisoryLocks } from './advisory-locks.ts';

type JobQueueOptions = {
  /** the queue's name */
  name: string;
  /** seconds before a failed job's first retry (five retries, with back-off) */
  retryDelay: number;
  /** seconds a job may run before it is given up and retried */
  expireInSeconds: number;
  /** what the queue's errors are logged as */
  label: string;
  log: (message: string, err?: unknown) => void;
};

/**
 * The durable job queue (pg-boss, schema `pgboss`, in the app's own database, through its own
 * connection pool) with the queue `name` made. pg-boss's own cron is not used: each server's tick
 * decides what is due. pg-boss installs its schema on the first start; two servers starting together
 * on a new database would both try (one fails on the schema's name): they take turns under an
 * advisory lock.
 */
export const startJobQueue = async (
  database: Database,
  { name, retryDelay, expireInSeconds, label, log }: JobQueueOptions,
): Promise<PgBoss> => {
  const boss = new PgBoss({
    db: {
      executeSql: async (text, values) => (await database.sql(text, values)) as { rows: unknown[] },
    },
    schema: 'pgboss',
    schedule: false,
    supervise: true,
    migrate: true,
  });
  boss.on('error', (err) => log(`${label}: job queue error`, err));
  await database.exclusive(advisoryLocks.jobQueueInstall, async () => {
    await boss.start();
    await boss.createQueue(name, {
      name,
      policy: 'short',
      retryLimit: 5,
      retryDelay,
      retryBackoff: true,
      expireInSeconds,
    });
  });
  return boss;
};
