import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { testDriver } from '../../test/harness.ts';
import { dropPostgresDatabase, freshPostgresDatabase } from '../../db/databases.ts';
import { startServerProcess, type ServerProcess } from '../../test/processes.ts';
import { startSmsServer, type SmsServer } from '../../test/message-servers.ts';

const base = process.env.TEST_DATABASE_URL;
const onPostgres = testDriver === 'pg' && !!base;
const COUNT = 60;

/**
 * Two real server processes on one PostgreSQL database, both running the messages' sender (a round
 * every 100 ms) against one local SMS provider: every queued message reaches it exactly once.
 */
describe.skipIf(!onPostgres)(
  'the messages’ sender with two servers on one database',
  { timeout: 240_000 },
  () => {
    const dbName = `kodi_two_messages_${process.pid}`;
    const servers: ServerProcess[] = [];
    let sms: SmsServer;
    let db: pg.Client;

    beforeAll(async () => {
      sms = await startSmsServer('africastalking');
      const url = await freshPostgresDatabase(base as string, dbName);
      const env = {
        DATABASE_URL: url,
        DEMO_DATA: '0',
        RATE_LIMITS: '0',
        RENT_CYCLE_SCHEDULER: '0',
        SMS_URL: sms.url,
        MESSAGES_INTERVAL_MS: '100',
        MESSAGE_RETRY_SECONDS: '0',
      };
      // the first migrates the database; the second starts on it
      servers.push(await startServerProcess(env, { startTimeoutMs: 120_000 }));
      servers.push(await startServerProcess(env, { startTimeoutMs: 120_000 }));
      db = new pg.Client({ connectionString: url });
      await db.connect();
    }, 240_000);

    afterAll(async () => {
      await db?.end();
      await Promise.all(servers.map((s) => s.stop()));
      await dropPostgresDatabase(base as string, dbName);
      await sms?.stop();
    });

    it('sends each message once', async () => {
      const company = await db.query<{ id: number }>(
        `INSERT INTO companies (name) VALUES ('Two servers') RETURNING id`,
      );
      const id = company.rows[0]?.id;
      await db.query(
        `INSERT INTO messages (company_id, kind, channel, "to", body, status)
       SELECT $1, 'test', 'sms', '+2567000' || lpad(i::text, 5, '0'), 'Message ' || i, 'queued'
         FROM generate_series(1, ${COUNT}) i`,
        [id],
      );
      const deadline = Date.now() + 60_000;
      for (;;) {
        const left = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM messages WHERE status <> 'sent'`,
        );
        if (left.rows[0]?.n === 0) break;
        if (Date.now() > deadline)
          throw new Error(`not all sent:\n${servers.map((s) => s.output()).join('\n')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      // a moment more: a second send would arrive now
      await new Promise((r) => setTimeout(r, 1_000));
      const numbers = sms.requests.map((r) => r.form.to);
      expect(numbers).toHaveLength(COUNT);
      expect(new Set(numbers).size).toBe(COUNT);
      const attempts = await db.query<{ attempts: number; n: number }>(
        `SELECT attempts, count(*)::int AS n FROM messages GROUP BY attempts`,
      );
      expect(attempts.rows).toEqual([{ attempts: 1, n: COUNT }]);
    });
  },
);
