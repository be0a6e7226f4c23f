import { sql, type SQL } from 'drizzle-orm';
import { AppError, type EntityDefinition, type SessionUser } from '@kodi/domain';
import { PgDialect } from 'drizzle-orm/pg-core';
import { execRows, type Database, type DbOrTx } from '../db/client.ts';
import {
  fieldExpression,
  fromClause,
  isHeavy,
  likePattern,
  presentRow,
  selectList,
  type EntitySql,
  type SearchVia,
} from './sql.ts';
import { COUNTED_TABLES, KEY_COUNTED, tableFacts } from './list-sql.ts';
import { jsonWeight, keptAnswer, keptFactsOf } from './kept-facts.ts';
import { SESSION_CHECK_COLUMN, sessionCheckColumn, type SessionCheck } from '../plugins/session.ts';

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
  /**
   * `prepare` for several new records at once (one statement for all of them): each one's values,
   * or the AppError it answers alone. Creations sent together use it instead of `prepare`.
   */
  prepareMany?: (args: {
    tx: DbOrTx;
    companyId: number;
    values: Record<string, unknown>[];
  }) => Promise<(Record<string, unknown> | AppError)[]>;
};

export type ListQuery = { page: number; page_size: number; q?: string; sort?: string; filter?: string };

const scopeCondition = (e: ServerEntity, user: SessionUser): SQL =>
  e.scope ? e.scope(user) : e.def.scope === 'company' ? sql`t.company_id = ${user.company_id}` : sql`TRUE`;

/**
 * What a search's lookup found: per `searchVia` field, the ids of the referenced rows whose field
 * matches; and, when the search matches through one such field alone, the list's total (the sum of
 * those rows' `key_counts`), so that the rows need not be counted.
 */
export type SearchMatches = {
  ids: Record<string, number[]>;
  total?: number;
  /** how many rows the entity's own search fields match (0: their ILIKEs can be left out) */
  others?: number;
};

const searchText = (query: { q?: string | undefined }) => query.q?.trim() || undefined;

/** The search fields answered through their referenced table (company-owned entities only). */
const viaFields = (e: ServerEntity): [string, SearchVia][] =>
  e.def.scope === 'company' && !e.scope
    ? e.def.search.flatMap((f) => {
        const via = e.sql.searchVia?.[f];
        return via ? [[f, via] as [string, SearchVia]] : [];
      })
    : [];

const ilike = (e: ServerEntity, field: string, pattern: string) =>
  sql`${sql.raw(`(${fieldExpression(e.sql, field)})::text`)} ILIKE ${pattern}`;

/**
 * The one query a search runs first when it matches joined fields through their own table: per such
 * field the matching ids (`ARRAY(SELECT id FROM tenants WHERE ... ILIKE ...)`) and the sum of their
 * key counts, and how many rows the other search fields match (`others`). Undefined when not needed.
 * `others` is a count, not an EXISTS: for a pattern the planner expects in a few rows, EXISTS reads
 * the table in order hoping to stop early (a whole table when nothing matches); a count goes
 * through the trigram indexes.
 */
export const searchLookup = (
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
  versions?: readonly string[],
): SQL | undefined => {
  const q = searchText(query);
  const fields = viaFields(e);
  if (!q || fields.length === 0) return undefined;
  const pattern = likePattern(q);
  const counted = KEY_COUNTED[e.sql.table] ?? [];
  const others = e.def.search.filter((f) => !e.sql.searchVia?.[f]);
  const facts = tableFacts(e.sql);
  const ctes = fields.map(
    ([f, via]) =>
      sql`${sql.raw(f)} AS MATERIALIZED (SELECT id FROM ${sql.raw(via.table)} WHERE company_id = ${user.company_id}
            AND ${sql.raw(`(${via.expression})::text`)} ILIKE ${pattern})`,
  );
  const columns = fields.flatMap(([f, via]) => [
    sql`ARRAY(SELECT id FROM ${sql.raw(f)}) AS ${sql.raw(f)}`,
    counted.includes(via.key)
      ? sql`(SELECT COALESCE(sum(n), 0) FROM key_counts WHERE company_id = ${user.company_id}
               AND table_name = ${e.sql.table} AND key_name = ${via.key}
               AND key_value = ANY(ARRAY(SELECT id FROM ${sql.raw(f)})))::bigint AS ${sql.raw(`${f}__n`)}`
      : sql`NULL::bigint AS ${sql.raw(`${f}__n`)}`,
  ]);
  const joins = others.some((f) => facts.usesJoins(f));
  columns.push(
    others.length > 0
      ? sql`(SELECT count(*) FROM ${sql.raw(joins ? facts.from : facts.base)} WHERE ${scopeCondition(e, user)}
                      AND (${sql.join(
                        others.map((f) => ilike(e, f, pattern)),
                        sql` OR `,
                      )}))::bigint AS others`
      : sql`0::bigint AS others`,
  );
  if (versions) columns.push(sql`${versionsOf(user, versions)} AS ${sql.raw(VERSIONS_COLUMN)}`);
  return sql`WITH ${sql.join(ctes, sql`, `)} SELECT ${sql.join(columns, sql`, `)}`;
};

