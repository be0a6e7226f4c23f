import { sql } from 'drizzle-orm';
import {
  AppError,
  countedStatus,
  noCounts,
  type AnnouncementCounts,
  type MessageChannel,
} from '@kodi/domain';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { recordAuditEntry } from '../audit/audit.ts';
import { companyCallingCode, smsAddress } from '../companies/phones.ts';
import { outbox, type OutgoingMessage } from './outbox.ts';

/**
 * Announcements (issue 29; docs/decisions.md, 'Announcements'): a notice to every tenant with an
 * active lease today on a property, or on any property of the company, one message per tenant and
 * channel queued through the outbox in the announcement's transaction. The sender sends them at its
 * own pace (a batch of 50 a round, 10 at a time, retries with backoff), as any other message.
 */

export type NewAnnouncement = {
  companyId: number;
  userId: number;
  /** null: every property of the company */
  propertyId: number | null;
  channels: readonly MessageChannel[];
  subject: string;
  body: string;
  idempotencyKey: string;
  /** the company's today: whose leases are active */
  today: string;
};

type Recipient = {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  country_code: string | null;
  /** the tenant's `notify_<channel>` choices (a channel without one is not opted out of) */
  notify: Record<string, unknown> | string | null;
};

/**
 * A tenant's address for a channel: the e-mail for `email`, the phone (in E.164) for the phone's
 * channels (`sms`, and any other the outbox knows: a messaging app reaches the phone number).
 */
const addressOf = (channel: MessageChannel, t: Recipient, callingCode: number | null) =>
  channel === 'email' ? t.email?.trim() || null : smsAddress(t.phone, t.country_code, callingCode);

const optedOut = (channel: MessageChannel, t: Recipient) => {
  const notify = typeof t.notify === 'string' ? (JSON.parse(t.notify) as Record<string, unknown>) : t.notify;
  return notify?.[`notify_${channel}`] === false;
};

/** The tenants with an active lease today on the property (or on any), each once, by id. */
const recipientsOf = (tx: DbOrTx, companyId: number, propertyId: number | null, today: string) =>
  execRows<Recipient>(
    tx,
    sql`SELECT tn.id, tn.first_name, tn.last_name, tn.email, tn.phone, tn.country_code,
               (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(to_jsonb(tn)) e
                 WHERE left(e.key, 7) = 'notify_') AS notify
          FROM tenants tn
         WHERE tn.company_id = ${companyId}
           AND EXISTS (
                 SELECT 1 FROM occupancy o
                  WHERE o.company_id = tn.company_id AND o.tenant_id = tn.id
                    AND o.is_active AND o.occupancy_status = 'active'
                    AND o.start_date <= ${today}::date AND (o.end_date IS NULL OR o.end_date >= ${today}::date)
                    ${propertyId === null ? sql`` : sql`AND o.property_id = ${propertyId}`})
         ORDER BY tn.id`,
  );

/**
 * Sends an announcement: saved, its messages queued, its audit entry written, in one transaction.
 * The same idempotency key again (a retry, a double tap) answers the one already sent and queues
 * nothing more. Another company's property (or none of that id): 404.
 */
