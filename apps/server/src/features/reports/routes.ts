import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  SALARIES_KEY,
  cashFlowLines,
  cashFlowSchema,
  incomeBases,
  incomeStatementSchema,
  incomeStatementLines,
  monthsBetween,
  reportRangeSchema,
  resolveRange,
  type CashFlowMonth,
  type IncomeBasis,
  type IncomeStatementMonth,
  type ReportLine,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';
import { reportLineText, reportPdf, reportTotalText } from './report-pdf.ts';
import { requestWords, type ExportWords } from '../../plugins/i18n.ts';
import { sendTabular } from '../../crud/export.ts';
import { errors, file, json, named, PDF, XLSX } from '../../plugins/openapi.ts';
import { ensureProperty, propertyQuery } from '../../modules/properties/property.ts';
import { toCents } from '../../modules/books/post.ts';
import {
  accrualIncome,
  cashSplit,
  centsNumber,
  journalCash,
  managementFees,
  ownersPart,
} from './income-basis.ts';

type Range = { from: string; to: string };

const MAX_MONTHS = 120;

const checkedRange = (query: { from?: string | undefined; to?: string | undefined }): Range => {
  const range = resolveRange(query);
  if (range.from > range.to) {
    throw new AppError('validation_failed', 'The start month must not be after the end month.', {
      from: 'After the end month.',
    });
  }
  if (monthsBetween(range.from, range.to) > MAX_MONTHS) {
    throw new AppError('validation_failed', 'A report covers at most 120 months.', {
      from: 'At most 120 months.',
    });
  }
  return range;
};

/**
 * The months of the range, and the company's money in each, read from `monthly_totals` (kept exact
 * by triggers on payments, expenses and wages): twelve months are a few dozen rows, not every payment.
 * Of one property ($4): from `property_monthly_totals`, its units' payments and expenses (wages are
 * the company's, not a property's).
 */
const totalsOf = (byProperty: boolean) =>
  byProperty
    ? 'property_monthly_totals WHERE company_id = $1 AND property_id = $4'
    : 'monthly_totals WHERE company_id = $1';

const monthsCte = (byProperty: boolean) => `
  months AS (
    SELECT to_char(m, 'YYYY-MM') AS month, m::date AS start
      FROM generate_series(to_date($2, 'YYYY-MM'), to_date($3, 'YYYY-MM'), interval '1 month') m
  ),
  totals AS MATERIALIZED (
    SELECT month, source, status, key, amount FROM ${totalsOf(byProperty)}
       AND month >= to_date($2, 'YYYY-MM') AND month <= to_date($3, 'YYYY-MM') AND n <> 0
  ),
  income AS MATERIALIZED (
    SELECT month AS m, COALESCE(NULLIF(key, ''), 'other') AS key, sum(amount) AS amt
      FROM totals WHERE source = 'payments' AND status = 'completed'
     GROUP BY 1, 2
  ),
  spending AS MATERIALIZED (
    SELECT month AS m, key, sum(amount) AS amt FROM totals WHERE source = 'expenses' GROUP BY 1, 2
    UNION ALL
    SELECT month, '${SALARIES_KEY}', sum(amount) FROM totals WHERE source = 'commission_wages' AND status = 'paid'
     GROUP BY 1
  ),
  other AS MATERIALIZED (
    SELECT month AS m,
           COALESCE(sum(CASE WHEN source = 'charges' THEN amount ELSE -amount END)
                      FILTER (WHERE source IN ('charges', 'charge_waivers') AND key = 'late_fee'), 0) AS late_fees,
           COALESCE(sum(CASE WHEN source = 'charges' THEN amount ELSE -amount END)
                      FILTER (WHERE source IN ('charges', 'charge_waivers') AND key = 'charge'), 0) AS other_income,
           COALESCE(sum(amount) FILTER (WHERE source = 'deposit_settlements'), 0) AS refunds
      FROM totals WHERE source IN ('charges', 'charge_waivers', 'deposit_settlements')
     GROUP BY 1
  )`;

type Totals = {
  month: string;
  income: string;
  spent: string;
  spending: Record<string, string> | string | null;
  inflows: Record<string, string> | string | null;
};

const toMap = (v: Record<string, string> | string | null): Record<string, number> => {
  const o = typeof v === 'string' ? (JSON.parse(v) as Record<string, string>) : (v ?? {});
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, Number(x)]));
};

/** A report's scope: a company, or one of its properties. */
type Scope = { companyId: number; propertyId?: number | undefined };

/**
 * The money of every month of the range: its completed payments and what was spent.
 */
