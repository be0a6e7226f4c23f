/**
 * The bare baseline of the benchmark, run as its own process: a minimal Fastify server with the `pg`
 * driver (a pool of 16, as Kodi's) that runs, for each payments list variant, the very same SQL as
 * Kodi's list route — rendered once at start-up by drizzle's PgDialect from the builders of
 * crud/service.ts — with no session, no validation, no presentation: rows straight to JSON.
 *
 *   DATABASE_URL=... PORT=... BASELINE_QUERIES='{"first":{"page":1,"page_size":25}}' \
 *     node --import tsx apps/server/src/bench/baseline.ts
 */
import Fastify from 'fastify';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SessionUser } from '@kodi/domain';
import {
  KEEP_POSITIONS_FROM,
  keptRowsStatement,
  keptTables,
  listStatements,
  pageTotal,
  searchLookup,
  searchMatches,
  TOTAL_COLUMN,
  VERSIONS_COLUMN,
  type KeptOptions,
  type ListQuery,
} from '../crud/service.ts';
import { paymentsServer } from '../features/payments/server.ts';

type Rendered = { sql: string; params: unknown[] };
type Variant = {
  query: ListQuery;
  page: Rendered;
  count: Rendered;
  /** the total, when the page's rows do not carry it (a kept page) */
  total?: number;
  /** a named prepared statement, as Kodi's list route makes it. */
  name?: string;
};

const companyId = Number(process.env.BENCH_COMPANY_ID ?? 1);
const user: SessionUser = {
  id: 1,
  email: 'baseline@kodi.test',
  first_name: 'Bare',
  last_name: 'Baseline',
  company_id: companyId,
  roles: ['admin'],
  active: true,
  country_code: null,
  last_login_at: null,
};
const queries = JSON.parse(process.env.BASELINE_QUERIES ?? '{}') as Record<string, ListQuery>;
const dialect = new PgDialect();
const e = paymentsServer;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 16, options: '-c jit=off' });

/**
 * The statements of a variant, rendered once (the data does not change during a read run): those
 * Kodi runs once its facts are kept (crud/kept-facts.ts), as every request after the first does. A
 * search read before reads its page's rows by their ids; a deep page starts from its kept position;
 * both read the versions that check them.
 */
let statements = 0;
const render = async (q: ListQuery): Promise<Variant> => {
  const tables = keptTables(e) ?? [];
  const lookup = searchLookup(e, user, q);
  const found = lookup ? dialect.sqlToQuery(lookup) : undefined;
  const matches = found
    ? searchMatches(e, q, (await pool.query<Record<string, unknown>>(found.sql, found.params)).rows[0] ?? {})
    : { ids: {} };
  const offset = (q.page - 1) * q.page_size;
  if (q.q) {
    // a search read before: its page's rows by their ids (with the total kept alongside)
    const plain = dialect.sqlToQuery(listStatements(e, user, q, matches).page);
    const rows = (await pool.query<Record<string, unknown>>(plain.sql, plain.params)).rows;
    const st = keptRowsStatement(
      e,
      user,
      q.sort,
      tables,
      rows.map((r) => Number(r.id)),
    );
    return {
      query: q,
      name: `baseline_${++statements}`,
      page: { sql: st.text, params: st.params },
      count: { sql: 'SELECT $1::int AS n', params: [Number(rows[0]?.[TOTAL_COLUMN] ?? 0)] },
      total: Number(rows[0]?.[TOTAL_COLUMN] ?? 0),
    };
  }
  let kept: KeptOptions = {};
  if (!q.q && offset >= KEEP_POSITIONS_FROM) {
    const plain = dialect.sqlToQuery(listStatements(e, user, q, matches).page);
    const first = (await pool.query<{ id: number }>(plain.sql, plain.params)).rows[0];
    if (first) kept = { versions: [e.sql.table], anchor: { id: Number(first.id), delta: 0 } };
  }
  const { page, count, prepared } = listStatements(e, user, q, matches, kept);
  return {
    query: q,
    ...(prepared ? { name: `baseline_${++statements}` } : {}),
    page: dialect.sqlToQuery(page),
    count: dialect.sqlToQuery(count),
  };
};
const variants: Record<string, Variant> = {};
for (const [name, q] of Object.entries(queries)) variants[name] = await render(q);

const app = Fastify({ logger: false });

app.get<{ Params: { name: string } }>('/v/:name', async (request, reply) => {
  const v = variants[request.params.name];
  if (!v) return reply.code(404).send({ error: 'no such variant' });
  const named = (r: Rendered, suffix: string) =>
    v.name
      ? { name: `${v.name}_${suffix}`, text: r.sql, values: r.params }
      : { text: r.sql, values: r.params };
  const rows = (await pool.query<Record<string, unknown>>(named(v.page, 'page'))).rows;
  const total =
    v.total ?? (await pageTotal(rows, v.query, async () => (await pool.query(named(v.count, 'count'))).rows));
  for (const r of rows) {
    delete r[TOTAL_COLUMN];
    delete r[VERSIONS_COLUMN];
  }
  return reply.header('X-Total-Count', String(total)).send(rows);
});

app.get('/sql', async () => variants);

const shutdown = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
await app.listen({ port: Number(process.env.PORT ?? 3999), host: '127.0.0.1' });
console.log('baseline ready');
