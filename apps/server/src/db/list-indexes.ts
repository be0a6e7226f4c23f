import { sql } from 'drizzle-orm';
import { index, text, type AnyPgColumn, type IndexBuilder } from 'drizzle-orm/pg-core';
import type { EntityDefinition, FieldKind } from '@kodi/domain';

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

/** The column every list search reads: see `searchColumn`. */
export const SEARCH_COLUMN = 'search_text';

/** Separates the fields in `search_text`: no one types it, so no match runs across two fields. */
const SEPARATOR = "E'\\x1f'";

const NUMERIC_KINDS: ReadonlySet<FieldKind> = new Set(['integer', 'number', 'money', 'percent', 'reference']);

/**
 * A searched field as text, over the row's own columns: dates as `YYYY-MM-DD`, numbers as digits,
 * phones without their separators ('0772 123 456' → '0772123456': a search typed like a phone looks
 * for its digits, crud/list.ts `phoneSearch`).
 */
const fieldText = (def: Pick<EntityDefinition, 'fields'>, name: string, computed: Record<string, string>) => {
  if (computed[name]) return `(${computed[name]})`;
  const kind = def.fields.find((f) => f.name === name)?.kind;
  if (kind === 'date') return `iso_date_text(${name})`;
  if (kind === 'phone') return `translate(${name}, ' .-()', '')`;
  if (!kind || NUMERIC_KINDS.has(kind)) return `(${name})::text`;
  return `${name}::text`;
};

/**
 * The text a list's search (`q`) matches, kept by PostgreSQL with the row (a stored generated
 * column): the entity's searched fields, lowercased, one after the other with a separator no one
 * types. One trigram index on it serves every search, which is one `LIKE lower('%words%')` per row
 * instead of an ILIKE per field: three to four times less work per row read, and one index to keep
 * on each write instead of one per field. `computed`: a searched field that is itself computed
 * (a generated column cannot read another), as its expression (`full_name`).
 */
export const searchColumn = (
  def: Pick<EntityDefinition, 'fields' | 'search'>,
  computed: Record<string, string> = {},
) => searchTextColumn(def.search.map((f) => fieldText(def, f, computed)));

/**
 * A `search_text` column of a table that is no entity's (a feature's list: crud/paged-list.ts):
 * these text expressions over the row's own columns, lowercased, one after the other with the
 * separator, kept by PostgreSQL with the row; `searchIndex` is its trigram index.
 */
export const searchTextColumn = (texts: readonly string[]) =>
  text().generatedAlwaysAs(
    sql.raw(`lower(${texts.map((e) => `COALESCE(${e}, '')`).join(` || ${SEPARATOR} || `)})`),
  );

/** The trigram index of a table's `search_text`: what serves its list's search. */
export const searchIndex = (table: string, column: AnyPgColumn) =>
  index(`${table}_search_trgm_idx`).using('gin', sql`${column} gin_trgm_ops`);

/**
 * The indexes every list of an entity is read from, derived from its definition: for each field it
 * sorts or filters by, `(company_id, <field>, id)` (one index serves both directions and any page),
 * and a trigram index of its `search_text` (`searchColumn`) when it has searched fields; a list of
 * one property's rows (`byProperty`) reads `(company_id, property_id, id)`.
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
  const searched = t[SEARCH_COLUMN];
  if (def.search.length > 0 && !searched)
    throw new Error(`${table}: its lists search, give it a ${SEARCH_COLUMN}`);
  const searches = searched ? [searchIndex(table, searched)] : [];
  return [...sorts, ...byProperty, ...searches];
};