const dialect = new PgDialect();

/** Runs drizzle SQL through the database's raw query (prepared: a named statement on PostgreSQL). */
const run = <T extends Record<string, unknown>>(database: Database, s: SQL, prepared = false) => {
  const q = dialect.sqlToQuery(s);
  return prepared ? database.prepared<T>(q.sql, q.params) : database.query<T>(q.sql, q.params);
};

/** Runs the search lookup, if the search needs one. */
export const findSearchMatches = async (
  database: Database,
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
): Promise<SearchMatches> => {
  const lookup = searchLookup(e, user, query);
  if (!lookup) return { ids: {} };
  return searchMatches(e, query, (await run(database, lookup))[0] ?? {});
};

/** What the lookup's row says (see `searchLookup`). */
export const searchMatches = (
  e: ServerEntity,
  query: ListQuery,
  row: Record<string, unknown>,
): SearchMatches => {
  const fields = viaFields(e).map(([f]) => f);
  const ids = Object.fromEntries(fields.map((f) => [f, toIds(row[f])]));
  const matching = fields.filter((f) => (ids[f]?.length ?? 0) > 0);
  const only = matching[0];
  const others = Number(row.others ?? 0);
  // the total is known when the matches come through one kind of field only (no overlap to remove)
  const total =
    query.filter || matching.length > 1
      ? undefined
      : !only
        ? others
        : others === 0 && row[`${only}__n`] !== null
          ? Number(row[`${only}__n`])
          : undefined;
  return { ids, others, ...(total !== undefined ? { total } : {}) };
};

/** An int[] as both drivers answer it (an array, or its text form). */
const toIds = (v: unknown): number[] =>
  Array.isArray(v)
    ? v.map(Number)
    : typeof v === 'string'
      ? v.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number)
      : [];

type Conditions = {
  where: SQL;
  /** the WHERE reads a joined table. */
  joins: boolean;
  /** anything beyond the company scope (a search or a filter). */
  filtered: boolean;
};

const conditions = (
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
  matches: SearchMatches,
): Conditions => {
  const facts = tableFacts(e.sql);
  const parts: SQL[] = [scopeCondition(e, user)];
  let joins = false;
  let filtered = false;
  const q = searchText(query);
  if (q) {
    filtered = true;
    const pattern = likePattern(q);
    const via = new Map(viaFields(e));
    // a field through its table with no match, or the own fields when the lookup found that none
    // of them matches, is left out: each row is checked only where it can match
    const terms = e.def.search.flatMap((f) => {
      const through = via.get(f);
      if (through) {
        // a PostgreSQL array literal as one text parameter, planned as a constant: an index
        // condition when the ids are rare, else a hashed test of each row read in the list's order
        // (PostgreSQL 14 and later hash `= ANY(constant array)`; `IN (SELECT unnest(...))` alone
        // became a semi-join comparing each row with every id)
        const ids = matches.ids[f] ?? [];
        if (ids.length === 0) return [];
        return [sql`${sql.raw(`t.${through.key}`)} = ANY(${`{${ids.join(',')}}`}::int[])`];
      }
      if (matches.others === 0) return [];
      joins ||= facts.usesJoins(f);
      return [ilike(e, f, pattern)];
    });
    parts.push(terms.length > 0 ? sql`(${sql.join(terms, sql` OR `)})` : sql`FALSE`);
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
        if (e.def.scope === 'company' && Number(value) !== user.company_id) {
          parts.push(sql`FALSE`);
          filtered = true;
        }
      } else {
        filtered = true;
        joins ||= facts.usesJoins(field as string);
        parts.push(sql`${sql.raw(`(${fieldExpression(e.sql, field as string)})::text`)} = ${String(value)}`);
      }
    }
  }
  return { where: sql.join(parts, sql` AND `), joins, filtered };
};

