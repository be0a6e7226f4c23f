import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { AppError } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { SEARCH_COLUMN } from '../db/list-indexes.ts';
import { likePattern } from './sql.ts';

/**
 * Every paged list in one statement shape (the entities' lists, crud/list.ts, and the features' own:
 * users, the audit log, imports, a property's units, messages, templates, statements and their lines):
 *
 *   SELECT <the rows' columns>, <total> AS kodi_total
 *     FROM (SELECT <key>, <order's values> FROM <table> t
 *            WHERE <scope> AND <filters> AND <search> ORDER BY <order> LIMIT n OFFSET m) page
 *     JOIN <table> t ON <page's key> <joins for the rows' other columns>
 *    ORDER BY <order of the page's values>
 *
 * The page's keys are chosen on the table alone, from an index of it (its order's, its filter's, or
 * the trigram index of its `search_text`: `searchCondition`); only the page's rows are then joined
 * for what they show. The total is what the caller keeps of an unfiltered list (`total`, the
 * company's `row_counts` row), else counted: all the rows when nothing narrows the list, up to
 * COUNT_LIMIT + 1 when a search or filter does ("more than" COUNT_LIMIT beyond). A page nearer the
 * end than the start is read from the end, in the reverse order, and turned round.
 */
export type OrderKey = {
  /** an expression over the table's row `t` (its own columns; a scalar subquery for a referenced name) */
  expr: string;
  desc: boolean;
  /** where NULLs go; the default is PostgreSQL's (last going up, first going down: a btree's order) */
  nulls?: 'first' | 'last' | undefined;
};

export type PagedListSource = {
  /** the table the page's keys are read from, as `t` */
  table: string;
  /** the columns that identify a row of it: the page's rows are joined on them */
  key: readonly ('company_id' | 'id')[];
  /** the conditions over `t`, ANDed: the scope first, then filters and the search */
  where: readonly SQL[];
  /** whether `where` narrows the list beyond its scope: its total is then counted up to COUNT_LIMIT */
  filtered: boolean;
  /** whether `where` holds a search (`searchCondition`): see `pagedList` */
  searched?: boolean | undefined;
  /** the order, over `t`; `t.id` last, so that every page is one slice of one order */
  order: readonly OrderKey[];
  /** the rows' columns, over `t` and `joins` */
  columns: SQL;
  /** joined to the page's rows only (names of referenced rows) */
  joins?: SQL | undefined;
  /** the total of the unfiltered list when it is kept somewhere (`row_counts`): not counted then */
  keptTotal?: SQL | undefined;
};

export type Paged<Row> = {
  rows: Row[];
  total: number;
  /** false: the list holds more than `total` rows (a search or filter counted up to COUNT_LIMIT) */
  exact: boolean;
};

export type PageQuery = { page: number; page_size: number };

/**
 * A searched or filtered list is counted up to this many rows, and said to hold "more than" that
 * beyond: counting every match of a broad search (a common name in 200,000 payments) is work in
 * proportion to the matches, for a number no one pages through; the pages themselves are read from
 * indexes as usual, past the limit too.
 */
export const COUNT_LIMIT = 1_000;

/** The column of a page's rows that carries the list's total (X-Total-Count). */
export const TOTAL = 'kodi_total';

/** Pages this deep are read from whichever end of the list is nearer. */
const DEEP = 1000;

/** A search's words, or nothing (blank). */
export const searchWords = (q: string | undefined): string | undefined => q?.trim() || undefined;

/**
 * A list's search: its table's `search_text` (its searched fields, lowercased, kept with the row)
 * LIKE the words, through the table's trigram index (db/list-indexes.ts).
 */
export const searchCondition = (q: string, alias = 't'): SQL =>
  sql`${sql.raw(`${alias}.${SEARCH_COLUMN}`)} LIKE lower(${likePattern(q)})`;

/**
 * The order of a `sort` query (`field` or `-field`) over `sorts` (field → expression over `t`), then
 * `t.id` the same way; no sort: `fallback`. An unknown field is refused.
 */
export const sortOrder = (
  sort: string | undefined,
  sorts: Readonly<Record<string, string>>,
  fallback: readonly OrderKey[],
  nulls?: (desc: boolean) => OrderKey['nulls'],
): OrderKey[] => {
  if (!sort) return [...fallback];
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  const expr = Object.hasOwn(sorts, field) ? sorts[field] : undefined;
  if (expr === undefined)
    throw new AppError('validation_failed', `Unknown sort field: ${field}.`, { sort: 'Unknown field.' });
  return expr === 't.id'
    ? [{ expr, desc }]
    : [
        { expr, desc, nulls: nulls?.(desc) },
        { expr: 't.id', desc },
      ];
};

const ID = 't.id';
const valueName = (i: number) => `kodi_o${i}`;

/** ORDER BY the keys over `t`, or over the page's values; `reverse`: the opposite order (read from the end). */
const orderBy = (order: readonly OrderKey[], alias: 't' | 'page', reverse: boolean): string =>
  order
    .map((k, i) => {
      const desc = k.desc !== reverse;
      const nulls = k.nulls ? ` NULLS ${(k.nulls === 'last') !== reverse ? 'LAST' : 'FIRST'}` : '';
      const expr = alias === 't' ? k.expr : k.expr === ID ? 'page.id' : `page.${valueName(i)}`;
      return `${expr} ${desc ? 'DESC' : 'ASC'}${nulls}`;
    })
    .join(', ');

