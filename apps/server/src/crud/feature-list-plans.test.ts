import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SessionUser } from '@kodi/domain';
import { buildApp } from '../app.ts';
import type { Database } from '../db/client.ts';
import { resetDatabase, testConfig, testDatabase, testDriver, type TestContext } from '../test/harness.ts';
import { companyWith, expectStatus } from '../test/rent-cycle.ts';
import { arrearsQuery, keptArrearsQuery, keptArrearsSummaryQuery } from '../features/ledger/arrears-sql.ts';
import { paymentsServer } from '../features/payments/server.ts';
import { listRecords } from './list.ts';
import { generateDataset } from '../bench/dataset.ts';

/** `$n` replaced by its value as a literal: the statement as one text EXPLAIN can take. */
const inline = (text: string, params: unknown[]) =>
  text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    return typeof v === 'number' || typeof v === 'boolean' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  });

/** The plan of a statement with full reads made prohibitively dear (a plan that still has one has no index). */
const planOf = async (database: Database, text: string, params: unknown[] = []): Promise<string> =>
  database.db.transaction(async (tx) => {
    await tx.execute('SET LOCAL enable_seqscan = off');
    const res = (await tx.execute(`EXPLAIN ${inline(text, params)}`)) as unknown as {
      rows: { 'QUERY PLAN': string }[];
    };
    return res.rows.map((r) => r['QUERY PLAN']).join('\n');
  });

/**
 * Every search a list offers is read from an index: the features' lists (crud/paged-list.ts) through
 * the trigram index of their table's `search_text`, the audit log's by its user's e-mail too, the
 * arrears through the leases' (occupancy's). Each list is asked through the API with a search; the
 * statements its paged list runs are explained as they go by (with sequential scans off: on a
 * test's few rows the planner rightly prefers them), and a plan that reads a table whole fails.
 */