/**
 * WHERE for a list: the company from the session, the search, the filter (which never widens the scope).
 * A search on joined fields looks their matches up first (see `searchLookup`).
 */
export const listWhere = async (
  database: Database,
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
): Promise<SQL> => conditions(e, user, query, await findSearchMatches(database, e, user, query)).where;

type Order = {
  sql: string;
  joins: boolean;
  /**
   * The order's columns when they are the table's own and never NULL, so that a row's position can
   * be told by comparing `(col, id)` with its own (a deep page starts from a kept position).
   */
  key?: { columns: string[]; desc: boolean };
};

/**
 * ORDER BY a sort field, then `t.id` in the same direction, so that a `(company_id, <col>, id)` index
 * can serve it both ways. NULLS LAST only where a column may hold NULL (ASC puts them last anyway).
 */
const orderOf = (e: ServerEntity, sort: string | undefined): Order => {
  if (!sort) return { sql: 't.id DESC', joins: false, key: { columns: ['id'], desc: true } };
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  if (!e.def.sort.includes(field)) {
    throw new AppError('validation_failed', `Unknown sort field: ${field}.`, { sort: 'Unknown field.' });
  }
  const dir = desc ? 'DESC' : 'ASC';
  if (field === 'id') return { sql: `t.id ${dir}`, joins: false, key: { columns: ['id'], desc } };
  const facts = tableFacts(e.sql);
  const plain = field === 'created_at' || !e.sql.expressions?.[field];
  const expr = plain ? `t.${field}` : fieldExpression(e.sql, field);
  const nulls = desc && !(plain && facts.notNull.has(field)) ? ' NULLS LAST' : '';
  return {
    sql: `${expr} ${dir}${nulls}, t.id ${dir}`,
    joins: !plain && facts.usesJoins(field),
    ...(plain && facts.notNull.has(field) ? { key: { columns: [field, 'id'], desc } } : {}),
  };
};

export const orderBy = (e: ServerEntity, sort: string | undefined): SQL => sql.raw(orderOf(e, sort).sql);

/**
 * First pages of these sizes are written with a literal LIMIT and no OFFSET: with only the company
 * left as a parameter, PostgreSQL plans their prepared statement once (a generic plan) instead of
 * at every request (a LIMIT or OFFSET parameter makes it plan for 10% of the rows, so it never
 * settles on a generic plan). Other pages keep their parameters and are planned each time.
 */
const PREPARED_PAGE_SIZES = new Set([10, 20, 25, 50, 100]);

/** The column of a page's rows that carries the list's total (X-Total-Count). */
export const TOTAL_COLUMN = 'kodi_total';

/**
 * The statements of a list page: `page`, its rows, each carrying the total in TOTAL_COLUMN (one
 * statement, one snapshot); `count`, the total alone, needed only for a page past the end.
 * `prepared`: fixed text for a given entity and sort (no search, no filter), worth preparing.
 */
export type ListStatements = { page: SQL; count: SQL; prepared: boolean };

/** The column of a page's rows that carries the versions it was read under (see `keptFacts`). */
export const VERSIONS_COLUMN = 'kodi_versions';

/** What a list statement carries for what the lists keep between requests (crud/kept-facts.ts). */
export type KeptOptions = {
  /** add the current versions of these tables (the company's row_counts.data_version) to each row */
  versions?: readonly string[];
  /** start from a kept position: the row `id` is at the kept offset, `delta` rows before this page */
  anchor?: { id: number; delta: number };
  /** confirm the session of this id: each row carries its fingerprint (plugins/session.ts) */
  session?: string | undefined;
};