export const sendAnnouncement = async (
  database: Database,
  a: NewAnnouncement,
): Promise<{ id: number; created: boolean }> =>
  database.db.transaction(async (tx) => {
    const existing = async () =>
      (
        await execRows<{ id: number }>(
          tx,
          sql`SELECT id FROM announcements WHERE company_id = ${a.companyId} AND idempotency_key = ${a.idempotencyKey}`,
        )
      )[0];
    const before = await existing();
    if (before) return { id: Number(before.id), created: false };
    if (a.propertyId !== null) {
      const property = await execRows(
        tx,
        sql`SELECT 1 FROM properties WHERE company_id = ${a.companyId} AND id = ${a.propertyId}`,
      );
      if (property.length === 0) throw new AppError('not_found', 'Property not found.');
    }
    const inserted = await execRows<{ id: number }>(
      tx,
      sql`INSERT INTO announcements (company_id, property_id, channels, subject, body, idempotency_key, created_by)
          VALUES (${a.companyId}, ${a.propertyId}::int, ${JSON.stringify(a.channels)}::jsonb, ${a.subject}, ${a.body},
                  ${a.idempotencyKey}, ${a.userId})
          ON CONFLICT (company_id, idempotency_key) DO NOTHING RETURNING id`,
    );
    const id = inserted[0]?.id;
    if (id === undefined) {
      // the same key sent at the same moment: the other request's announcement
      const other = await existing();
      if (!other) throw new AppError('conflict');
      return { id: Number(other.id), created: false };
    }
    const announcementId = Number(id);
    const recipients = await recipientsOf(tx, a.companyId, a.propertyId, a.today);
    const callingCode = await companyCallingCode(tx, a.companyId);
    const messages: OutgoingMessage[] = [];
    for (const t of recipients) {
      for (const channel of a.channels) {
        const to = addressOf(channel, t, callingCode);
        const out = optedOut(channel, t);
        messages.push({
          company_id: a.companyId,
          kind: 'announcement',
          channel,
          to,
          tenant_id: Number(t.id),
          tenant_name: `${t.first_name} ${t.last_name}`.trim(),
          subject: a.subject,
          body: channel === 'email' ? a.body : `${a.subject}: ${a.body}`,
          status: out || !to ? 'skipped' : 'queued',
          error: out ? 'opted_out' : !to ? 'no_address' : null,
          dedup_key: `announcement:${announcementId}:${t.id}:${channel}`,
          announcement_id: announcementId,
        });
      }
    }
    await outbox.enqueue(tx, messages);
    await execRows(
      tx,
      sql`UPDATE announcements SET recipients = ${recipients.length}
           WHERE company_id = ${a.companyId} AND id = ${announcementId}`,
    );
    await recordAuditEntry(tx, {
      companyId: a.companyId,
      userId: a.userId,
      action: 'create',
      entity: 'announcements',
      recordId: announcementId,
      after: {
        property_id: a.propertyId,
        channels: a.channels,
        subject: a.subject,
        recipients: recipients.length,
      },
      summary: `Announcement sent to ${recipients.length} tenant${recipients.length === 1 ? '' : 's'}: ${a.subject}`,
    });
    return { id: announcementId, created: true };
  });

/**
 * What the messages of announcements became, per announcement and channel: read from the message
 * log's `messages_announcement_idx` (the announcements' own rows only, never the whole log).
 */
export const announcementCounts = async (
  database: Database,
  companyId: number,
  ids: readonly number[],
): Promise<Map<number, Record<string, AnnouncementCounts>>> => {
  const out = new Map<number, Record<string, AnnouncementCounts>>();
  if (ids.length === 0) return out;
  const rows = await execRows<{ announcement_id: number; channel: string; status: string; n: number }>(
    database.db,
    sql`SELECT announcement_id, channel, status, count(*)::int AS n FROM messages
         WHERE company_id = ${companyId} AND announcement_id IN (${sql.join(
           ids.map((id) => sql`${id}`),
           sql`, `,
         )})
         GROUP BY announcement_id, channel, status`,
  );
  for (const r of rows) {
    const id = Number(r.announcement_id);
    const counts = out.get(id) ?? {};
    const c = (counts[r.channel] ??= noCounts());
    c[countedStatus(r.status)] += Number(r.n);
    out.set(id, counts);
  }
  return out;
};

/**
 * The announcements sent to a tenant (its messages name them: it was their tenant when each was
 * sent, company-wide or of its property), newest first, a page at a time.
 */
export const tenantAnnouncements = async (
  database: Database,
  companyId: number,
  tenantId: number,
  page: number,
  pageSize: number,
) => {
  const mine = sql`SELECT DISTINCT m.announcement_id FROM messages m
                    WHERE m.company_id = ${companyId} AND m.tenant_id = ${tenantId} AND m.announcement_id IS NOT NULL`;
  const rows = await execRows<{
    id: number;
    created_at: string;
    property_name: string | null;
    subject: string;
    body: string;
  }>(
    database.db,
    sql`SELECT a.id, to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
               p.name AS property_name, a.subject, a.body
          FROM announcements a
          LEFT JOIN properties p ON p.company_id = a.company_id AND p.id = a.property_id
         WHERE a.company_id = ${companyId} AND a.id IN (${mine})
         ORDER BY a.id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
  );
  const total = await execRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM (${mine}) x`);
  return {
    rows: rows.map((a) => ({ ...a, id: Number(a.id) })),
    total: Number(total[0]?.n ?? 0),
    page,
    page_size: pageSize,
  };
};
