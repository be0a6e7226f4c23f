import { sql, type SQL } from 'drizzle-orm';
import { AppError, type EntityDefinition, type SessionUser } from '@kodi/domain';
import { execRows, type DbOrTx } from '../db/client.ts';
import {
  fieldExpression,
  fromClause,
  isHeavy,
  likePattern,
  presentRow,
  selectList,
  type EntitySql,
} from './sql.ts';

/** The server side of an entity: its definition, its SQL, and only the rules that are its own. */
export type ServerEntity = {
  def: EntityDefinition;
  sql: EntitySql;
  /**
   * Which rows the user may see, for entities whose scope is not simply their company
   * (companies: admins all, others their own). Default: company-owned rows of the session's company.
   */
  scope?: (user: SessionUser) => SQL;
  /**
   * A short list for signed-out callers (the register page's company picker). When set, the list route is
   * public: signed-out callers get this, signed-in ones the normal list with the normal checks.
   */
  publicList?: (db: DbOrTx, query: ListQuery) => Promise<{ rows: Record<string, unknown>[]; total: number }>;
  /** request body limit for create and update (images, documents). */
  bodyLimit?: number;
  /**
   * The entity's own rules before a write, inside the transaction: may change the values
   * (normalise, assign numbers) or throw an AppError.
   */
  prepare?: (args: {
    tx: DbOrTx;
    user: SessionUser;
    values: Record<string, unknown>;
    existing?: Record<string, unknown>;
  }) => Promise<Record<string, unknown>>;
};

export type ListQuery = { page: number; page_size: number; q?: string; sort?: string; filter?: string };

const scopeCondition = (e: ServerEntity, user: SessionUser): SQL =>
  e.scope ? e.scope(user) : e.def.scope === 'company' ? sql`t.company_id = ${user.company_id}` : sql`TRUE`;

/** WHERE for a list: the company from the session, the search, the filter (which never widens the scope). */
export const listWhere = (e: ServerEntity, user: SessionUser, query: ListQuery): SQL => {
  const parts: SQL[] = [scopeCondition(e, user)];
  const q = query.q?.trim();
  if (q) {
    const pattern = likePattern(q);
    parts.push(
      sql`(${sql.join(
        e.def.search.map((f) => sql`${sql.raw(`(${fieldExpression(e.sql, f)})::text`)} ILIKE ${pattern}`),
        sql` OR `,
      )})`,
    );
  }
  if (query.filter) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(query.filter);
    } catch {
      throw new AppError('validation_failed', 'The filter is not valid JSON.', { filter: 'Invalid JSON.' });
    }
    const filters = Array.isArray(parsed) ? parsed : [parsed];
    for (const f of filters) {
      const { field, value } = (f ?? {}) as { field?: unknown; value?: unknown };
      const known =
        field === 'company_id' ||
        (typeof field === 'string' &&
          e.def.fields.some((d) => d.name === field && (d.kind === 'enum' || d.kind === 'reference')));
      if (!known || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')) {
        throw new AppError('validation_failed', `Unknown filter field: ${String(field)}.`, {
          filter: 'Unknown field.',
        });
      }
      if (field === 'company_id') {
        // The scope is the session's company; a filter for another one selects nothing.
        if (e.def.scope === 'company' && Number(value) !== user.company_id) parts.push(sql`FALSE`);
      } else {
        parts.push(sql`${sql.raw(`(${fieldExpression(e.sql, field as string)})::text`)} = ${String(value)}`);
      }
    }
  }
  return sql.join(parts, sql` AND `);
};

export const orderBy = (e: ServerEntity, sort: string | undefined): SQL => {
  if (!sort) return sql.raw('t.id DESC');
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  if (!e.def.sort.includes(field)) {
    throw new AppError('validation_failed', `Unknown sort field: ${field}.`, { sort: 'Unknown field.' });
  }
  const expr = field === 'id' || field === 'created_at' ? `t.${field}` : fieldExpression(e.sql, field);
  return sql.raw(`${expr} ${desc ? 'DESC' : 'ASC'} NULLS LAST, t.id DESC`);
};