/** `, <the session's fingerprint>` when a statement confirms a session (see `confirmedRead`). */
const sessionColumn = (session: string | undefined): SQL =>
  session ? sql`, ${sessionCheckColumn(session)}` : sql``;

/** The versions of a company's tables as one text, read in the statement's own snapshot. */
const versionsOf = (user: SessionUser, tables: readonly string[]): SQL =>
  sql`(SELECT string_agg(table_name || ':' || data_version, ',' ORDER BY table_name) FROM row_counts
        WHERE company_id = ${user.company_id} AND table_name = ANY(${`{${tables.join(',')}}`}::text[]))`;

/** Rows at or after the row `id` in the order's direction: `(col, id) <= (its col, its id)`. */
const keysetCondition = (
  e: ServerEntity,
  user: SessionUser,
  key: NonNullable<Order['key']>,
  id: number,
): SQL => {
  const op = key.desc ? '<=' : '>=';
  if (key.columns.length === 1) return sql`${sql.raw(`t.id ${op}`)} ${id}`;
  const cols = key.columns.map((c) => `t.${c}`).join(', ');
  const its = key.columns.map((c) => `a.${c}`).join(', ');
  return sql`(${sql.raw(cols)}) ${sql.raw(op)} (SELECT ${sql.raw(its)} FROM ${sql.raw(e.sql.table)} a
              WHERE a.company_id = ${user.company_id} AND a.id = ${id})`;
};

/**
 * The SQL of a list page, given the search's lookup (if it needed one):
 * - the page's ids are chosen on the table alone when neither the WHERE nor the order reads a join
 *   (an index-only scan of `(company_id, id)` or of a sort index, however deep the page), and only
 *   those rows are then joined for their columns;
 * - the total of an unfiltered list of a company-owned table is its `row_counts` row; a filtered one
 *   is counted without the joins unless the WHERE reads them.
 */
export const listStatements = (
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
  matches: SearchMatches = { ids: {} },
  kept: KeptOptions = {},
): ListStatements => {
  const facts = tableFacts(e.sql);
  const cond = conditions(e, user, query, matches);
  const order = orderOf(e, query.sort);
  const orderSql = sql.raw(order.sql);
  const select = selectList(e.def, e.sql, { list: true });
  const offset = (query.page - 1) * query.page_size;
  const firstPage = offset === 0 && PREPARED_PAGE_SIZES.has(query.page_size);
  const { anchor } = kept;
  const limit = anchor
    ? sql.raw(`LIMIT ${query.page_size}${anchor.delta > 0 ? ` OFFSET ${anchor.delta}` : ''}`)
    : firstPage
      ? sql.raw(`LIMIT ${query.page_size}`)
      : sql`LIMIT ${query.page_size} OFFSET ${offset}`;
  const from = anchor && order.key ? sql` AND ${keysetCondition(e, user, order.key, anchor.id)}` : sql``;
  const counted = e.def.scope === 'company' && !e.scope && COUNTED_TABLES.has(e.sql.table);
  const total =
    matches.total !== undefined
      ? sql`${matches.total}::int`
      : counted && !cond.filtered
        ? sql`COALESCE((SELECT n FROM row_counts
                         WHERE company_id = ${user.company_id} AND table_name = ${e.sql.table}), 0)::int`
        : sql`(SELECT count(*)::int FROM ${sql.raw(cond.joins ? facts.from : facts.base)} WHERE ${cond.where})`;
  const versions = kept.versions
    ? sql`, ${versionsOf(user, kept.versions)} AS ${sql.raw(VERSIONS_COLUMN)}`
    : sql``;
  const columns = sql`${select}, ${total} AS ${sql.raw(TOTAL_COLUMN)}${versions}${sessionColumn(kept.session)}`;
  // a company's rows are joined back on their whole key (company_id, id), as a sharded database needs
  const owned = e.def.scope === 'company';
  const keyColumns = owned ? 't.company_id, t.id' : 't.id';
  const keyJoin = owned ? 't.company_id = page.company_id AND t.id = page.id' : 't.id = page.id';
  const page =
    cond.joins || order.joins
      ? sql`SELECT ${columns} FROM ${sql.raw(facts.from)}
            WHERE ${cond.where} ORDER BY ${orderSql} ${limit}`
      : sql`SELECT ${columns}
              FROM (SELECT ${sql.raw(keyColumns)} FROM ${sql.raw(facts.base)} WHERE ${cond.where}${from}
                     ORDER BY ${orderSql} ${limit}) page
              JOIN ${sql.raw(e.sql.table)} t ON ${sql.raw(keyJoin)} ${sql.raw(facts.joins)}
             ORDER BY ${orderSql}`;
  return {
    page,
    count: sql`SELECT ${total} AS n${sessionColumn(kept.session)}`,
    prepared: (firstPage || !!anchor) && !searchText(query) && !query.filter,
  };
};

