/**
 * The bare baseline of the benchmark, run as its own process: a minimal Fastify server with the `pg`
 * driver (a pool of 16, as Kodi's) that runs, for each payments list variant, the very same SQL as
 * Kodi's list route (crud/list.ts, recorded at start-up) with no session, no validation, no
 * presentation: rows straight to JSON.
 *
 *   DATABASE_URL=... PORT=... BASELINE_QUERIES='{"first":{"page":1,"page_size":25}}' \
 *     node --import tsx apps/server/src/bench/baseline.ts
 */
import Fastify from 'fastify';
import pg from 'pg';
import type { SessionUser } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { listRecords } from '../crud/list.ts';
import type { ListQuery } from '../crud/server-entity.ts';
import { paymentsServer } from '../features/payments/server.ts';

type Rendered = { text: string; values: unknown[] };

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
  mfa_enabled: false,
  mfa_required: false,
};
const queries = JSON.parse(process.env.BASELINE_QUERIES ?? '{}') as Record<string, ListQuery>;
const e = paymentsServer;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 16, options: '-c jit=off' });

/**
 * The statements Kodi's list route runs for a variant, recorded once by running crud/list.ts
 * against a database view that notes each statement (the data does not change during a read run),
 * then replayed as they are for every request.
 */
const render = async (q: ListQuery): Promise<Rendered[]> => {
  const seen: Rendered[] = [];
  const recording = {
    query: async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => {
      seen.push({ text, values });
      return (await pool.query<T>(text, values)).rows;
    },
  } as unknown as Database;
  await listRecords(recording, e, user, q);
  return seen;
};
const variants: Record<string, Rendered[]> = {};
for (const [name, q] of Object.entries(queries)) variants[name] = await render(q);

const app = Fastify({ logger: false });

app.get<{ Params: { name: string } }>('/v/:name', async (request, reply) => {
  const statements = variants[request.params.name];
  if (!statements) return reply.code(404).send({ error: 'no such variant' });
  let rows: Record<string, unknown>[] = [];
  for (const st of statements) rows = (await pool.query<Record<string, unknown>>(st)).rows;
  const total = Number(rows[0]?.kodi_total ?? 0);
  for (const r of rows) delete r.kodi_total;
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
