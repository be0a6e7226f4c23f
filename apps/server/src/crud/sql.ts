import { sql, type SQL } from 'drizzle-orm';
import type { EntityDefinition, Field } from '@kodi/domain';
import { isoDaySql } from '../db/dates.ts';

/** How one entity maps onto SQL: its table (alias `t`), joins, and expressions for derived fields. */
export type EntitySql = {
  table: string;
  /**
   * To-one joins only (on a key; inner joins only along enforced foreign keys): they never add or drop
   * rows. Joined on the composite key `(company_id, id)`: a join on `id` alone is planned in half
   * the time, but only the company equality lets a sharded database (Citus, docs/scaling.md) send the
   * whole query to the one node holding the company.
   */
  joins?: string;
  /** SQL expressions (over `t` and the joins) for fields that are not plain columns of the table. */
  expressions?: Record<string, string>;
};

const NUMERIC_KINDS = new Set(['money', 'number', 'integer', 'percent']);
/** Heavy fields stay out of lists: lists never carry image or document data. */
export const isHeavy = (f: Field) => f.kind === 'image' || f.kind === 'file';

export const fieldExpression = (s: EntitySql, name: string): string => s.expressions?.[name] ?? `t.${name}`;

const selectExpression = (s: EntitySql, f: Field): string => {
  const e = fieldExpression(s, f.name);
  if (f.kind === 'date') return isoDaySql(e);
  if (NUMERIC_KINDS.has(f.kind) && f.name !== 'version') return `(${e})::text`;
  return e;
};

const ts = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The SELECT list of a record: every field, or every light field for lists. */
export const selectList = (def: EntityDefinition, s: EntitySql, opts: { list: boolean }): SQL => {
  const cols = [
    't.id',
    ...(def.scope === 'company' ? ['t.company_id'] : []),
    ...def.fields
      // documents are downloaded on their own route; images come with a single record only
      .filter((f) => f.name !== 'version' && f.kind !== 'file' && !(opts.list && isHeavy(f)))
      .map((f) => `${selectExpression(s, f)} AS ${f.name}`),
    't.version',
    `${ts('t.created_at')} AS created_at`,
    `${ts('t.updated_at')} AS updated_at`,
  ];
  return sql.raw(cols.join(', '));
};

/**
 * The SELECT list of just these fields (an export's columns): a third of a list's columns is a third
 * of the work to read, send and parse 200,000 rows. Undefined when one is not a field of the entity.
 */
export const selectFields = (
  def: EntityDefinition,
  s: EntitySql,
  names: readonly string[],
): SQL | undefined => {
  const fields = names.map((n) => def.fields.find((f) => f.name === n && !isHeavy(f)));
  if (fields.length === 0 || fields.some((f) => !f)) return undefined;
  return sql.raw(
    [...new Set(fields as Field[])].map((f) => `${selectExpression(s, f)} AS ${f.name}`).join(', '),
  );
};

export const fromClause = (s: EntitySql): SQL => sql.raw(`${s.table} t${s.joins ? ` ${s.joins}` : ''}`);

/** Per definition, the fields a row's presentation converts (worked out once, not per row). */
const conversions = new WeakMap<EntityDefinition, { numbers: string[]; codes: string[] }>();
const conversionsOf = (def: EntityDefinition) => {
  let c = conversions.get(def);
  if (!c) {
    c = {
      numbers: [
        ...new Set([
          ...def.fields.filter((f) => NUMERIC_KINDS.has(f.kind)).map((f) => f.name),
          'id',
          'company_id',
          'version',
        ]),
      ],
      codes: def.fields.filter((f) => f.kind === 'text' && f.name.endsWith('_code')).map((f) => f.name),
    };
    conversions.set(def, c);
  }
  return c;
};

/**
 * NUMERIC comes back as exact text; the API answers JSON numbers (NUMERIC(14,2) fits a double exactly).
 * `omit`: a column of the statement that is not the record's (the list's total).
 */
export const presentRow = (
  def: EntityDefinition,
  row: Record<string, unknown>,
  ...omit: string[]
): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k in row) if (!omit.includes(k)) out[k] = row[k];
  const { numbers, codes } = conversionsOf(def);
  for (const k of numbers) {
    const v = out[k];
    if (v !== null && v !== undefined) out[k] = Number(v);
  }
  for (const k of codes) {
    const v = out[k];
    if (typeof v === 'string') out[k] = v.trim();
  }
  return out;
};

/**
 * The names of a lease's or request's tenant as the API answers them (`tenant_first_name`,
 * `tenant_last_name`), joined for a page's rows only: lists sort and search by the row's own
 * `tenant_name` (db/derived.ts keeps it).
 */
export const TENANT_JOIN = 'JOIN tenants tn ON tn.company_id = t.company_id AND tn.id = t.tenant_id';
export const TENANT_NAMES = { tenant_first_name: 'tn.first_name', tenant_last_name: 'tn.last_name' };

/** `%text%` for ILIKE with the wildcards of the search text escaped. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