export const listRecords = async (db: DbOrTx, e: ServerEntity, user: SessionUser, query: ListQuery) => {
  const where = listWhere(e, user, query);
  const order = orderBy(e, query.sort);
  const offset = (query.page - 1) * query.page_size;
  const [rows, count] = await Promise.all([
    execRows<Record<string, unknown>>(
      db,
      sql`SELECT ${selectList(e.def, e.sql, { list: true })} FROM ${fromClause(e.sql)}
          WHERE ${where} ORDER BY ${order} LIMIT ${query.page_size} OFFSET ${offset}`,
    ),
    execRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${fromClause(e.sql)} WHERE ${where}`),
  ]);
  return { rows: rows.map((r) => presentRow(e.def, r)), total: Number(count[0]?.n ?? 0) };
};

/**
 * One record the user may see. `justCreated`: the row this transaction has just inserted, read back
 * whatever the scope (an editor may create a company that is not theirs to see afterwards).
 */
export const getRecord = async (
  db: DbOrTx,
  e: ServerEntity,
  user: SessionUser,
  id: number,
  opts: { justCreated?: boolean } = {},
) => {
  const rows = await execRows<Record<string, unknown>>(
    db,
    sql`SELECT ${selectList(e.def, e.sql, { list: false })} FROM ${fromClause(e.sql)}
        WHERE ${opts.justCreated ? sql`TRUE` : scopeCondition(e, user)} AND t.id = ${id}`,
  );
  const row = rows[0];
  if (!row) throw new AppError('not_found', `${e.def.singular} not found.`);
  return presentRow(e.def, row);
};

const columnValue = (v: unknown) => (v === undefined ? null : v);

export const insertRecord = async (
  tx: DbOrTx,
  e: ServerEntity,
  user: SessionUser,
  values: Record<string, unknown>,
) => {
  const cols = Object.keys(values);
  const names = [...(e.def.scope === 'company' ? ['company_id'] : []), ...cols];
  const params = [
    ...(e.def.scope === 'company' ? [user.company_id] : []),
    ...cols.map((c) => columnValue(values[c])),
  ];
  const rows = await execRows<{ id: number }>(
    tx,
    sql`INSERT INTO ${sql.raw(e.sql.table)} (${sql.raw(names.join(', '))})
        VALUES (${sql.join(
          params.map((p) => sql`${p}`),
          sql`, `,
        )}) RETURNING id`,
  );
  return Number(rows[0]?.id);
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
export const recordAudit = async (
  tx: DbOrTx,
  e: ServerEntity,
  user: SessionUser,
  action: 'create' | 'update' | 'delete',
  recordId: number,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
) => {
  const light = (r: Record<string, unknown> | null) => {
    if (!r) return null;
    const out = { ...r };
    for (const f of e.def.fields) if (isHeavy(f)) delete out[f.name];
    return JSON.stringify(out);
  };
  await tx.execute(
    sql`INSERT INTO audit_entries (company_id, entity, record_id, action, user_id, before, after)
        VALUES (${user.company_id}, ${e.def.name}, ${recordId}, ${action}, ${user.id},
                ${light(before)}::jsonb, ${light(after)}::jsonb)`,
  );
};

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
    `SELECT a.id, a.action, a.record_id, a.user_id, u.email AS user_email, a.before, a.after,
            to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
       FROM audit_entries a LEFT JOIN users u ON u.id = a.user_id
      WHERE a.entity = $1 AND a.record_id = $2 ${scoped ? 'AND a.company_id = $3' : ''}
      ORDER BY a.id DESC LIMIT 200`,
    scoped ? [e.def.name, id, user.company_id] : [e.def.name, id],
  );
  if (rows.length === 0) throw new AppError('not_found', `${e.def.singular} not found.`);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    record_id: Number(r.record_id),
    user_id: r.user_id === null ? null : Number(r.user_id),
    before: typeof r.before === 'string' ? (JSON.parse(r.before) as unknown) : r.before,
    after: typeof r.after === 'string' ? (JSON.parse(r.after) as unknown) : r.after,
  }));
};