/** A page's total: on its rows; none on the first page means none at all; past the end, counted. */
export const pageTotal = async (
  rows: Record<string, unknown>[],
  query: ListQuery,
  count: () => Promise<Record<string, unknown>[]>,
): Promise<number> => {
  if (rows[0]) return Number(rows[0][TOTAL_COLUMN]);
  if (query.page === 1) return 0;
  return Number((await count())[0]?.n ?? 0);
};

/**
 * The statements asked most — first pages without search or filter, and deep pages from a kept
 * position — are rendered once per entity, sort, page size (and distance from the position), then
 * only their company (and position) parameters change: drizzle's building and rendering is a tenth
 * of a list request's own work.
 */
const rendered = new Map<string, { text: string; params: unknown[] }>();
const SOME_COMPANY = -2_000_000_001; // not an id: marks the company's parameters in the rendered statement
const SOME_ROW = -2_000_000_002; // not an id: marks the kept position's parameter
const MAX_RENDERED = 1000;

const SOME_IDS = '{-2000000003}'; // not ids: marks the parameter of a kept page's ids
const SOME_SESSION = 'kodi:some-session'; // not a session id: marks the session to confirm

/** `build()` rendered once under `key`; its marked parameters replaced by `values` (marker → value). */
const renderOnce = (key: string, build: () => SQL, values: ReadonlyMap<unknown, unknown>) => {
  let st = rendered.get(key);
  if (!st) {
    const q = dialect.sqlToQuery(build());
    st = { text: q.sql, params: q.params };
    if (rendered.size < MAX_RENDERED) rendered.set(key, st);
  }
  const params = st.params.map((p) => (values.has(p) ? values.get(p) : p));
  return { text: st.text, params };
};

const firstPage = (e: ServerEntity, user: SessionUser, query: ListQuery, session: string | undefined) =>
  renderOnce(
    `first\n${e.def.name}\n${query.sort ?? ''}\n${query.page_size}\n${session ? 'checked' : ''}`,
    () =>
      listStatements(e, { ...user, company_id: SOME_COMPANY }, query, undefined, {
        session: session && SOME_SESSION,
      }).page,
    new Map<unknown, unknown>([
      [SOME_COMPANY, user.company_id],
      [SOME_SESSION, session],
    ]),
  );

/** A page from a kept position (`anchor`), with the versions of `tables`. */
const anchoredPage = (
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
  tables: readonly string[],
  anchor: { id: number; delta: number },
  session: string | undefined,
) =>
  renderOnce(
    `anchored\n${e.def.name}\n${query.sort ?? ''}\n${query.page_size}\n${anchor.delta}\n${tables.join(',')}\n${session ? 'checked' : ''}`,
    () =>
      listStatements(
        e,
        { ...user, company_id: SOME_COMPANY },
        query,
        { ids: {} },
        { versions: tables, anchor: { id: SOME_ROW, delta: anchor.delta }, session: session && SOME_SESSION },
      ).page,
    new Map<unknown, unknown>([
      [SOME_COMPANY, user.company_id],
      [SOME_ROW, anchor.id],
      [SOME_SESSION, session],
    ]),
  );

