import { openPostgres } from '../db/client.ts';
import { startSmsServer } from '../test/message-servers.ts';
import { startKodi } from './processes.ts';
import type { Row } from './report.ts';

/**
 * The messages' sender (issue 17), in `npm run bench` (part `messages`): queued SMS of the large
 * company sent by one server to a local Africa's Talking stand-in (test/message-servers.ts, which
 * answers at once), timed from the server's start of sending to the last one marked sent. Budget:
 * at least 50 messages a second.
 */

const BUDGET_PER_S = 50;

export type MessagesPhase = {
  databaseUrl: string;
  reduced: boolean;
  add: (row: Row) => void;
  log: (...args: unknown[]) => void;
};

export const messagesPhase = async ({ databaseUrl, reduced, add, log }: MessagesPhase) => {
  const count = reduced ? 200 : 2_000;
  const sms = await startSmsServer('africastalking');
  const db = await openPostgres(databaseUrl, 2);
  try {
    await db.query(
      `INSERT INTO messages (company_id, kind, channel, "to", body, status, dedup_key)
       SELECT 1, 'test', 'sms', '+2567' || lpad(i::text, 8, '0'), 'Bench message ' || i, 'queued', 'bench:' || i
         FROM generate_series(1, ${count}) i
       ON CONFLICT (company_id, dedup_key) DO UPDATE SET status = 'queued', attempts = 0, error = NULL`,
    );
    const started = Date.now();
    const kodi = await startKodi({
      DATABASE_URL: databaseUrl,
      RATE_LIMITS: '0',
      RENT_CYCLE_SCHEDULER: '0',
      SMS_URL: sms.url,
      MESSAGES_INTERVAL_MS: '100',
    });
    try {
      const deadline = Date.now() + 300_000;
      let first = 0;
      for (;;) {
        if (!first && sms.requests.length > 0) first = Date.now();
        const left = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM messages WHERE company_id = 1 AND dedup_key LIKE 'bench:%' AND status <> 'sent'`,
        );
        if (Number(left[0]?.n) === 0) break;
        if (Date.now() > deadline) throw new Error(`messages: ${left[0]?.n} not sent after 5 minutes`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const seconds = (Date.now() - (first || started)) / 1000;
      const rate = count / Math.max(seconds, 0.001);
      const own = sms.requests.filter((r) =>
        String(r.form.message ?? '').startsWith('Bench message '),
      ).length;
      add({
        db: 'PostgreSQL',
        endpoint: `messages sent to the local SMS provider (${count.toLocaleString('en-US')} SMS)`,
        rps: Math.round(rate),
        budget: `≥ ${BUDGET_PER_S}/s`,
        note: `${own.toLocaleString('en-US')} requests in ${seconds.toFixed(1)} s, one server`,
        // its own messages, each sent once (messages queued by earlier phases are sent too, and not counted)
        ok: own === count && (reduced || rate >= BUDGET_PER_S),
      });
      log(`messages: ${count} SMS in ${seconds.toFixed(1)} s (${rate.toFixed(0)}/s)`);
    } finally {
      await kodi.stop();
    }
  } finally {
    await db.query(`DELETE FROM messages WHERE company_id = 1 AND dedup_key LIKE 'bench:%'`);
    await db.close();
    await sms.stop();
  }
};
