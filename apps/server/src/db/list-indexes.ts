import { sql, type SQL } from 'drizzle-orm';
import { index, type AnyPgColumn, type IndexBuilder } from 'drizzle-orm/pg-core';
import type { EntityDefinition } from '@kodi/domain';

/** How a list treats a column: text is searched as it is, dates as `YYYY-MM-DD`, numbers as digits. */
export type ColumnKind = 'text' | 'char' | 'date' | 'number' | 'boolean';

export const columnKind = (column: AnyPgColumn): ColumnKind => {
  const type = column.columnType;
  if (type === 'PgChar') return 'char';
  if (type === 'PgDate' || type === 'PgDateString') return 'date';
  if (type === 'PgBoolean') return 'boolean';
  if (column.dataType === 'number' || type === 'PgNumeric' || type === 'PgBigInt53' || type === 'PgInteger')
    return 'number';
  return 'text';
};

/**
 * The text a search matches a column by, written the same way in the list's WHERE and in the
 * column's trigram index (so that the index serves it): dates as `YYYY-MM-DD` (iso_date_text,
 * migration 0016: immutable, unlike `date::text`, which follows DateStyle), numbers and fixed-width
 * text cast to text.
 */
export const searchExpression = (column: { kind: ColumnKind }, expr: string): string =>
  column.kind === 'date' ? `iso_date_text(${expr})` : column.kind === 'text' ? expr : `(${expr})::text`;

/**
 * The indexes every list of an entity is read from, derived from its definition: for each field it
 * sorts or filters by, `(company_id, <field>, id)` (one index serves both directions and any page),
 * and for each field it searches, a trigram index of the text it searches (`searchExpression`); a
 * list of one property's rows (`byProperty`) reads `(company_id, property_id, id)`.
 * A table's definition in schema.ts spreads these into its indexes; `npm run db:generate` writes
 * them into a migration.
 */
export const listIndexes = (
  table: string,
  t: Record<string, AnyPgColumn>,
  def: Pick<EntityDefinition, 'scope' | 'sort' | 'search' | 'fields' | 'byProperty'>,
): IndexBuilder[] => {
  const column = (f: string) => {
    const c = t[f];
    if (!c) throw new Error(`${table}: the list's field ${f} is not a column of the table`);
    return c;
  };
  const company = def.scope === 'company' ? t.company_id : undefined;
  const id = column('id');
  const ordered = [
    ...def.sort.filter((f) => f !== 'id'),
    ...def.fields.filter((f) => f.kind === 'enum' && !def.sort.includes(f.name)).map((f) => f.name),
  ];
  const sorts = ordered.map((f) =>
    company
      ? index(`${table}_${f}_list_idx`).on(company, column(f), id)
      : index(`${table}_${f}_list_idx`).on(column(f), id),
  );
  // the rows of one property (`property_id`), newest first
  const byProperty =
    def.byProperty && company
      ? [index(`${table}_property_id_list_idx`).on(company, column('property_id'), id)]
      : [];
  const searches = def.search.map((f) => {
    const c = column(f);
    const kind = columnKind(c);
    // an index's expression other than a column or a function call is written in parentheses
    const text = searchExpression({ kind }, `"${c.name}"`);
    const expr: SQL = sql.raw(kind === 'text' || kind === 'date' ? text : `(${text})`);
    return index(`${table}_${f}_trgm_idx`).using('gin', sql`${expr} gin_trgm_ops`);
  });
  return [...sorts, ...byProperty, ...searches];
};
