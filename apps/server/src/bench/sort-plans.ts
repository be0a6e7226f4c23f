import { payments, type SessionUser } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { listRecords } from '../crud/list.ts';
import { paymentsServer } from '../features/payments/server.ts';
import { explaining, tidy, type Explained } from './explain.ts';

/** The statements of one sort of the payments list, on one page, with their plans. */
export type SortPlan = {
  sort: string;
  page: number;
  statements: Explained[];
  /** the statements' execution times added up, ms (from EXPLAIN ANALYZE) */
  executionMs: number;
  planningMs: number;
};

export type SortPlans = { payments: number; deepPage: number; plans: SortPlan[] };

const PAGE_SIZE = 25;

const timeOf = (plan: string, what: 'Execution' | 'Planning') =>
  Number(new RegExp(`${what} Time: ([0-9.]+) ms`).exec(plan)?.[1] ?? 0);

/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of every sort of the payments list of the large company (every
 * sortable column, both directions), on the first page and on a deep page (the middle of the list:
 * where a page drawn at random lands on average), as the server runs them when the page is asked for
 * the first time (each run once before, for warm caches).
 */
export const explainPaymentSorts = async (database: Database, companyId = 1): Promise<SortPlans> => {
  const user: SessionUser = {
    id: 0,
    email: 'explain@kodi.test',
    first_name: 'Explain',
    last_name: 'Plans',
    company_id: companyId,
    roles: ['admin'],
    active: true,
    country_code: null,
    last_login_at: null,
    mfa_enabled: false,
    mfa_required: false,
  };
  const total = Number(
    (
      await database.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE company_id = $1', [
        companyId,
      ])
    )[0]?.n ?? 0,
  );
  const deepPage = Math.max(2, Math.ceil(total / PAGE_SIZE / 2));
  const plans: SortPlan[] = [];
  for (const column of payments.sort) {
    for (const sort of [column, `-${column}`]) {
      for (const page of [1, deepPage]) {
        const query = { page, page_size: PAGE_SIZE, sort };
        await listRecords(database, paymentsServer, user, query);
        const statements: Explained[] = [];
        await listRecords(explaining(database, sort, statements), paymentsServer, user, query);
        plans.push({
          sort,
          page,
          statements: statements.map((e) => ({
            ...e,
            sql: tidy(e.sql.replace(/\s+/g, ' ')),
            plan: tidy(e.plan),
          })),
          executionMs: statements.reduce((s, e) => s + timeOf(e.plan, 'Execution'), 0),
          planningMs: statements.reduce((s, e) => s + timeOf(e.plan, 'Planning'), 0),
        });
      }
    }
  }
  return { payments: total, deepPage, plans };
};

const ms = (v: number | undefined) => (v === undefined ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(0));
const count = (n: number) => n.toLocaleString('en-US');

/**
 * The chain of first children from the plan's top, its InitPlans left out: where the page's rows come
 * from (an index read in order, or every row joined and sorted).
 */
export const planPath = (plan: string): string => {
  const nodes: { indent: number; name: string }[] = [];
  let skipBelow = -1;
  for (const line of plan.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (skipBelow >= 0 && indent > skipBelow) continue;
    skipBelow = -1;
    const text = line.trim();
    if (/^(InitPlan|SubPlan|CTE) /.test(text)) {
      skipBelow = indent;
      continue;
    }
    const node = indent === 0 || text.startsWith('->') ? text.replace(/^->\s*/, '') : undefined;
    if (node && !/^(Planning|Execution)/.test(node))
      nodes.push({ indent, name: node.replace(/\s*\(actual.*$/, '') });
  }
  const path: string[] = [];
  let current: { indent: number; name: string } | undefined = nodes[0];
  while (current && path.length < 8) {
    path.push(current.name);
    const at: number = nodes.indexOf(current);
    const next: { indent: number; name: string } | undefined = nodes[at + 1];
    current = next && next.indent > current.indent ? next : undefined;
  }
  // from the LIMIT on: the outer joins of the 25 rows say little
  const limit = path.findIndex((n) => n.startsWith('Limit'));
  return limit > 0 ? path.slice(limit).join(' → ') : path.join(' → ');
};

const topNodes = (p: SortPlan) =>
  p.statements
    .map((s) => planPath(s.plan))
    .filter(Boolean)
    .join('; ');

/**
 * The plans as docs/performance.md shows them: a table of each sort's execution time on the first
 * and the deep page at each size, then every plan, folded.
 */
export const renderSortPlans = (sizes: SortPlans[]): string => {
  const [first] = sizes;
  if (!first) return '';
  const find = (s: SortPlans, sort: string, page: number) =>
    s.plans.find((p) => p.sort === sort && p.page === page);
  const head = sizes.flatMap((s) => [`${count(s.payments)}: page 1 ms`, `page ${count(s.deepPage)} ms`]);
  const lines = [
    `Every sort of \`GET /payments\` (25 rows), as the server runs it when the page is asked for the first time: ` +
      `the statements' execution time (\`EXPLAIN ANALYZE\`, added up) on the first page and on the middle page, ` +
      `at each size, and the first page's plan from its LIMIT down (an index read in order, or every row sorted).`,
    '',
    `| sort | ${head.join(' | ')} | ${sizes.map((s) => `the first page's plan at ${count(s.payments)}`).join(' | ')} |`,
    `|---|${head.map(() => '--:').join('|')}|${sizes.map(() => '---').join('|')}|`,
    ...first.plans
      .filter((p) => p.page === 1)
      .map((p) => {
        const cells = sizes.flatMap((s) => [
          ms(find(s, p.sort, 1)?.executionMs),
          ms(find(s, p.sort, s.deepPage)?.executionMs),
        ]);
        const paths = sizes.map((s) => {
          const plan = find(s, p.sort, 1);
          return plan ? topNodes(plan).replaceAll('|', '\\|') : '–';
        });
        return `| \`${p.sort}\` | ${cells.join(' | ')} | ${paths.join(' | ')} |`;
      }),
  ];
  for (const [i, s] of sizes.entries()) {
    lines.push(
      '',
      `<details><summary>The plans at ${count(s.payments)} payments (first page and page ${count(s.deepPage)} of every sort)` +
        `${i > 0 ? ': the statements are those above, with their numbers' : ''}</summary>`,
      '',
    );
    for (const p of s.plans) {
      for (const e of p.statements) {
        // the statements are the same at every size: written once, with the first size's plans
        const statement = i === 0 ? ['```sql', e.sql, '```', ''] : [];
        lines.push(`##### sort=${p.sort}, page ${count(p.page)}`, '', ...statement, '```', e.plan, '```', '');
      }
    }
    lines.push('</details>');
  }
  return lines.join('\n');
};