/** The total of a list: kept, counted, or counted up to one more than COUNT_LIMIT. */
const totalOf = (s: PagedListSource, where: SQL): SQL =>
  !s.filtered && s.keptTotal
    ? s.keptTotal
    : s.filtered
      ? sql`(SELECT count(*)::int FROM (SELECT 1 FROM ${sql.raw(s.table)} t WHERE ${where}
                                          LIMIT ${sql.raw(String(COUNT_LIMIT + 1))}) c)`
      : sql`(SELECT count(*)::int FROM ${sql.raw(s.table)} t WHERE ${where})`;

/** What a total says: the number, and whether it is all the rows (a count stopped past the limit). */
const totalSays = (n: number, filtered: boolean) =>
  filtered && n > COUNT_LIMIT ? { total: COUNT_LIMIT, exact: false } : { total: n, exact: true };

/**
 * The statement of one page: `limit` rows after `offset` in the order (or its reverse), each with
 * `total`. `few`: the WHERE matches few rows (a search counted under COUNT_LIMIT), which are read
 * all through its index and sorted (an `OFFSET 0` subquery, planned without the page's LIMIT).
 */
export const pageStatement = (
  s: PagedListSource,
  where: SQL,
  total: SQL,
  reverse: boolean,
  limit: number,
  offset: number,
  few = false,
): SQL => {
  const values = s.order.flatMap((k, i) => (k.expr === ID ? [] : [`${k.expr} AS ${valueName(i)}`]));
  const keys = s.key.map((c) => `t.${c}`);
  const join = s.key.map((c) => `t.${c} = page.${c}`).join(' AND ');
  const picked = sql`SELECT ${sql.raw([...keys, ...values].join(', '))} FROM ${sql.raw(s.table)} t WHERE ${where}`;
  const slice = sql.raw(`LIMIT ${limit} OFFSET ${offset}`);
  const page = few
    ? sql`SELECT * FROM (${picked} OFFSET 0) page ORDER BY ${sql.raw(orderBy(s.order, 'page', reverse))} ${slice}`
    : sql`${picked} ORDER BY ${sql.raw(orderBy(s.order, 't', reverse))} ${slice}`;
  return sql`SELECT ${s.columns}, ${total} AS ${sql.raw(TOTAL)}
               FROM (${page}) page
               JOIN ${sql.raw(s.table)} t ON ${sql.raw(join)} ${s.joins ?? sql``}
              ORDER BY ${sql.raw(orderBy(s.order, 'page', reverse))}`;
};

const dialect = new PgDialect();

/** One page of a list, with the list's total (`kodi_total` is not among the rows' columns). */
export const pagedList = async <Row extends Record<string, unknown> = Record<string, unknown>>(
  database: Pick<Database, 'query'>,
  s: PagedListSource,
  query: PageQuery,
): Promise<Paged<Row>> => {
  const where = sql.join([...s.where], sql` AND `);
  const total = totalOf(s, where);
  const offset = (query.page - 1) * query.page_size;
  const run = async (st: SQL) => {
    const q = dialect.sqlToQuery(st);
    return database.query<Record<string, unknown>>(q.sql, q.params);
  };
  const rowsOf = (rows: Record<string, unknown>[]) => rows.map(({ [TOTAL]: _total, ...row }) => row as Row);
  const count = async () => Number((await run(sql`SELECT ${total} AS n`))[0]?.n ?? 0);

  let counted: number | undefined;
  let few = false;
  if (s.searched) {
    // A search is counted first, through its trigram index: a search that finds few rows has its
    // matches read from that index and sorted (the order's index read newest first would pass over
    // every row that does not match, all 200,000 when the few are the oldest); one that finds more
    // than COUNT_LIMIT walks the order's index, where its matches are dense enough to come soon.
    counted = await count();
    if (counted === 0 || (counted <= COUNT_LIMIT && offset >= counted))
      return { rows: [], total: counted, exact: true };
    few = counted <= COUNT_LIMIT;
  }
  if (offset >= DEEP && !few) {
    counted ??= await count();
    const fromEnd = counted - offset - query.page_size;
    // only an exact count tells where the end is; past a counted limit, pages are read forwards
    if (counted <= COUNT_LIMIT || !s.filtered) {
      if (offset >= counted) return { rows: [], total: counted, exact: true };
      if (Math.max(0, fromEnd) < offset) {
        // nearer the end: the rows before the page's end, read backwards, turned round
        const limit = query.page_size + Math.min(0, fromEnd);
        const st = pageStatement(s, where, sql`${counted}::int`, true, limit, Math.max(0, fromEnd));
        return { rows: rowsOf(await run(st)).reverse(), total: counted, exact: true };
      }
    }
  }
  const st = pageStatement(
    s,
    where,
    counted === undefined ? total : sql`${counted}::int`,
    false,
    query.page_size,
    offset,
    few,
  );
  const rows = await run(st);
  const first = rows[0];
  if (first) return { rows: rowsOf(rows), ...totalSays(Number(first[TOTAL]), s.filtered) };
  // no row: an empty list, or a page past its end
  const n = counted ?? (query.page === 1 ? 0 : await count());
  return { rows: [], ...totalSays(n, s.filtered) };
};

/** The list's total in `X-Total-Count`, and `X-Total-Count-Exact: false` when it holds more. */
export const sendTotal = (reply: FastifyReply, page: Pick<Paged<unknown>, 'total' | 'exact'>): void => {
  void reply.header('X-Total-Count', String(page.total));
  if (!page.exact) void reply.header('X-Total-Count-Exact', 'false');
};