const monthlyTotals = (database: Database, scope: Scope, range: Range) => {
  const byProperty = scope.propertyId !== undefined;
  return database.prepared<Totals & Record<string, string>>(
    `WITH ${monthsCte(byProperty)},
     income_month AS (
       SELECT m, sum(amt) AS income, json_object_agg(key, amt::text) AS inflows FROM income GROUP BY m
     ),
     spending_month AS (
       SELECT m, sum(total) AS spent, json_object_agg(key, total::text) AS spending
         FROM (SELECT m, key, sum(amt) AS total FROM spending GROUP BY m, key) k GROUP BY m
     ),
     per_month AS (
       SELECT mo.month, mo.start, COALESCE(i.income, 0) AS income, COALESCE(s.spent, 0) AS spent,
              i.inflows, s.spending, COALESCE(ot.late_fees, 0) AS late_fees,
              COALESCE(ot.other_income, 0) AS other_income, COALESCE(ot.refunds, 0) AS refunds
         FROM months mo
         LEFT JOIN income_month i ON i.m = mo.start
         LEFT JOIN spending_month s ON s.m = mo.start
         LEFT JOIN other ot ON ot.m = mo.start
     )
     SELECT month, income::text AS income, spent::text AS spent, inflows, spending,
            late_fees::text AS late_fees, other_income::text AS other_income, refunds::text AS refunds
       FROM per_month ORDER BY start`,
    [scope.companyId, range.from, range.to, ...(byProperty ? [scope.propertyId] : [])],
  );
};

export const incomeStatement = async (
  database: Database,
  companyId: number,
  range: Range,
  propertyId?: number,
  basis: IncomeBasis = 'cash',
): Promise<IncomeStatementMonth[]> => {
  const scope = { companyId, propertyId };
  const [rows, split, accrual, fees, owners] = await Promise.all([
    monthlyTotals(database, scope, range),
    basis === 'cash' ? cashSplit(database, companyId, range, propertyId) : Promise.resolve(null),
    basis === 'accrual' ? accrualIncome(database, companyId, range, propertyId) : Promise.resolve(null),
    basis === 'cash' ? managementFees(database, companyId, range, propertyId) : Promise.resolve(null),
    ownersPart(database, companyId, range, propertyId),
  ]);
  const none = { collections: 0n, expenses: new Map<string, bigint>() };
  return rows.map((r) => {
    // what the owners' funds paid is not the company's expense
    const o = owners.get(r.month) ?? none;
    const expenses = toMap(r.spending);
    let ownersSpent = 0n;
    for (const [category, cents] of o.expenses) {
      ownersSpent += cents;
      const left = toCents(String(expenses[category] ?? 0)) - cents;
      if (left === 0n) delete expenses[category];
      else expenses[category] = centsNumber(left);
    }
    const spent = toCents(r.spent) - ownersSpent;
    const a = accrual?.get(r.month) ?? {
      rental_income: 0n,
      late_fees: 0n,
      other_income: 0n,
      management_fees: 0n,
    };
    const fee = accrual ? a.management_fees : (fees?.get(r.month) ?? 0n);
    const agency =
      o.collections !== 0n || ownersSpent !== 0n || fee !== 0n
        ? { management_fees: centsNumber(fee), owners_expenses: centsNumber(ownersSpent) }
        : {};
    if (accrual) {
      // rent, fees and charges as they fell due, less waivers and adjustments: the journal's income accounts
      return {
        month: r.month,
        rental_income: centsNumber(a.rental_income),
        late_fees: centsNumber(a.late_fees),
        other_income: centsNumber(a.other_income),
        expenses,
        total_expenses: centsNumber(spent),
        net_income: centsNumber(a.rental_income + a.late_fees + a.other_income - spent),
        basis,
        ...agency,
      };
    }
    // the month's completed payments by what they paid: fees, charges, and the rest is rent; the
    // collections on properties with owners are the owners' money, the management fees the company's
    const all = toCents(r.income);
    const paid = all - o.collections;
    const s = split?.get(r.month) ?? { late_fees: 0n, other: 0n };
    const other = s.other + fee;
    return {
      month: r.month,
      rental_income: centsNumber(paid - s.late_fees - s.other),
      late_fees: centsNumber(s.late_fees),
      other_income: centsNumber(other),
      expenses,
      total_expenses: centsNumber(spent),
      net_income: centsNumber(paid + fee - spent),
      basis,
      completed_payments: centsNumber(all),
      ...(Object.keys(agency).length > 0
        ? { owners_collections: centsNumber(o.collections), ...agency }
        : {}),
    };
  });
};

/** The cash flow, read from the journal's money accounts: inflows and outflows by source. */
export const cashFlow = async (
  database: Database,
  companyId: number,
  range: Range,
  propertyId?: number,
): Promise<CashFlowMonth[]> => {
  const { opening, months } = await journalCash(database, companyId, range, propertyId);
  let balance = opening;
  const out: CashFlowMonth[] = [];
  for (let m = range.from; m <= range.to; m = nextMonth(m)) {
    const moved = months.get(m);
    const inflows = moved?.inflows ?? new Map<string, bigint>();
    const outflows = moved?.outflows ?? new Map<string, bigint>();
    const sum = (x: Map<string, bigint>) => [...x.values()].reduce((a, b) => a + b, 0n);
    const inflow = sum(inflows);
    const outflow = sum(outflows);
    const start = balance;
    balance = start + inflow - outflow;
    out.push({
      month: m,
      inflows: Object.fromEntries([...inflows].map(([k, v]) => [k, centsNumber(v)])),
      total_inflow: centsNumber(inflow),
      outflows: Object.fromEntries([...outflows].map(([k, v]) => [k, centsNumber(v)])),
      total_outflow: centsNumber(outflow),
      opening_balance: centsNumber(start),
      closing_balance: centsNumber(balance),
    });
  }
  return out;
};

