import { sql, type SQL } from 'drizzle-orm';
import { AppError, type SessionUser } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { isCounted } from '../db/derived.ts';
import { SEARCH_COLUMN } from '../db/list-indexes.ts';
import { columnFacts } from '../db/columns.ts';
import { likePattern, presentRow, selectList } from './sql.ts';
import {
  pagedList,
  searchCondition,
  searchWords,
  sortOrder,
  type OrderKey,
  type PagedListSource,
} from './paged-list.ts';
import { scopeCondition, type ListQuery, type ServerEntity } from './server-entity.ts';
import { companyCallingCode, phoneSearchDigits } from '../modules/companies/phones.ts';

/**
 * The list of an entity, in the one statement shape of every paged list (crud/paged-list.ts):
 *
 *   SELECT <the record's columns>, <total> AS kodi_total
 *     FROM (SELECT company_id, id FROM <table> t
 *            WHERE <company> AND <search> AND <filter> ORDER BY <sort>, id LIMIT n OFFSET m) page
 *     JOIN <table> t ON <page's key> <joins for the joined names>
 *    ORDER BY <sort>, id
 *
 * The page's ids are chosen on the table alone: every field a list searches, filters or sorts by is
 * a column of its own table (names of referenced rows are kept on the row: db/derived.ts), and each
 * has an index (db/list-indexes.ts: `(company_id, <field>, id)` for a sort or filter, a trigram
 * index for a search), so any page of any order is read from an index. Only the page's rows are
 * then joined for their referenced names. The total of an unfiltered list is the company's
 * `row_counts` row; a searched or filtered one is counted with the same WHERE.
 *
 * A page nearer the end than the start is read from the end, in the reverse order (the index read
 * backwards), and turned round: the last page of 200,000 rows costs what the first one does.
 */
export type ListPage = {
  rows: Record<string, unknown>[];
  total: number;
  /** false: the list holds more than `total` rows (a search or filter counted up to COUNT_LIMIT) */
  exact: boolean;
};

export { COUNT_LIMIT } from './paged-list.ts';

/** A list field: a column of the entity's table, as the list's statement must write it. */
const listColumn = (e: ServerEntity, field: string) => {
  const column = columnFacts(e.sql.table).get(field);
  if (!column) {
    // a table the schema does not know (a test's fixture entity) is taken at its word
    if (columnFacts(e.sql.table).size > 0)
      throw new Error(`${e.def.name}.${field}: a list's fields must be columns of ${e.sql.table}`);
    return { name: field, kind: 'text' as const, notNull: false };
  }
  return column;
};

/**
 * What a search typed like a phone also looks for, in a list that searches a phone field: its
 * digits as typed and its national number read with the company's country (modules/companies/phones.ts), so that
 * '0772 123456', '0772123456', '+256 772 123 456' and '772123456' find the same tenant whatever way
 * its phone was written (`search_text` keeps phones without their separators: db/list-indexes.ts).
 */
export const phoneSearch = async (
  database: Database,
  e: ServerEntity,
  user: SessionUser,
  query: { q?: string | undefined },
): Promise<string[] | undefined> => {
  const q = searchWords(query.q);
  if (!q || !e.def.search.some((f) => e.def.fields.find((d) => d.name === f)?.kind === 'phone')) return;
  if (!phoneSearchDigits(q, null)) return;
  return phoneSearchDigits(q, await companyCallingCode(database.db, user.company_id));
};

/**
 * The list's WHERE: the company from the session, the search (`search_text` LIKE the words, or
 * one of a phone's digits (`phones`, from `phoneSearch`), through its trigram index), the property (`property_id`, a column of the row: `(company_id,
 * property_id, id)`), the filter (a field's value, never widening the scope).
 */
export const listWhere = (
  e: ServerEntity,
  user: SessionUser,
  query: Omit<ListQuery, 'page' | 'page_size'>,
  phones: readonly string[] = [],
) => {
  const parts: SQL[] = [scopeCondition(e, user)];
  let filtered = false;
  const q = searchWords(query.q);
  if (q) {
    filtered = true;
    if (columnFacts(e.sql.table).has(SEARCH_COLUMN)) {
      const terms = [q, ...phones.filter((p) => p !== q)].map((term) => searchCondition(term));
      parts.push(terms.length === 1 ? (terms[0] as SQL) : sql`(${sql.join(terms, sql` OR `)})`);
    } else {
      const pattern = likePattern(q);
      // a table the schema does not know (a test's fixture): each field as text
      const terms = e.def.search.map((f) => sql`${sql.raw(`(t.${f})::text`)} ILIKE ${pattern}`);
      parts.push(sql`(${sql.join(terms, sql` OR `)})`);
    }
  }
  if (query.property_id !== undefined) {
    if (!e.def.byProperty) throw unknownFilter('property_id');
    filtered = true;
    parts.push(sql`t.property_id = ${query.property_id}`);
  }
  const filters = parseFilter(query.filter);
  // a status the list leaves out unless asked for (voided payments): not a filter, the total is kept
  if (e.hiddenStatus !== undefined && !filters.some((f) => f.field === 'status'))
    parts.push(sql`t.status <> ${e.hiddenStatus}`);
  for (const f of filters) {
    if ('from' in f) {
      // a range of a date field (issue 26: the dashboard's 'collected this month' opens the payments of the month)
      const def = e.def.fields.find((d) => d.name === f.field && d.kind === 'date');
      if (!def) throw unknownFilter(f.field);
      filtered = true;
      const column = sql.raw(`t.${listColumn(e, f.field).name}`);
      if (f.from !== null) parts.push(sql`${column} >= ${f.from}::date`);
      if (f.to !== null) parts.push(sql`${column} <= ${f.to}::date`);
      continue;
    }
    const { field, value } = f;
    if (field === 'company_id') {
      // The scope is the session's company; a filter for another one selects nothing.
      if (e.def.scope === 'company' && Number(value) !== user.company_id) {
        parts.push(sql`FALSE`);
        filtered = true;
      }
      continue;
    }
    const def = e.def.fields.find((d) => d.name === field && (d.kind === 'enum' || d.kind === 'reference'));
    if (!def) throw unknownFilter(field);
    filtered = true;
    parts.push(sql`${sql.raw(`t.${listColumn(e, field).name}`)} = ${String(value)}`);
  }
  return { where: sql.join(parts, sql` AND `), filtered };
};

