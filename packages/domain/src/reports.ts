import { z } from 'zod';
import { expenseCategory, paymentMethod } from './enums.ts';

/** The month entries of 02-admin §3, as the API answers them (amounts are JSON numbers). */
export type IncomeStatementMonth = {
  month: string;
  rental_income: number;
  late_fees: number;
  other_income: number;
  expenses: Record<string, number>;
  total_expenses: number;
  net_income: number;
  /** cash: the month's completed payments split by what they paid; accrual: as the journal's income accounts */
  basis?: IncomeBasis;
  /** cash basis: the month's completed payments, every one (the owners' collections included) */
  completed_payments?: number;
  /** cash basis: completed payments on properties with owners (their money, not the company's income) */
  owners_collections?: number;
  /** management fees earned (part of other income) */
  management_fees?: number;
  /** expenses of properties with owners, paid from their funds (not in expenses) */
  owners_expenses?: number;
};

export const incomeBases = ['cash', 'accrual'] as const;
export type IncomeBasis = (typeof incomeBases)[number];

export type CashFlowMonth = {
  month: string;
  inflows: Record<string, number>;
  total_inflow: number;
  outflows: Record<string, number>;
  total_outflow: number;
  opening_balance: number;
  closing_balance: number;
};

export const SALARIES_KEY = 'salaries_and_commissions';
/** The cash flow's outflow of deposits paid back at the end of leases. */
export const DEPOSIT_REFUNDS_KEY = 'deposit_refunds';

/** Labels of the report lines: expense categories, wages, payment methods. */
/** The cash flow's lines by the journal's sources (docs/decisions.md "Books reports"). */
export const journalSourceLabels: Record<string, string> = {
  payment: 'Payments received',
  payment_void: 'Payments voided',
  deposit: 'Deposits received',
  deposit_refund: 'Deposits refunded',
  expense: 'Expenses',
  wage: 'Wages',
  wage_void: 'Wages voided',
  manual: 'Manual entries',
  reversal: 'Corrections',
  opening_balance: 'Opening balances',
  management_fee: 'Management fees',
  monthly_fee: 'Monthly management fees',
  rental_tax: 'Rental tax withheld',
  owner_payout: 'Owner payouts',
};

export const reportLineLabel = (key: string): string =>
  key === SALARIES_KEY
    ? 'Salaries and commissions'
    : key === DEPOSIT_REFUNDS_KEY
      ? 'Deposit refunds'
      : ((expenseCategory.labels as Record<string, string>)[key] ??
        (paymentMethod.labels as Record<string, string>)[key] ??
        journalSourceLabels[key] ??
        key);

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export const reportRangeSchema = z
  .object({
    from: z.string().regex(MONTH, 'Use a month as YYYY-MM.').optional(),
    to: z.string().regex(MONTH, 'Use a month as YYYY-MM.').optional(),
  })
  .refine((r) => !r.from || !r.to || r.from <= r.to, {
    message: 'The start month must not be after the end month.',
    path: ['from'],
  });

/** The range asked for, or the last 12 months up to this one. At most 10 years. */
export const resolveRange = (r: { from?: string | undefined; to?: string | undefined }, now = new Date()) => {
  const to = r.to ?? now.toISOString().slice(0, 7);
  const [y, m] = to.split('-').map(Number) as [number, number];
  const back = new Date(Date.UTC(y, m - 1 - 11, 1)).toISOString().slice(0, 7);
  const from = r.from ?? back;
  return { from, to };
};

export const monthsBetween = (from: string, to: string): number => {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
};

/** A report as rows of labelled lines by month: what the page shows and the exports write. */
export type ReportLine = {
  label: string;
  kind: 'item' | 'total' | 'heading';
  values: Record<string, number>;
  /**
   * The line over the whole range (the year, for the default 12 months): the months' sum, or for a
   * balance its first month's opening or last month's closing.
   */
  total: number;
  /**
   * The line's text key (issue 30: the web's `reports.line.<key>`, its English `label`) and, for a
   * line of a category, method or source, that key (`reports.item.<item>`, its English
   * `reportLineLabel(item)`).
   */
  text: { key: ReportLineKey; item?: string };
};

