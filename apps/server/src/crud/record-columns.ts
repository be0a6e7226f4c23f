import { sql, type SQL } from 'drizzle-orm';
import { entityList } from '@kodi/domain';
import { execRows, type DbOrTx } from '../db/client.ts';

// The writes of an entity's table that are no record change (one writer per table: crud/ owns every
// entity's table, and records.ts writes its records through the entity's `prepare` with an audit
// entry). These are the other ways in: a column that is no field of the record's form (a lease's own
// late-fee policy, its deposit status set by its settlement), a flag kept on records (a payment's
// receipt queued, a company's templates written), and the tenant portal's writes, made by a tenant
// rather than the staff (its own addresses, its repair requests), and the first run's company (no
// user yet to prepare and audit it as). The caller names the columns;
// nothing here knows an entity's own.

const entityTables = new Set(entityList.map((d) => d.name));

const tableOf = (table: string) => {
  if (!entityTables.has(table)) throw new Error(`${table}: not an entity's table`);
  return sql.identifier(table);
};

/** A column's value: a plain value sent as a parameter, or SQL (`${json}::jsonb`). */
type ColumnValue = unknown;

const assignments = (columns: Readonly<Record<string, ColumnValue>>) =>
  Object.entries(columns).map(([name, value]) => sql`${sql.identifier(name)} = ${value}`);

export const recordColumns = {
  /**
   * Sets columns of one record of the company, and its `updated_at`. `bumpVersion`: its `version`
   * too (a change its form would see: an edit open on it meets a conflict); `atVersion`: only while
   * the record is at that version. Answers the `returning` columns of the row, none when no row of
   * the company (at that version) has that id.
   */
  set: async <T extends Record<string, unknown> = Record<string, unknown>>(
    db: DbOrTx,
    table: string,
    companyId: number,
    id: number,
    columns: Readonly<Record<string, ColumnValue | SQL>>,
    options: { bumpVersion?: boolean; atVersion?: number; returning?: readonly string[] } = {},
  ): Promise<T | undefined> => {
    const sets = [
      ...assignments(columns),
      sql`updated_at = now()`,
      ...(options.bumpVersion ? [sql`version = version + 1`] : []),
    ];
    const returning = options.returning?.length ? options.returning : ['id'];
    const rows = await execRows<T>(
      db,
      sql`UPDATE ${tableOf(table)} SET ${sql.join(sets, sql`, `)}
           WHERE company_id = ${companyId} AND id = ${id}${
             options.atVersion === undefined ? sql`` : sql` AND version = ${options.atVersion}`
           }
       RETURNING ${sql.join(
         returning.map((c) => sql.identifier(c)),
         sql`, `,
       )}`,
    );
    return rows[0];
  },

  /**
   * Sets a yes-or-no flag kept on records that is no change of them (their `updated_at` and `version`
   * stay as they are): a payment's receipt queued, a company's built-in templates written. `onlyUnset`:
   * only the records whose flag is not set yet (a claim: of two transactions, the second finds it set).
   * Answers the ids of the records it set.
   */
  flag: async (
    db: DbOrTx,
    table: string,
    ids: readonly number[],
    column: string,
    options: { onlyUnset?: boolean } = {},
  ): Promise<number[]> => {
    if (ids.length === 0) return [];
    const flag = sql.identifier(column);
    const rows = await execRows<{ id: number }>(
      db,
      sql`UPDATE ${tableOf(table)} SET ${flag} = true
           WHERE id IN (${sql.join(
             ids.map((id) => sql`${id}`),
             sql`, `,
           )})${options.onlyUnset ? sql` AND NOT ${flag}` : sql``}
       RETURNING id`,
    );
    return rows.map((r) => Number(r.id));
  },

  /**
   * Sets columns of many records of the company in one statement, each its own values (`rows`: the id
   * and the columns, typed by `types`: 'int', 'numeric', 'text', 'date'...), the same `constant`
   * columns on all, their `updated_at` and `version` (a change their forms would see). `onlyWhere`: a
   * condition on the row as it is (`status = 'ready'`: a claim). Answers the ids it set.
   */
  setEach: async (
    db: DbOrTx,
    table: string,
    companyId: number,
    rows: readonly Readonly<Record<string, unknown>>[],
    types: Readonly<Record<string, string>>,
    options: { constant?: Readonly<Record<string, ColumnValue | SQL>>; onlyWhere?: SQL } = {},
  ): Promise<number[]> => {
    if (rows.length === 0) return [];
    const columns = Object.keys(types);
    const t = tableOf(table);
    const sets = [
      ...columns.map((c) => sql`${sql.identifier(c)} = v.${sql.identifier(c)}`),
      ...assignments(options.constant ?? {}),
      sql`updated_at = now()`,
      sql`version = ${t}.version + 1`,
    ];
    const shape = sql.raw(
      ['id int', ...columns.map((c) => `"${c.replace(/"/g, '')}" ${types[c] ?? 'text'}`)].join(', '),
    );
    const data = JSON.stringify(
      rows.map((r) => Object.fromEntries(['id', ...columns].map((c) => [c, r[c]]))),
    );
    const out = await execRows<{ id: number }>(
      db,
      sql`UPDATE ${t} SET ${sql.join(sets, sql`, `)}
            FROM jsonb_to_recordset(${data}::jsonb) AS v(${shape})
           WHERE ${t}.company_id = ${companyId} AND ${t}.id = v.id${
             options.onlyWhere ? sql` AND ${options.onlyWhere}` : sql``
           }
       RETURNING ${t}.id`,
    );
    return out.map((r) => Number(r.id));
  },

  /**
   * A new record with the columns given (the others take their DEFAULT): its id. Of the company
   * `companyId`; `null` for a record of no company (the first run's company itself).
   */
  insert: async (
    db: DbOrTx,
    table: string,
    companyId: number | null,
    columns: Readonly<Record<string, ColumnValue | SQL>>,
  ): Promise<number> => {
    const entries = [
      ...(companyId === null ? [] : [['company_id', companyId] as const]),
      ...Object.entries(columns),
    ];
    const rows = await execRows<{ id: number }>(
      db,
      sql`INSERT INTO ${tableOf(table)} (${sql.join(
        entries.map(([name]) => sql.identifier(name)),
        sql`, `,
      )})
          VALUES (${sql.join(
            entries.map(([, value]) => sql`${value}`),
            sql`, `,
          )}) RETURNING id`,
    );
    return Number(rows[0]?.id);
  },
};
