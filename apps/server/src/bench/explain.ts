import type { SessionUser } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { listRecords } from '../crud/list.ts';
import type { ListQuery } from '../crud/server-entity.ts';
import { paymentsServer } from '../features/payments/server.ts';
import { dashboard } from '../features/dashboard/route.ts';
import { cashFlow, incomeStatement } from '../features/reports/routes.ts';
import { resolveRange } from '@kodi/domain';

export type Explained = { title: string; sql: string; plan: string };

/** A view of the database that records EXPLAIN (ANALYZE, BUFFERS) of each statement run through it. */
export const explaining = (database: Database, title: string, out: Explained[]): Database => {
  const explain = async (text: string, params: unknown[] = []) => {
    const plan = await database.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`,
      params,
    );
    out.push({ title, sql: text, plan: plan.map((p) => p['QUERY PLAN']).join('\n') });
  };
  return {
    ...database,
    query: async <T extends Record<string, unknown>>(text: string, params?: unknown[]) => {
      await explain(text, params);
      return database.query<T>(text, params);
    },
    prepared: async <T extends Record<string, unknown>>(text: string, params?: unknown[]) => {
      await explain(text, params);
      return database.prepared<T>(text, params);
    },
  };
};

/** Long id arrays and runs of blanks would drown the plans. */
export const tidy = (s: string) =>
  s
    .replace(/\{(\d+,){20,}\d+\}/g, (m) => `{…${m.split(',').length} ids…}`)
    .replace(/[ \t]*\n[ \t]*\n/g, '\n')
    .trim();

/**
 * The plans of the hot queries on the large company, each run once first (warm caches, a prepared
 * statement's first plans), then explained: the payments list (first page, deep page, search,
 * sort), the dashboard and the two 12-month reports.
 */
export const explainHotQueries = async (
  database: Database,
  lists: { title: string; query: ListQuery }[],
): Promise<Explained[]> => {
  const user: SessionUser = {
    id: 0,
    email: 'explain@kodi.test',
    first_name: 'Explain',
    last_name: 'Plans',
    company_id: 1,
    roles: ['admin'],
    active: true,
    country_code: null,
    last_login_at: null,
    mfa_enabled: false,
    mfa_required: false,
  };
  const out: Explained[] = [];
  const range = resolveRange({});
  for (const l of lists) {
    await listRecords(database, paymentsServer, user, l.query);
    await listRecords(explaining(database, `GET /payments ${l.title}`, out), paymentsServer, user, l.query);
  }
  const cases: [string, (db: Database) => Promise<unknown>][] = [
    ['GET /dashboard', (db) => dashboard(db, 1, `${new Date().toISOString().slice(0, 7)}-01`)],
    ['GET /income-statement (12 months)', (db) => incomeStatement(db, 1, range)],
    ['GET /cash-flow (12 months)', (db) => cashFlow(db, 1, range)],
  ];
  for (const [title, run] of cases) {
    await run(database);
    await run(explaining(database, title, out));
  }
  return out.map((e) => ({ ...e, sql: tidy(e.sql.replace(/\s+/g, ' ')), plan: tidy(e.plan) }));
};

export const renderExplained = (items: Explained[]): string =>
  items
    .map((e) => `#### ${e.title}\n\n\`\`\`sql\n${e.sql}\n\`\`\`\n\n\`\`\`\n${e.plan}\n\`\`\``)
    .join('\n\n');
