import { sql } from 'drizzle-orm';
import type { AuditActionName } from '@kodi/domain';
import type { DbOrTx } from '../../db/client.ts';

/**
 * One audit entry (the audit log, issue 20) that is not a generic record change (crud/service.ts
 * writes those): a sign-in, a failed one, an access change, a statement line matched, ignored or
 * unmatched, a webhook delivery, an import. Written with the change, in its transaction where it has
 * one. `audit_entries` is append-only: a trigger refuses UPDATE and DELETE.
 */
export type AuditRecord = {
  companyId: number;
  /** who: the session's user; null for a signed machine call (the payment webhook) */
  userId: number | null;
  action: AuditActionName;
  entity: string;
  recordId: number;
  before?: unknown;
  after?: unknown;
  /** the entry's line, where the action and the record do not say it all */
  summary?: string;
  importId?: number | null;
};

const jsonOrNull = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export const recordAuditEntry = async (db: DbOrTx, a: AuditRecord): Promise<void> => {
  await db.execute(
    sql`INSERT INTO audit_entries (company_id, entity, record_id, action, user_id, before, after, summary, import_id)
        VALUES (${a.companyId}, ${a.entity}, ${a.recordId}, ${a.action}, ${a.userId},
                ${jsonOrNull(a.before)}::jsonb, ${jsonOrNull(a.after)}::jsonb,
                ${(a.summary ?? '').slice(0, 300)}, ${a.importId ?? null})`,
  );
};

/**
 * A sign-in or a failed one of a known user, under the user's company (an unknown e-mail has no
 * company: it is not recorded; docs/decisions.md, 'Audit log'). `userId` the user signing in.
 */
export const recordSignIn = async (
  db: DbOrTx,
  s: { userId: number; ok: boolean; how: string; ip: string },
): Promise<void> => {
  await db.execute(
    sql`INSERT INTO audit_entries (company_id, entity, record_id, action, user_id, summary)
        SELECT company_id, 'users', id, ${s.ok ? 'sign_in' : 'sign_in_failed'}, id,
               ${`${s.how} from ${s.ip}`.slice(0, 300)}
          FROM users WHERE id = ${s.userId}`,
  );
};

/**
 * The text of an INSERT of audit entries read from the rows of `from` in the statement of their
 * change (a `WITH` part of it, or its end): the change and its entries are one statement, one
 * transaction on both drivers, and the entries see the rows the change returned. `columns` are the
 * SQL of the entry's columns (parameters of the caller's statement, columns of `from`); `entity` and
 * `action` are written as literals.
 */
export const auditEntriesFrom = (
  from: string,
  c: {
    companyId: string;
    entity: string;
    recordId: string;
    action: AuditActionName;
    userId: string;
    before: string;
    after: string;
  },
): string => {
  if (!/^[a-z_]+$/.test(c.entity)) throw new Error(`Not an entity name: ${c.entity}`);
  return `INSERT INTO audit_entries (company_id, entity, record_id, action, user_id, before, after)
           SELECT ${c.companyId}, '${c.entity}', ${c.recordId}, '${c.action}', ${c.userId}, ${c.before}, ${c.after} FROM ${from}`;
};

/**
 * A change of a user's access (a second factor on, off or reset, sessions ended) under the user's
 * company, read from the user's row in the same statement. `actorId` who changed it.
 */
export const recordUserChange = async (
  db: DbOrTx,
  change: { userId: number; actorId: number | null; before: unknown; after: unknown },
): Promise<void> => {
  await db.execute(
    sql`INSERT INTO audit_entries (company_id, entity, record_id, action, user_id, before, after)
        SELECT company_id, 'users', id, 'update', ${change.actorId}, ${JSON.stringify(change.before)}::jsonb,
               ${JSON.stringify(change.after)}::jsonb
          FROM users WHERE id = ${change.userId}`,
  );
};

/**
 * Several entries in one statement, sent as one JSON parameter (a thousand entries of an import, or
 * a batch of creations): the generic records' changes (crud/records.ts) are written here too.
 */
export const recordAuditEntries = async (db: DbOrTx, entries: readonly AuditRecord[]): Promise<void> => {
  if (entries.length === 0) return;
  const rows = entries.map((a) => ({
    company_id: a.companyId,
    entity: a.entity,
    record_id: a.recordId,
    action: a.action,
    user_id: a.userId,
    before: a.before ?? null,
    after: a.after ?? null,
    summary: (a.summary ?? '').slice(0, 300),
    import_id: a.importId ?? null,
  }));
  await db.execute(
    sql`INSERT INTO audit_entries (company_id, entity, record_id, action, user_id, before, after, summary, import_id)
        SELECT (x->>'company_id')::int, x->>'entity', (x->>'record_id')::int, x->>'action', (x->>'user_id')::int,
               NULLIF(x->'before', 'null'::jsonb), NULLIF(x->'after', 'null'::jsonb), x->>'summary',
               (x->>'import_id')::int
          FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS x`,
  );
};