/** The rows of a kept page (their ids), in the list's order, with the versions of `tables`. */
export const keptRowsStatement = (
  e: ServerEntity,
  user: SessionUser,
  sort: string | undefined,
  tables: readonly string[],
  ids: readonly number[],
  session?: string,
) =>
  renderOnce(
    `rows\n${e.def.name}\n${sort ?? ''}\n${tables.join(',')}\n${session ? 'checked' : ''}`,
    () => sql`SELECT ${selectList(e.def, e.sql, { list: true })},
                     ${versionsOf({ ...user, company_id: SOME_COMPANY }, tables)} AS ${sql.raw(VERSIONS_COLUMN)}
                     ${sessionColumn(session && SOME_SESSION)}
                FROM ${fromClause(e.sql)}
               WHERE t.company_id = ${SOME_COMPANY} AND t.id = ANY(${SOME_IDS}::int[])
               ORDER BY ${orderBy(e, sort)}`,
    new Map<unknown, unknown>([
      [SOME_COMPANY, user.company_id],
      [SOME_IDS, `{${ids.join(',')}}`],
      [SOME_SESSION, session],
    ]),
  );

/**
 * The tables whose versions a list's kept facts depend on (its own, and those its search looks
 * into), when its facts can be kept: a company-owned list whose tables `row_counts` covers.
 */
export const keptTables = (e: ServerEntity): string[] | undefined => {
  if (!keptTablesOf.has(e)) {
    const tables = [...new Set([e.sql.table, ...viaFields(e).map(([, via]) => via.table)])].sort();
    const keepable = e.def.scope === 'company' && !e.scope && tables.every((t) => COUNTED_TABLES.has(t));
    keptTablesOf.set(e, keepable ? tables : undefined);
  }
  return keptTablesOf.get(e);
};
const keptTablesOf = new WeakMap<ServerEntity, string[] | undefined>();

/** Pages at least this deep start from a kept position when there is one. */
export const KEEP_POSITIONS_FROM = 500;
/** Positions kept per list order (the most recently read win). */
const MAX_POSITIONS = 200;

type Page = { rows: Record<string, unknown>[]; total: number };

/** A list page as answered, with what its statement said of the session it confirmed (if asked). */
export type ListedPage = Page & { session?: unknown };

/** A list request whose facts can be kept, and the tables whose versions check them. */
type KeptList = {
  database: Database;
  e: ServerEntity;
  user: SessionUser;
  query: ListQuery;
  tables: readonly string[];
  /** the session to confirm (its id), if any */
  session: string | undefined;
};

/** A list page's statement run, with its total. */
const plainPage = async (database: Database, st: ListStatements, query: ListQuery): Promise<Page> => {
  const rows = await run(database, st.page, st.prepared);
  return { rows, total: await pageTotal(rows, query, () => run(database, st.count, st.prepared)) };
};

/** Whether rows were read under the `expected` versions (no rows: it cannot be told). */
const readUnder = (rows: Record<string, unknown>[], expected: string): boolean =>
  rows.length > 0 && rows[0]?.[VERSIONS_COLUMN] === expected;

/**
 * A search: its matches are kept (the lookup of the matching tenants and units and their total is
 * most of a search's cost); while the versions are the same, a search is its page's statement alone.
 */
const searchedPage = async ({ database, e, user, query, tables, session }: KeptList): Promise<Page> => {
  const kept = keptFactsOf(database);
  const key = `search\n${e.def.name}\n${user.company_id}\n${query.filter ?? ''}\n${searchText(query)}`;
  // a page of this search already read: its rows by their ids
  const pageKey = `${key}\n${query.sort ?? ''}\n${query.page}\n${query.page_size}`;
  const shown = kept.get<{ ids: number[]; total: number }>(pageKey);
  if (shown) {
    const st = keptRowsStatement(e, user, query.sort, tables, shown.value.ids, session);
    const rows = await database.prepared(st.text, st.params);
    if (rows.length === shown.value.ids.length && readUnder(rows, shown.versions))
      return { rows, total: shown.value.total };
  }
  // the search's matches kept: its page alone
  const known = kept.get<SearchMatches>(key);
  let page: Page | undefined;
  let versions: string | undefined;
  if (known) {
    const st = listStatements(e, user, query, known.value, { versions: tables, session });
    const read = await plainPage(database, st, query);
    if (readUnder(read.rows, known.versions)) [page, versions] = [read, known.versions];
  }
  if (!page) {
    const lookup = searchLookup(e, user, query, tables);
    const found = lookup ? ((await run(database, lookup))[0] ?? {}) : {};
    const matches = lookup ? searchMatches(e, query, found) : { ids: {} };
    versions = typeof found[VERSIONS_COLUMN] === 'string' ? found[VERSIONS_COLUMN] : undefined;
    if (versions)
      kept.set(key, versions, matches, 1 + Object.values(matches.ids).reduce((n, ids) => n + ids.length, 0));
    page = await plainPage(
      database,
      listStatements(e, user, query, matches, { versions: tables, session }),
      query,
    );
    // a page is kept only when it was read under the versions its matches were found under (a
    // search without a lookup: its own)
    const read = page.rows[0]?.[VERSIONS_COLUMN];
    versions = typeof read === 'string' && (!lookup || read === versions) ? read : undefined;
  }
  if (versions && page.rows.length > 0)
    kept.set(
      pageKey,
      versions,
      { ids: page.rows.map((r) => Number(r.id)), total: page.total },
      1 + page.rows.length,
    );
  return page;
};

