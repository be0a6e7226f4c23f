import { sql, type SQL } from 'drizzle-orm';
import { AppError, type SessionUser } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { isCounted } from '../db/derived.ts';
import { PgDialect } from 'drizzle-orm/pg-core';
import { SEARCH_COLUMN } from '../db/list-indexes.ts';
import { columnFacts } from '../db/columns.ts';
import { fromClause, likePattern, presentRow, selectList } from './sql.ts';
import { scopeCondition, type ListQuery, type ServerEntity } from './server-entity.ts';
import { companyCallingCode, phoneSearchDigits } from '../modules/companies/phones.ts';

/**
 * The list of an entity, in one statement shape:
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

/**
 * A searched or filtered list is counted up to this many rows, and said to hold "more than" that
 * beyond: counting every match of a broad search (a common name in 200,000 payments) is work in
 * proportion to the matches, for a number no one pages through; the pages themselves are read from
 * indexes as usual, past the limit too.
 */
export const COUNT_LIMIT = 1_000;

/** The column of a page's rows that carries the list's total (X-Total-Count). */
const TOTAL = 'kodi_total';

const searchText = (query: { q?: string | undefined }) => query.q?.trim() || undefined;

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
 * digits as typed and its national number read with the company's country (lib/phones.ts), so that
 * '0772 123456', '0772123456', '+256 772 123 456' and '772123456' find the same tenant whatever way
 * its phone was written (`search_text` keeps phones without their separators: db/list-indexes.ts).
 */