export type ReportLineKey =
  | 'rentalIncome'
  | 'lateFees'
  | 'otherIncome'
  | 'expense'
  | 'totalExpenses'
  | 'netIncome'
  | 'openingBalance'
  | 'inflow'
  | 'totalInflow'
  | 'outflow'
  | 'totalOutflow'
  | 'closingBalance';

/** Every key a report line's item may have (`ReportLine.text.item`): the web's `reports.item.<key>`. */
export const reportItemKeys = (): string[] => [
  ...new Set([
    SALARIES_KEY,
    DEPOSIT_REFUNDS_KEY,
    ...expenseCategory.values,
    ...paymentMethod.values,
    ...Object.keys(journalSourceLabels),
  ]),
];

/** The heading of the report's total column. */
export const REPORT_TOTAL_LABEL = 'Total';

/** Sums amounts exactly to the cent (the API's numbers have at most 2 decimals). */
const sumCents = (values: number[]) => values.reduce((a, v) => a + Math.round(v * 100), 0) / 100;

const keysOf = (maps: Record<string, number>[]) => [...new Set(maps.flatMap((m) => Object.keys(m)))].sort();

const line = <T extends { month: string }>(
  text: ReportLine['text'],
  label: string,
  kind: ReportLine['kind'],
  entries: T[],
  pick: (e: T) => number,
  total: 'sum' | 'first' | 'last' = 'sum',
): ReportLine => {
  const values = entries.map(pick);
  return {
    label,
    text,
    kind,
    values: Object.fromEntries(entries.map((e, i) => [e.month, values[i] ?? 0])),
    total: total === 'sum' ? sumCents(values) : ((total === 'first' ? values[0] : values.at(-1)) ?? 0),
  };
};

export const incomeStatementLines = (entries: IncomeStatementMonth[]): ReportLine[] => [
  line({ key: 'rentalIncome' }, 'Rental income', 'item', entries, (e) => e.rental_income),
  line({ key: 'lateFees' }, 'Late fees', 'item', entries, (e) => e.late_fees),
  line({ key: 'otherIncome' }, 'Other income', 'item', entries, (e) => e.other_income),
  ...keysOf(entries.map((e) => e.expenses)).map((k) =>
    line({ key: 'expense', item: k }, reportLineLabel(k), 'item', entries, (e) => e.expenses[k] ?? 0),
  ),
  line({ key: 'totalExpenses' }, 'Total expenses', 'total', entries, (e) => e.total_expenses),
  line({ key: 'netIncome' }, 'Net Operating Income', 'total', entries, (e) => e.net_income),
];

export const cashFlowLines = (entries: CashFlowMonth[]): ReportLine[] => [
  line({ key: 'openingBalance' }, 'Opening balance', 'total', entries, (e) => e.opening_balance, 'first'),
  ...keysOf(entries.map((e) => e.inflows)).map((k) =>
    line(
      { key: 'inflow', item: k },
      `Inflow: ${reportLineLabel(k)}`,
      'item',
      entries,
      (e) => e.inflows[k] ?? 0,
    ),
  ),
  line({ key: 'totalInflow' }, 'Total inflow', 'total', entries, (e) => e.total_inflow),
  ...keysOf(entries.map((e) => e.outflows)).map((k) =>
    line(
      { key: 'outflow', item: k },
      `Outflow: ${reportLineLabel(k)}`,
      'item',
      entries,
      (e) => e.outflows[k] ?? 0,
    ),
  ),
  line({ key: 'totalOutflow' }, 'Total outflow', 'total', entries, (e) => e.total_outflow),
  line({ key: 'closingBalance' }, 'Closing balance', 'total', entries, (e) => e.closing_balance, 'last'),
];