describe(`the features' list searches are served by indexes (${testDriver})`, () => {
  let t: TestContext;
  let session: Awaited<ReturnType<typeof companyWith>>;
  let rare: string;
  const plans: { text: string; plan: string }[] = [];

  beforeAll(async () => {
    const database = await testDatabase();
    await resetDatabase(database);
    const explaining: Database = {
      ...database,
      query: async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => {
        // the statements of a paged list: a page (with its total) or a count
        if (/kodi_total|^SELECT \(SELECT count/.test(text))
          plans.push({ text, plan: await planOf(database, text, params) });
        return database.query<T>(text, params);
      },
    };
    const config = testConfig();
    const app = await buildApp(config, explaining);
    await app.ready();
    t = { app, database, config };
    // enough rows that the planner reads an index because it is the cheaper read, not because
    // it is told to: the bench's data at a small size, and entries and messages
    session = await companyWith(t);
    await generateDataset(database, session.company.id, {
      units: 50,
      tenants: 500,
      leases: 500,
      payments: 5000,
      expenses: 100,
      requests: 50,
      employees: 10,
      vendors: 10,
      smallCompanies: 0,
    });
    const c = session.company.id;
    await database.query(`INSERT INTO audit_entries (company_id, entity, record_id, action, summary)
      SELECT ${c}, 'payments', i, 'update', 'Changed payments #' || i FROM generate_series(1, 2000) i`);
    await database.query(`INSERT INTO messages (company_id, kind, channel, "to", tenant_name, subject, body, status)
      SELECT ${c}, 'receipt', 'email', 'tenant' || i || '@example.com', 'Tenant ' || i, 'Receipt ' || i, 'Body', 'sent'
        FROM generate_series(1, 2000) i`);
    await database.query('ANALYZE');
    // a word few rows hold: one tenant's first name (`Grace123`), in its leases and payments
    const [one] = await database.query<{ w: string }>(
      `SELECT lower(first_name) AS w FROM tenants WHERE company_id = $1 ORDER BY id DESC LIMIT 1`,
      [c],
    );
    rare = one?.w ?? '';
  }, 300_000);
  afterAll(async () => {
    await t.app.close();
  });

  /** The plans of the statements a request ran. */
  const plansOf = async (run: () => Promise<unknown>) => {
    plans.length = 0;
    await run();
    return [...plans];
  };

  const noFullRead = (plan: string, what: string) => {
    expect(plan, `${what}\n${plan}`).not.toMatch(/Seq Scan/);
  };

  /** The plan of a table's rows that match a search, by the search alone: its trigram index. */
  const searchPlan = (table: string, word: string) =>
    planOf(t.database, `SELECT 1 FROM ${table} t WHERE t.search_text LIKE lower('%${word}%')`);

  it('searches users, the audit log, messages and statement lines through their trigram indexes', async () => {
    const { client } = session;
    const lists: [string, string][] = [
      ['/users?q=kodi', 'users'],
      ['/audit-log?q=units', 'audit_entries'],
      ['/messages?q=namuli', 'messages'],
      ['/statement-lines?q=namuli', 'statement_lines'],
    ];
    for (const [path, table] of lists) {
      const ran = await plansOf(async () => expectStatus(await client.get(path), 200));
      expect(ran.length, path).toBeGreaterThan(0);
      for (const { text, plan } of ran) {
        noFullRead(plan, path);
        // the search is the table's search_text LIKE the words, which its trigram index serves
        expect(text, path).toContain('t.search_text LIKE lower(');
      }
      expect(await searchPlan(table, 'namuli'), path).toContain(`${table}_search_trgm_idx`);
    }
    // the audit log by its user's e-mail too: the users' search_text, through its index
    const byUser = await plansOf(async () => expectStatus(await client.get('/audit-log?q=kodi'), 200));
    expect(byUser[0]?.text).toContain('u.search_text LIKE lower(');
    expect(byUser[0]?.plan).toContain('users_search_trgm_idx');
  });

  it('searches the arrears through the leases’ trigram index', async () => {
    const text = new PgDialect().sqlToQuery(
      arrearsQuery({ companyId: session.company.id, asOf: '2025-06-01', q: rare }),
    );
    expect(text.sql).toContain('o.search_text LIKE lower(');
    noFullRead(await planOf(t.database, text.sql, text.params), 'arrears');
    expect(await searchPlan('occupancy', rare)).toContain('occupancy_search_trgm_idx');
  });

  it('reads today’s arrears from the kept ageing: leases in arrears by their oldest unpaid day', async () => {
    const companyId = session.company.id;
    const queries = [
      keptArrearsQuery({ companyId, asOf: '2025-06-01' }),
      keptArrearsQuery({ companyId, asOf: '2025-06-01', sort: '-days_over_90' }),
      keptArrearsQuery({ companyId, asOf: '2025-06-01', sort: 'tenant_name', q: rare }),
      keptArrearsSummaryQuery(companyId, '2025-06-01'),
    ];
    for (const query of queries) {
      const text = new PgDialect().sqlToQuery(query);
      const plan = await planOf(t.database, text.sql, text.params);
      noFullRead(plan, 'kept arrears');
      expect(text.sql).toContain('b.oldest_due < ');
      expect(text.sql).not.toContain('rate_changes');
    }
  });

  // a search that finds few rows reads them from the trigram index and sorts them, never walking
  // the order's index past the rows that do not match (the payments search of issue 24)
  it('reads the page of a search that finds few rows from its trigram index', async () => {
    const user = { id: 1, company_id: session.company.id, roles: ['admin'] } as unknown as SessionUser;
    const explainingQuery = async <T extends Record<string, unknown>>(
      text: string,
      params: unknown[] = [],
    ) => {
      plans.push({ text, plan: await planOf(t.database, text, params) });
      return t.database.query<T>(text, params);
    };
    const ran = await plansOf(async () => {
      const page = await listRecords({ ...t.database, query: explainingQuery }, paymentsServer, user, {
        page: 1,
        page_size: 25,
        q: rare,
      });
      expect(page.rows.length).toBeGreaterThan(0);
    });
    // counted first, then the page: its matches read all and sorted (a subquery planned without the
    // page's LIMIT), not the order's index walked with the search as a filter until 25 match
    expect(ran).toHaveLength(2);
    for (const { plan } of ran) noFullRead(plan, 'payments q');
    expect(ran[1]?.text).toContain('OFFSET 0) page ORDER BY page.id DESC LIMIT 25');
    expect(ran[1]?.plan).toMatch(/\bSort\b/);
  });
});