/**
 * A deep page of a list in the table's own order: the row at each offset read is kept, and a page
 * starts from the nearest kept position before it (`(col, id) <= (its col, its id)` in the order's
 * index) instead of skipping every row before it. Page 400 reads 25 index entries, not 10,000.
 */
const deepPage = async ({ database, e, user, query, tables, session }: KeptList): Promise<Page> => {
  const kept = keptFactsOf(database);
  const key = `positions\n${e.def.name}\n${user.company_id}\n${query.sort ?? ''}`;
  const offset = (query.page - 1) * query.page_size;
  const known = kept.get<Map<number, number>>(key);
  let nearest: [number, number] | undefined;
  for (const [at, id] of known?.value ?? [])
    if (at <= offset && (!nearest || at > nearest[0])) nearest = [at, id];
  let page: Page | undefined;
  if (known && nearest) {
    const st = anchoredPage(e, user, query, tables, { id: nearest[1], delta: offset - nearest[0] }, session);
    const rows = await database.prepared(st.text, st.params);
    if (readUnder(rows, known.versions)) page = { rows, total: Number(rows[0]?.[TOTAL_COLUMN]) };
  }
  let versions = known?.versions;
  if (!page) {
    page = await plainPage(
      database,
      listStatements(e, user, query, { ids: {} }, { versions: tables, session }),
      query,
    );
    versions = page.rows[0]?.[VERSIONS_COLUMN] as string | undefined;
  }
  const first = page.rows[0];
  if (first && versions) {
    const positions = known && known.versions === versions ? known.value : new Map<number, number>();
    positions.set(offset, Number(first.id));
    if (positions.size > MAX_POSITIONS) positions.delete(positions.keys().next().value as number);
    kept.set(key, versions, positions, 1 + positions.size);
  }
  return page;
};

export const listRecords = async (
  database: Database,
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
  check: SessionCheck | null = null,
): Promise<ListedPage> => {
  let page: Page;
  const tables = keptTables(e);
  const session = check?.id;
  const offset = (query.page - 1) * query.page_size;
  if (
    e.def.scope === 'company' &&
    !e.scope &&
    !searchText(query) &&
    !query.filter &&
    query.page === 1 &&
    PREPARED_PAGE_SIZES.has(query.page_size)
  ) {
    const first = firstPage(e, user, query, session);
    const rows = await database.prepared(first.text, first.params);
    page = { rows, total: Number(rows[0]?.[TOTAL_COLUMN] ?? 0) };
  } else if (tables && searchText(query)) {
    page = await searchedPage({ database, e, user, query, tables, session });
  } else if (tables && !query.filter && offset >= KEEP_POSITIONS_FROM && orderOf(e, query.sort).key) {
    page = await deepPage({
      database,
      e,
      user,
      query,
      tables: tables.filter((t) => t === e.sql.table),
      session,
    });
  } else {
    const matches = await findSearchMatches(database, e, user, query);
    page = await plainPage(database, listStatements(e, user, query, matches, { session }), query);
  }
  return {
    rows: page.rows.map((r) => presentRow(e.def, r, TOTAL_COLUMN, VERSIONS_COLUMN, SESSION_CHECK_COLUMN)),
    total: page.total,
    session: page.rows[0]?.[SESSION_CHECK_COLUMN],
  };
};

/**
 * The tables a list page's rows are read from (the entity's, its joins', the ones its search looks
 * into), when the company's versions of every one of them are kept (`row_counts.data_version`):
 * then a page read can be kept and answered again while they stay the same.
 */
