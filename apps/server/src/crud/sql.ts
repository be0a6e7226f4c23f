import { sql, type SQL } from 'drizzle-orm';
import type { EntityDefinition, Field } from '@kodi/domain';

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
  /**
   * Searches on joined fields done in the referenced table: its rows whose `expression` matches
   * (through that table's trigram index) are found first, then `t.<key> = ANY(their ids)` (through
   * the `(company_id, <key>)` index); the list then needs no join to search. `expression` is written
   * over the referenced table's own columns, exactly as its trigram index is.
   */
  searchVia?: Record<string, SearchVia>;
};

export type SearchVia = { key: string; table: string; expression: string };

const NUMERIC_KINDS = new Set(['money', 'number', 'integer', 'percent']);
/** Heavy fields stay out of lists: lists never carry image or document data. */
export const isHeavy = (f: Field) => f.kind === 'image' || f.kind === 'file';

export const fieldExpression = (s: EntitySql, name: string): string => s.expressions?.[name] ?? `t.${name}`;

const selectExpression = (s: EntitySql, f: Field): string => {
  const e = fieldExpression(s, f.name);
  if (f.kind === 'date') return `to_char(${e}, 'YYYY-MM-DD')`;
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

export const fromClause = (s: EntitySql): SQL => sql.raw(`${s.table} t${s.joins ? ` ${s.joins}` : ''}`);

/** NUMERIC comes back as exact text; the API answers JSON numbers (NUMERIC(14,2) fits a double exactly). */
export const presentRow = (def: EntityDefinition, row: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...row };
  for (const f of def.fields) {
    const v = out[f.name];
    if (NUMERIC_KINDS.has(f.kind) && v !== null && v !== undefined) out[f.name] = Number(v);
    if (f.kind === 'text' && typeof v === 'string' && f.name.endsWith('_code')) out[f.name] = v.trim();
  }
  for (const k of ['id', 'company_id', 'version'])
    if (out[k] !== undefined && out[k] !== null) out[k] = Number(out[k]);
  return out;
};

/** `%text%` for ILIKE with the wildcards of the search text escaped. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
