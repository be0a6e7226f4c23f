import { sql } from 'drizzle-orm';
import type { MessageChannel } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';

/**
 * A message to queue in the outbox (`messages`). The sender (sender.ts) takes the queued ones and
 * sends them; a `skipped` one stays in the log with its `error` ('no_address').
 */
export type OutgoingMessage = {
  company_id: number;
  /** 'receipt', 'reminder', 'test', 'announcement', the portal's invitations and codes */
  kind: string;
  /** one of the outbox's channels (`messageChannel`) */
  channel: MessageChannel;
  to: string | null;
  subject: string | null;
  body: string;
  /** 'queued' unless given */
  status?: 'queued' | 'skipped';
  error?: string | null;
  tenant_id?: number | null;
  occupancy_id?: number | null;
  tenant_name?: string | null;
  /** at most one message of a company has a key ('receipt:{payment}:{channel}'): a second is left out */
  dedup_key?: string | null;
  template_id?: number | null;
  payment_id?: number | null;
  /** a reminder's day: stale two days after it */
  send_date?: string | null;
  /** the announcement it is one of (its delivery counts are read from its messages) */
  announcement_id?: number | null;
  /** WhatsApp: its template's kind and values (modules/messaging/whatsapp.ts, `whatsappPayload`) */
  payload?: unknown;
};

/** Rows of one INSERT: 17 parameters each, well under PostgreSQL's 65,535. */
const ENQUEUE_BATCH = 1000;

const row = (m: OutgoingMessage) =>
  sql`(${m.company_id}, ${m.kind}, ${m.channel}, ${m.to}, ${m.tenant_id ?? null}::int, ${m.occupancy_id ?? null}::int,
       ${m.subject}, ${m.body}, ${m.status ?? 'queued'}, ${m.error ?? null}::text, ${m.dedup_key ?? null}::text,
       ${m.template_id ?? null}::int, ${m.payment_id ?? null}::int, ${m.send_date ?? null}::date,
       ${m.tenant_name ?? null}::text, ${m.announcement_id ?? null}::int,
       ${m.payload === undefined || m.payload === null ? null : JSON.stringify(m.payload)}::jsonb)`;

/**
 * The outbox: the one code that writes `messages` (writers.test.ts). Its messages are queued in the
 * caller's transaction, so that they go out only if what they tell of is saved.
 */
export const outbox = {
  /**
   * Queues messages, a thousand in one statement; one whose `dedup_key` its company already has is
   * left out. Answers the new messages' ids and statuses, in the order given (those left out missing).
   */
  enqueue: async (
    tx: DbOrTx,
    messages: readonly OutgoingMessage[],
  ): Promise<{ id: number; status: string }[]> => {
    const out: { id: number; status: string }[] = [];
    for (let i = 0; i < messages.length; i += ENQUEUE_BATCH) {
      const batch = messages.slice(i, i + ENQUEUE_BATCH);
      const rows = await execRows<{ id: number; status: string }>(
        tx,
        sql`INSERT INTO messages (company_id, kind, channel, "to", tenant_id, occupancy_id, subject, body, status,
                                  error, dedup_key, template_id, payment_id, send_date, tenant_name,
                                  announcement_id, payload)
            VALUES ${sql.join(batch.map(row), sql`, `)}
            ON CONFLICT (company_id, dedup_key) DO NOTHING RETURNING id, status`,
      );
      out.push(...rows.map((r) => ({ id: Number(r.id), status: r.status })).sort((a, b) => a.id - b.id));
    }
    return out;
  },

  /**
   * A failed or skipped message queued again, its attempts starting over: whether it was (false: no
   * such message of the company, or one that is not failed nor skipped).
   */
  requeue: async (tx: DbOrTx, companyId: number, id: number): Promise<boolean> => {
    const rows = await execRows(
      tx,
      sql`UPDATE messages SET status = 'queued', attempts = 0, error = NULL, next_attempt_at = NULL,
                claimed_until = NULL, send_date = NULL, updated_at = now(), version = version + 1
          WHERE company_id = ${companyId} AND id = ${id} AND status IN ('failed', 'skipped')
          RETURNING id`,
    );
    return rows.length > 0;
  },
};