export const pageTables = (e: ServerEntity): string[] | undefined => {
  if (!pageTablesOf.has(e)) {
    const joined = [...(e.sql.joins ?? '').matchAll(/\bJOIN\s+([a-z_]+)\s/gi)].map((m) => m[1] ?? '');
    const tables = [...new Set([...(keptTables(e) ?? []), ...joined])].sort();
    const keepable = !!keptTables(e) && tables.every((t) => COUNTED_TABLES.has(t));
    pageTablesOf.set(e, keepable ? tables : undefined);
  }
  return pageTablesOf.get(e);
};
const pageTablesOf = new WeakMap<ServerEntity, string[] | undefined>();

/** The company's current versions of `tables` (and, to confirm a session, its fingerprint). */
const versionsNow = (user: SessionUser, tables: readonly string[], session: string | undefined) =>
  renderOnce(
    `versions\n${tables.join(',')}\n${session ? 'checked' : ''}`,
    () =>
      sql`SELECT ${versionsOf({ ...user, company_id: SOME_COMPANY }, tables)} AS ${sql.raw(VERSIONS_COLUMN)}
                 ${sessionColumn(session && SOME_SESSION)}`,
    new Map<unknown, unknown>([
      [SOME_COMPANY, user.company_id],
      [SOME_SESSION, session],
    ]),
  );

/** Under which key a company's list page is kept. */
export const pageKey = (entity: string, companyId: number, query: ListQuery): string =>
  [
    'page',
    entity,
    companyId,
    query.page,
    query.page_size,
    query.sort ?? '',
    searchText(query) ?? '',
    query.filter ?? '',
  ].join('\n');

/** A list page as the API answers it: its rows as JSON text, its total. */
export type JsonPage = { json: string; total: number };

/**
 * A list page as JSON, kept when its tables are versioned (`keptAnswer`): the company's versions of
 * the page's tables are read first (one small statement, which also confirms the session when
 * asked), and a page kept under those very versions is answered as it was. `keep` false: always
 * read (KEEP_PAGES=0).
 */
export const listPage = async (
  database: Database,
  e: ServerEntity,
  user: SessionUser,
  query: ListQuery,
  check: SessionCheck | null = null,
  keep = true,
): Promise<JsonPage & { session?: unknown }> => {
  const tables = keep ? pageTables(e) : undefined;
  if (!tables) {
    const page = await listRecords(database, e, user, query, check);
    return { json: JSON.stringify(page.rows), total: page.total, session: page.session };
  }
  const { value, session } = await keptAnswer(
    keptFactsOf(database),
    pageKey(e.def.name, user.company_id, query),
    async () => {
      const st = versionsNow(user, tables, check?.id);
      const now = (await database.prepared(st.text, st.params))[0];
      return { versions: now?.[VERSIONS_COLUMN], session: now?.[SESSION_CHECK_COLUMN] };
    },
    async () => {
      const page = await listRecords(database, e, user, query);
      return { json: JSON.stringify(page.rows), total: page.total };
    },
    jsonWeight,
  );
  return { ...value, session };
};

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
  user: SessionUser,
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
type AuditEntry = {
  user: SessionUser;
  action: 'create' | 'update' | 'delete';
  recordId: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/** Audit entries of one entity, in one statement (a batch of creations writes all of them at once). */
export const recordAudits = async (tx: DbOrTx, e: ServerEntity, entries: readonly AuditEntry[]) => {
  if (entries.length === 0) return;
  const light = (r: Record<string, unknown> | null) => {
    if (!r) return null;
    const out = { ...r };
    for (const f of e.def.fields) if (isHeavy(f)) delete out[f.name];
    return JSON.stringify(out);
  };
  await tx.execute(
    sql`INSERT INTO audit_entries (company_id, entity, record_id, action, user_id, before, after)
        VALUES ${sql.join(
          entries.map(
            (a) => sql`(${a.user.company_id}, ${e.def.name}, ${a.recordId}, ${a.action}, ${a.user.id},
                        ${light(a.before)}::jsonb, ${light(a.after)}::jsonb)`,
          ),
          sql`, `,
        )}`,
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