export const phoneSearch = async (
  database: Database,
  e: ServerEntity,
  user: SessionUser,
  query: { q?: string | undefined },
): Promise<string[] | undefined> => {
  const q = searchText(query);
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
  const q = searchText(query);
  if (q) {
    filtered = true;
    const pattern = likePattern(q);
    if (columnFacts(e.sql.table).has(SEARCH_COLUMN)) {
      const terms = [q, ...phones.filter((p) => p !== q)].map(
        (term) => sql`${sql.raw(`t.${SEARCH_COLUMN}`)} LIKE lower(${likePattern(term)})`,
      );
      parts.push(terms.length === 1 ? (terms[0] as SQL) : sql`(${sql.join(terms, sql` OR `)})`);
    } else {
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
  for (const { field, value } of parseFilter(query.filter)) {
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

/** The spec's `{"field":"company_id","value":N}`, or a list of such. */
const parseFilter = (filter: string | undefined): { field: string; value: string | number | boolean }[] => {
  if (!filter) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(filter);
  } catch {
    throw new AppError('validation_failed', 'The filter is not valid JSON.', { filter: 'Invalid JSON.' });
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).map((f) => {
    const { field, value } = (f ?? {}) as { field?: unknown; value?: unknown };
    if (
      typeof field !== 'string' ||
      (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    )
      throw unknownFilter(field);
    return { field, value };
  });
};

/**
 * ORDER BY a sort field, then `t.id` in the same direction (the `(company_id, <field>, id)` index
 * serves both directions; NULLs go where that index puts them: last going up, first going down).
 * `reverse`: the opposite order, to read a page from the end.
 */
export const listOrder = (e: ServerEntity, sort: string | undefined, reverse = false) => {
  let desc = true;
  let field = 'id';
  if (sort) {
    desc = sort.startsWith('-');
    field = desc ? sort.slice(1) : sort;
    if (!e.def.sort.includes(field))
      throw new AppError('validation_failed', `Unknown sort field: ${field}.`, { sort: 'Unknown field.' });
  }
  const dir = desc !== reverse ? 'DESC' : 'ASC';
  const column = field === 'id' ? undefined : listColumn(e, field).name;
  /** the order over `alias`'s columns: `t` the table, `page` the page's keys */
  return (alias: 't' | 'page') =>
    sql.raw(
      column
        ? `${alias}.${alias === 't' ? column : SORT_KEY} ${dir}, ${alias}.id ${dir}`
        : `${alias}.id ${dir}`,
    );
};

/** The page's sort key, read with its ids: the page is joined in that order, never sorted again. */
const SORT_KEY = 'kodi_sort';
const sortKey = (e: ServerEntity, sort: string | undefined): string => {
  const field = sort?.replace(/^-/, '');
  return field && field !== 'id' ? `, t.${listColumn(e, field).name} AS ${SORT_KEY}` : '';
};

/**
 * The total of a list: the company's row count when nothing narrows it; else counted, up to one
 * more than COUNT_LIMIT (which says "more than").
 */
const totalOf = (e: ServerEntity, user: SessionUser, where: SQL, filtered: boolean): SQL =>
  !filtered && !e.scope && e.def.scope === 'company' && isCounted(e.sql.table)
    ? sql`COALESCE((SELECT n FROM row_counts WHERE company_id = ${user.company_id} AND table_name = ${e.sql.table}), 0)::int`
    : filtered
      ? sql`(SELECT count(*)::int FROM (SELECT 1 FROM ${sql.raw(e.sql.table)} t WHERE ${where}
                                          LIMIT ${sql.raw(String(COUNT_LIMIT + 1))}) c)`
      : sql`(SELECT count(*)::int FROM ${sql.raw(e.sql.table)} t WHERE ${where})`;

/** What a total says: the number, and whether it is all the rows (a count stopped past the limit). */
const totalSays = (n: number, filtered: boolean) =>
  filtered && n > COUNT_LIMIT ? { total: COUNT_LIMIT, exact: false } : { total: n, exact: true };

/** The statement of one page: `limit` rows after `offset` in `order`, each with the total. */
export const pageStatement = (
  e: ServerEntity,
  where: SQL,
  total: SQL,
  sort: string | undefined,
  reverse: boolean,
  limit: number,
  offset: number,
): SQL => {
  const owned = e.def.scope === 'company';
  const key = owned ? 't.company_id, t.id' : 't.id';
  const join = owned ? 't.company_id = page.company_id AND t.id = page.id' : 't.id = page.id';
  const order = listOrder(e, sort, reverse);
  return sql`SELECT ${selectList(e.def, e.sql, { list: true })}, ${total} AS ${sql.raw(TOTAL)}
               FROM (SELECT ${sql.raw(key + sortKey(e, sort))} FROM ${sql.raw(e.sql.table)} t WHERE ${where}
                      ORDER BY ${order('t')} LIMIT ${sql.raw(String(limit))} OFFSET ${sql.raw(String(offset))}) page
               JOIN ${fromClause(e.sql)} ON ${sql.raw(join)}
              ORDER BY ${order('page')}`;
};

const dialect = new PgDialect();

/** Pages this deep are read from whichever end of the list is nearer. */
const DEEP = 1000;

/** One page of a list, with the list's total. */
export const listRecords = async (
  database: Database,
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
): Promise<ListPage> => {
  const { where, filtered } = listWhere(e, user, query, await phoneSearch(database, e, user, query));
  listOrder(e, query.sort); // an unknown sort is refused whatever the page
  const total = totalOf(e, user, where, filtered);
  const offset = (query.page - 1) * query.page_size;
  const present = (rows: Record<string, unknown>[]) => rows.map((r) => presentRow(e.def, r, TOTAL));
  const run = (st: SQL) => {
    const q = dialect.sqlToQuery(st);
    return database.query<Record<string, unknown>>(q.sql, q.params);
  };

  let count: number | undefined;
  if (offset >= DEEP) {
    count = Number((await run(sql`SELECT ${total} AS n`))[0]?.n ?? 0);
    const fromEnd = count - offset - query.page_size;
    // only an exact count tells where the end is; past a counted limit, pages are read forwards
    if (count <= COUNT_LIMIT || !filtered) {
      if (offset >= count) return { rows: [], total: count, exact: true };
      if (Math.max(0, fromEnd) < offset) {
        // nearer the end: the rows before the page's end, read backwards, turned round
        const limit = query.page_size + Math.min(0, fromEnd);
        const st = pageStatement(e, where, sql`${count}::int`, query.sort, true, limit, Math.max(0, fromEnd));
        return { rows: present(await run(st)).reverse(), total: count, exact: true };
      }
    }
  }
  const st = pageStatement(
    e,
    where,
    count === undefined ? total : sql`${count}::int`,
    query.sort,
    false,
    query.page_size,
    offset,
  );
  const rows = await run(st);
  const first = rows[0];
  if (first) return { rows: present(rows), ...totalSays(Number(first[TOTAL]), filtered) };
  // no row: an empty list, or a page past its end
  const n = count ?? (query.page === 1 ? 0 : Number((await run(sql`SELECT ${total} AS n`))[0]?.n ?? 0));
  return { rows: [], ...totalSays(n, filtered) };
};