const nextMonth = (m: string): string => {
  const [y, mo] = m.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, mo, 1)).toISOString().slice(0, 7);
};

/** The exported sheet's columns: the line, each month, and the total over the range. */
const linesToColumns = (range: Range, entries: { month: string }[], words: ExportWords): TabularColumn[] => [
  {
    key: 'label',
    label: words.td('doc.export.range', `${range.from} to ${range.to}`, range),
    kind: 'text',
  },
  ...entries.map((e) => ({ key: e.month, label: e.month, kind: 'money' as const })),
  { key: TOTAL_KEY, label: reportTotalText(words), kind: 'money' },
];

/** not a month (YYYY-MM): no clash with a month's key */
const TOTAL_KEY = 'total';

const linesToRows = (lines: ReportLine[], words: ExportWords) =>
  lines.map((l) => ({ label: reportLineText(l, words), ...l.values, [TOTAL_KEY]: l.total }));

const basisQuery = z.object({
  basis: z
    .enum(incomeBases, 'Use cash or accrual.')
    .default('cash')
    .describe("cash (default): completed payments by what they paid; accrual: the journal's income accounts"),
});
const reportQuery = reportRangeSchema.and(propertyQuery).and(basisQuery);
const exportQuery = reportQuery.and(z.object({ fmt: z.enum(['xlsx', 'pdf']) }));

/** The report's scope: the session's company, or one of its properties (another company's: 404). */
const scopeOf = async (
  database: Database,
  companyId: number,
  query: { property_id?: number | undefined },
): Promise<Scope> => {
  const propertyId = query.property_id;
  if (propertyId !== undefined) await ensureProperty(database.db, companyId, propertyId);
  return { companyId, propertyId };
};

/** `GET /income-statement`, `GET /cash-flow` and their exports: any signed-in user with a role, their company. */
export const reportRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const reports = [
    {
      path: '/income-statement',
      title: 'Monthly Income Statement',
      name: 'IncomeStatement',
      text: 'reports.incomeStatement',
      schema: incomeStatementSchema,
      compute: (
        database: Database,
        companyId: number,
        range: Range,
        propertyId: number | undefined,
        basis: IncomeBasis,
      ) => incomeStatement(database, companyId, range, propertyId, basis),
      lines: incomeStatementLines,
    },
    {
      path: '/cash-flow',
      title: 'Cash Flow Statement',
      name: 'CashFlow',
      text: 'reports.cashFlow',
      schema: cashFlowSchema,
      compute: (database: Database, companyId: number, range: Range, propertyId: number | undefined) =>
        cashFlow(database, companyId, range, propertyId),
      lines: cashFlowLines,
    },
  ] as const;
  for (const report of reports) {
    r.get(
      report.path,
      {
        config: { access: 'anyRole' },
        schema: {
          operationId: `get${report.name}`,
          tags: ['reports'],
          summary: `${report.title}: month entries (default: the last 12 months; of one property with property_id)`,
          querystring: reportQuery,
          response: {
            200: json(named(report.schema, report.name), 'One entry a month, oldest first'),
            ...errors(404),
          },
        },
      },
      async (request) => {
        const range = checkedRange(request.query);
        const { companyId, propertyId } = await scopeOf(
          ctx.database,
          currentUser(request).company_id,
          request.query,
        );
        return report.compute(ctx.database, companyId, range, propertyId, request.query.basis);
      },
    );
    r.get(
      `${report.path}/export`,
      {
        config: { access: 'anyRole' },
        schema: {
          operationId: `export${report.name}`,
          tags: ['reports'],
          summary: `${report.title} as xlsx or pdf`,
          querystring: exportQuery,
          response: { 200: file('The report (named in Content-Disposition)', XLSX, PDF) },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const range = checkedRange(request.query);
        const { propertyId } = await scopeOf(ctx.database, user.company_id, request.query);
        const entries = await report.compute(
          ctx.database,
          user.company_id,
          range,
          propertyId,
          request.query.basis,
        );
        const lines = (report.lines as (e: typeof entries) => ReportLine[])(entries);
        const money = await companyMoney(ctx.database, user.company_id);
        const fmt = request.query.fmt;
        const words = requestWords(request);
        const title = words.td(report.text, report.title);
        const name = `${report.path.slice(1)}_${range.from}_${range.to}.${fmt}`;
        if (fmt === 'pdf') {
          // laid out for the report: numbers measured to fit their column, never broken across lines
          const stream = reportPdf(
            title,
            range,
            entries.map((e) => e.month),
            lines,
            money,
            words,
          );
          const done = () => Promise.resolve();
          return sendTabular(reply, request, name, { stream, write: done, end: done }, done);
        }
        const writer = xlsxWriter(title, linesToColumns(range, entries, words), money, words);
        return sendTabular(reply, request, name, writer, (w) => w.write(linesToRows(lines, words)));
      },
    );
  }
};
