import type { SessionUser } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { listPage, listRecords, type ListQuery } from '../crud/service.ts';
import { shareKeptFacts } from '../crud/kept-facts.ts';
import { paymentsServer } from '../features/payments/server.ts';
import { dashboardJson } from '../features/dashboard/route.ts';
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
 * sort; each asked for the first time and asked again, from what the lists keep), the dashboard and
 * the two 12-month reports.
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
  };
  const out: Explained[] = [];
  const range = resolveRange({});
  // each list twice: asked for the first time (nothing kept), then again (crud/kept-facts.ts)
  for (const l of lists) {
    const title = `GET /payments ${l.title}`;
    await listRecords(database, paymentsServer, user, l.query);
    await listRecords(
      explaining(database, `${title}, asked for the first time`, out),
      paymentsServer,
      user,
      l.query,
    );
    const again = explaining(database, `${title}, asked again`, out);
    shareKeptFacts(database, again);
    await listRecords(again, paymentsServer, user, l.query);
  }
  // a page asked once more with the same data: answered as it was kept, after one versions statement
  {
    const first = lists[0];
    if (first) {
      await listPage(database, paymentsServer, user, first.query);
      const kept = explaining(database, `GET /payments ${first.title}, a page kept: its versions`, out);
      shareKeptFacts(database, kept);
      await listPage(kept, paymentsServer, user, first.query);
    }
  }
  const cases: [string, (db: Database) => Promise<unknown>][] = [
    // asked for the first time here (the explaining view keeps nothing): its versions, then itself
    ['GET /dashboard', (db) => dashboardJson(db, 1)],
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