const unknownFilter = (field: unknown) =>
  new AppError('validation_failed', `Unknown filter field: ${String(field)}.`, { filter: 'Unknown field.' });

type ListFilter =
  | { field: string; value: string | number | boolean }
  | { field: string; from: string | null; to: string | null };

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayOrNull = (field: string, v: unknown): string | null => {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || !ISO_DAY.test(v) || Number.isNaN(Date.parse(v)))
    throw new AppError('validation_failed', 'Use dates as YYYY-MM-DD.', {
      filter: `${field}: use YYYY-MM-DD.`,
    });
  return v;
};

/**
 * The spec's `{"field":"company_id","value":N}`, or a list of such; a date field's range is
 * `{"field":"payment_date","from":"2026-05-01","to":"2026-05-31"}` (either end may be left out).
 */
const parseFilter = (filter: string | undefined): ListFilter[] => {
  if (!filter) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(filter);
  } catch {
    throw new AppError('validation_failed', 'The filter is not valid JSON.', { filter: 'Invalid JSON.' });
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).map((f): ListFilter => {
    const { field, value, from, to } = (f ?? {}) as {
      field?: unknown;
      value?: unknown;
      from?: unknown;
      to?: unknown;
    };
    if (typeof field === 'string' && value === undefined && (from !== undefined || to !== undefined))
      return { field, from: dayOrNull(field, from), to: dayOrNull(field, to) };
    if (
      typeof field !== 'string' ||
      (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    )
      throw unknownFilter(field);
    return { field, value };
  });
};

/**
 * The order of a sort field, then `t.id` in the same direction (the `(company_id, <field>, id)` index
 * serves both directions; NULLs go where that index puts them: last going up, first going down).
 */
export const listOrderKeys = (e: ServerEntity, sort: string | undefined): OrderKey[] => {
  if (sort && !e.def.sort.includes(sort.replace(/^-/, '')))
    throw new AppError('validation_failed', `Unknown sort field: ${sort.replace(/^-/, '')}.`, {
      sort: 'Unknown field.',
    });
  const sorts = Object.fromEntries(
    e.def.sort.map((f) => [f, f === 'id' ? 't.id' : `t.${listColumn(e, f).name}`]),
  );
  return sortOrder(sort, sorts, [{ expr: 't.id', desc: true }]);
};

/** The ORDER BY of a list over `t` (its export reads the rows in the same order). */
export const listOrder = (e: ServerEntity, sort: string | undefined): SQL =>
  sql.raw(
    listOrderKeys(e, sort)
      .map((k) => `${k.expr} ${k.desc ? 'DESC' : 'ASC'}`)
      .join(', '),
  );

/** The entity's list as a paged list: its table, WHERE, order, columns and joins, and its kept total. */
const pagedSource = (
  e: ServerEntity,
  user: SessionUser,
  query: Omit<ListQuery, 'page' | 'page_size'>,
  phones: readonly string[] = [],
): PagedListSource => {
  const { where, filtered } = listWhere(e, user, query, phones);
  const owned = e.def.scope === 'company';
  return {
    table: e.sql.table,
    key: owned ? ['company_id', 'id'] : ['id'],
    where: [where],
    filtered,
    searched: searchWords(query.q) !== undefined,
    order: listOrderKeys(e, query.sort),
    columns: selectList(e.def, e.sql, { list: true }),
    joins: e.sql.joins ? sql.raw(e.sql.joins) : undefined,
    // an unfiltered list's total is the company's row count
    keptTotal:
      !e.scope && owned && isCounted(e.sql.table)
        ? e.hiddenStatus === undefined
          ? sql`COALESCE((SELECT n FROM row_counts WHERE company_id = ${user.company_id} AND table_name = ${e.sql.table}), 0)::int`
          : sql`(COALESCE((SELECT n FROM row_counts WHERE company_id = ${user.company_id} AND table_name = ${e.sql.table}), 0)
                 - COALESCE((SELECT n FROM status_counts WHERE company_id = ${user.company_id} AND table_name = ${e.sql.table}
                              AND status = ${e.hiddenStatus}), 0))::int`
        : undefined,
  };
};

/** One page of a list, with the list's total. */
export const listRecords = async (
  database: Database,
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
): Promise<ListPage> => {
  const phones = await phoneSearch(database, e, user, query);
  const page = await pagedList(database, pagedSource(e, user, query, phones), query);
  return { ...page, rows: page.rows.map((r) => presentRow(e.def, r)) };
};
