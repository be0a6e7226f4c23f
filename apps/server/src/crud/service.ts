import { sql } from 'drizzle-orm';
import { AppError, type SessionUser } from '@kodi/domain';
import { execRows, type DbOrTx } from '../db/client.ts';
import { fromClause, isHeavy, presentRow, selectList } from './sql.ts';
import { scopeCondition, type ServerEntity } from './server-entity.ts';
import { recordAuditEntries } from '../modules/audit/audit.ts';

/** One record the user may see, with its joined names. */
export const getRecord = async (db: DbOrTx, e: ServerEntity, user: SessionUser, id: number) => {
  const rows = await execRows<Record<string, unknown>>(
    db,
    sql`SELECT ${selectList(e.def, e.sql, { list: false })} FROM ${fromClause(e.sql)}
        WHERE ${scopeCondition(e, user)} AND t.id = ${id}`,
  );
  const row = rows[0];
  if (!row) throw new AppError('not_found', `${e.def.singular} not found.`);
  return presentRow(e.def, row);
};

const columnValue = (v: unknown) => (v === undefined ? null : v);

/**
 * Inserts records and answers them as `getRecord` would, in the order given, in one statement: the
 * new rows (a data-modifying CTE named like the table's alias) joined to their referenced rows. One
 * round trip for all of them, and the join is planned over the new rows, not over the table and its
 * indexes. A column some records leave out takes its DEFAULT in theirs.
 */
export const insertRecords = async (
  tx: DbOrTx,
  e: ServerEntity,
  user: Pick<SessionUser, 'company_id'>,
  records: readonly Record<string, unknown>[],
): Promise<Record<string, unknown>[]> => {
  const cols = [...new Set(records.flatMap((v) => Object.keys(v)))];
  const company = e.def.scope === 'company';
  const names = [...(company ? ['company_id'] : []), ...cols];
  const row = (v: Record<string, unknown>) =>
    sql`(${sql.join(
      [
        ...(company ? [sql`${user.company_id}`] : []),
        ...cols.map((c) => (c in v ? sql`${columnValue(v[c])}` : sql.raw('DEFAULT'))),
      ],
      sql`, `,
    )})`;
  const rows = await execRows<Record<string, unknown>>(
    tx,
    sql`WITH t AS (
          INSERT INTO ${sql.raw(e.sql.table)} (${sql.raw(names.join(', '))})
          VALUES ${sql.join(records.map(row), sql`, `)} RETURNING *
        )
        SELECT ${selectList(e.def, e.sql, { list: false })} FROM t${sql.raw(e.sql.joins ? ` ${e.sql.joins}` : '')}`,
  );
  if (rows.length !== records.length) throw new AppError('not_found', `${e.def.singular} not found.`);
  // identities are drawn row by row in the VALUES' order: ascending ids are the records' order
  return rows.map((r) => presentRow(e.def, r)).sort((a, b) => Number(a.id) - Number(b.id));
};

export const insertRecord = async (
  tx: DbOrTx,
  e: ServerEntity,
  user: SessionUser,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> => {
  const [record] = await insertRecords(tx, e, user, [values]);
  if (!record) throw new AppError('not_found', `${e.def.singular} not found.`);
  return record;
};

export const updateRecord = async (
  tx: DbOrTx,
  e: ServerEntity,
  user: SessionUser,
  id: number,
  expectedVersion: number,
  values: Record<string, unknown>,
) => {
  const sets = Object.keys(values).map((c) => sql`${sql.raw(c)} = ${columnValue(values[c])}`);
  sets.push(sql`version = t.version + 1`, sql`updated_at = now()`);
  const rows = await execRows<{ id: number }>(
    tx,
    sql`UPDATE ${sql.raw(e.sql.table)} t SET ${sql.join(sets, sql`, `)}
        WHERE ${scopeCondition(e, user)} AND t.id = ${id} AND t.version = ${expectedVersion} RETURNING t.id`,
  );
  if (rows.length === 0) {
    const exists = await execRows(
      tx,
      sql`SELECT 1 FROM ${sql.raw(e.sql.table)} t WHERE ${scopeCondition(e, user)} AND t.id = ${id}`,
    );
    if (exists.length === 0) throw new AppError('not_found', `${e.def.singular} not found.`);
    throw new AppError('conflict');
  }
};

export const deleteRecord = async (tx: DbOrTx, e: ServerEntity, user: SessionUser, id: number) => {
  const rows = await execRows(
    tx,
    sql`DELETE FROM ${sql.raw(e.sql.table)} t WHERE ${scopeCondition(e, user)} AND t.id = ${id} RETURNING t.id`,
  );
  if (rows.length === 0) throw new AppError('not_found', `${e.def.singular} not found.`);
};

/** Who changed what, in the same transaction as the change (heavy fields left out). */
export type AuditEntry = {
  /** who: a session's user, or nobody (a signed machine call: the payment webhook) */
  user: Pick<SessionUser, 'company_id'> & { id: number | null };
  action: 'create' | 'update' | 'delete';
  recordId: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** the import that made the change (features/imports) */
  importId?: number;
};

/** Audit entries of one entity, in one statement (a batch of creations writes all of them at once). */
export const recordAudits = async (tx: DbOrTx, e: ServerEntity, entries: readonly AuditEntry[]) => {
  if (entries.length === 0) return;
  const light = (r: Record<string, unknown> | null) => {
    if (!r) return null;
    const out = { ...r };
    for (const f of e.def.fields) if (isHeavy(f)) delete out[f.name];
    return out;
  };
  await recordAuditEntries(
    tx,
    entries.map((a) => ({
      companyId: a.user.company_id,
      userId: a.user.id,
      action: a.action,
      entity: e.def.name,
      recordId: a.recordId,
      before: light(a.before),
      after: light(a.after),
      importId: a.importId ?? null,
    })),
  );
};

export const recordAudit = (
  tx: DbOrTx,
  e: ServerEntity,
  user: SessionUser,
  action: 'create' | 'update' | 'delete',
  recordId: number,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
) => recordAudits(tx, e, [{ user, action, recordId, before, after }]);

/** The audit entries of a record, newest first; kept after the record is deleted. */
export const recordHistory = async (
  ctx: {
    database: {
      query: <T extends Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
    };
  },
  e: ServerEntity,
  user: SessionUser,
  id: number,
) => {
  const scoped = e.def.scope === 'company';
  const rows = await ctx.database.query<Record<string, unknown>>(
    `SELECT a.id, a.action, a.record_id, a.user_id, u.email AS user_email, a.before, a.after, a.import_id,
            to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
       FROM audit_entries a LEFT JOIN users u ON u.id = a.user_id
      WHERE a.entity = $1 AND a.record_id = $2 AND a.action IN ('create', 'update', 'delete')
            ${scoped ? 'AND a.company_id = $3' : ''}
      ORDER BY a.id DESC LIMIT 200`,
    scoped ? [e.def.name, id, user.company_id] : [e.def.name, id],
  );
  if (rows.length === 0) throw new AppError('not_found', `${e.def.singular} not found.`);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    record_id: Number(r.record_id),
    user_id: r.user_id === null ? null : Number(r.user_id),
    import_id: r.import_id === null || r.import_id === undefined ? null : Number(r.import_id),
    before: typeof r.before === 'string' ? (JSON.parse(r.before) as unknown) : r.before,
    after: typeof r.after === 'string' ? (JSON.parse(r.after) as unknown) : r.after,
  }));
};
