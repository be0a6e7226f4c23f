import { depositStatus, paymentMethod, rentCycle } from './enums.ts';
import { formatDate, isValidIsoDate } from './dates.ts';
import type { Column } from './entity.ts';

/**
 * Rent charges, balances and arrears, computed from a lease (occupancy) and its payments.
 * The one place the rules live (docs/decisions.md, 'Rent charges, balances and arrears'):
 * - a period starts on the start date and repeats each month on the same day (the last day of a
 *   shorter month, anchored on the original day: Jan 31 → Feb 28/29 → Mar 31), each 7 days or each day;
 * - each period is charged the full rate on its first day; no period starts after the end date;
 * - completed payments pay the oldest unpaid charges first; what is left over is a credit;
 * - a charge is overdue the day after it falls due;
 * - the deposit is shown, never counted as rent.
 * Money is integer minor units (cents, `bigint`), parsed from NUMERIC text and formatted back.
 * The server's arrears SQL computes the same numbers per lease in O(1); a property test holds them equal.
 */

// ------------------------------------------------------------------------------------------ money

/** An amount in minor units (cents): NUMERIC(14,2) × 100, exact. */
export type Cents = bigint;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Exact cents of a NUMERIC text ('1500000.50') or of a JSON number with at most 2 decimals. */
export const toCents = (value: string | number): Cents => {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Not an amount: ${value}`);
    text = Number.isInteger(value) ? value.toFixed(0) : value.toFixed(2);
    if (Number(text) !== value) throw new RangeError(`More than 2 decimals: ${value}`);
  } else {
    text = value.trim();
  }
  const m = DECIMAL.exec(text);
  if (!m) throw new RangeError(`Not an amount: ${text}`);
  const [, sign, whole = '0', fraction = ''] = m;
  if (/[^0]/.test(fraction.slice(2))) throw new RangeError(`More than 2 decimals: ${text}`);
  const cents = BigInt(whole) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
  return sign === '-' ? -cents : cents;
};

/** '-1234.50': the NUMERIC text of an amount of cents. */
export const formatCents = (cents: Cents): string => {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

/** The JSON number of an amount (the API answers money as numbers; NUMERIC(14,2) fits a double). */
export const centsToNumber = (cents: Cents): number => Number(formatCents(cents));

// ------------------------------------------------------------------------------------------ dates

const DAY_MS = 86_400_000;

const parts = (iso: string): [number, number, number] => {
  if (!isValidIsoDate(iso)) throw new RangeError(`Not a date (YYYY-MM-DD): ${iso}`);
  return iso.split('-').map(Number) as [number, number, number];
};

const dayNumber = (iso: string): number => {
  const [y, m, d] = parts(iso);
  return Date.UTC(y, m - 1, d) / DAY_MS;
};

const fromDayNumber = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

export const addDays = (iso: string, days: number): string => fromDayNumber(dayNumber(iso) + days);

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

const daysInMonth = (year: number, month0: number): number =>
  new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

/**
 * `months` months after `iso`, on the same day, or the last day of a shorter month. Always counted
 * from the original date, so the day is never lost: Jan 31 + 1 → Feb 28 (29), Jan 31 + 2 → Mar 31.
 */
export const addMonths = (iso: string, months: number): string => {
  const [y, m, d] = parts(iso);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month0 = index - year * 12;
  const day = Math.min(d, daysInMonth(year, month0));
  return `${String(year).padStart(4, '0')}-${String(month0 + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
};

// ------------------------------------------------------------------------------------------ leases

export type RentCycle = (typeof rentCycle.values)[number];

/** What of an occupancy the ledger needs (as the API or the database answers it). */
export type LeaseTerms = {
  start_date: string;
  end_date?: string | null;
  rate: string | number;
  rent_cycle: string;
  deposit_amount?: string | number | null;
  deposit_status?: string | null;
};

/** What of a payment the ledger needs. */
export type LedgerPayment = {
  id?: number;
  payment_date: string;
  amount_paid: string | number;
  status: string;
  receipt_number?: string | null;
  payment_serial?: string | null;
  payment_method?: string | null;
};

export type RentCharge = {
  /** the first day of the period: the day it falls due. */
  due_date: string;
  /** the last day of the period (the end date for a last, shorter period). */
  period_end: string;
  amount: Cents;
};

const cycleOf = (terms: LeaseTerms): RentCycle => {
  const cycle = terms.rent_cycle as RentCycle;
  if (!rentCycle.values.includes(cycle)) throw new RangeError(`Unknown rent cycle: ${terms.rent_cycle}`);
  return cycle;
};

/** The day period `k` (from 0) of a lease starts and falls due. */
export const periodStart = (terms: LeaseTerms, k: number): string => {
  const cycle = cycleOf(terms);
  if (cycle === 'monthly') return addMonths(terms.start_date, k);
  return addDays(terms.start_date, cycle === 'weekly' ? 7 * k : k);
};

/** The rent charges due on or before `asOf`, oldest first: one full rate per period started. */
export const rentCharges = (terms: LeaseTerms, asOf: string): RentCharge[] => {
  const amount = toCents(terms.rate);
  const last = terms.end_date && terms.end_date < asOf ? terms.end_date : asOf;
  parts(last);
  const out: RentCharge[] = [];
  for (let k = 0; ; k++) {
    const due = periodStart(terms, k);
    if (due > last) break;
    const nextDay = addDays(periodStart(terms, k + 1), -1);
    const periodEnd = terms.end_date && terms.end_date < nextDay ? terms.end_date : nextDay;
    out.push({ due_date: due, period_end: periodEnd, amount });
  }
  return out;
};

/** The payments that count on `asOf`: completed, dated on or before it. */
export const countedPayments = <P extends LedgerPayment>(payments: readonly P[], asOf: string): P[] =>
  payments.filter((p) => p.status === 'completed' && p.payment_date <= asOf);

// ------------------------------------------------------------------------------------------ ledger

export const ledgerEntryKinds = ['charge', 'payment', 'deposit'] as const;
export type LedgerEntryKind = (typeof ledgerEntryKinds)[number];

export type LedgerEntry = {
  date: string;
  kind: LedgerEntryKind;
  description: string;
  /** charges positive, payments negative; a deposit is its amount, outside the balance. */
  amount: Cents;
  /** the running balance after this entry (positive: owed; negative: credit). */
  balance: Cents;
};

export type Ledger = { balance: Cents; entries: LedgerEntry[] };

const KIND_ORDER: Record<LedgerEntryKind, number> = { charge: 0, deposit: 1, payment: 2 };

const chargeDescription = (c: RentCharge): string =>
  c.period_end === c.due_date
    ? `Rent ${formatDate(c.due_date)}`
    : `Rent ${formatDate(c.due_date)} – ${formatDate(c.period_end)}`;

const paymentDescription = (p: LedgerPayment): string => {
  const number = p.receipt_number || p.payment_serial;
  const method = p.payment_method
    ? ((paymentMethod.labels as Record<string, string>)[p.payment_method] ?? p.payment_method)
    : undefined;
  return ['Payment', number, method ? `(${method})` : undefined].filter(Boolean).join(' ');
};

const depositDescription = (status: string | null | undefined): string => {
  const label = status ? (depositStatus.labels as Record<string, string>)[status] : undefined;
  return label ? `Deposit received (${label.toLowerCase()})` : 'Deposit received';
};

/**
 * The statement of a lease on `asOf`: its charges, its completed payments and its deposit, in date
 * order (on one day: charges, then the deposit, then payments), each with the running balance.
 */
export const buildLedger = (terms: LeaseTerms, payments: readonly LedgerPayment[], asOf: string): Ledger => {
  type Draft = Omit<LedgerEntry, 'balance'> & { order: number };
  const drafts: Draft[] = rentCharges(terms, asOf).map((c, i) => ({
    date: c.due_date,
    kind: 'charge',
    description: chargeDescription(c),
    amount: c.amount,
    order: i,
  }));
  const deposit =
    terms.deposit_amount === null || terms.deposit_amount === undefined ? 0n : toCents(terms.deposit_amount);
  if (deposit > 0n && terms.start_date <= asOf) {
    drafts.push({
      date: terms.start_date,
      kind: 'deposit',
      description: depositDescription(terms.deposit_status),
      amount: deposit,
      order: 0,
    });
  }
  countedPayments(payments, asOf).forEach((p, i) =>
    drafts.push({
      date: p.payment_date,
      kind: 'payment',
      description: paymentDescription(p),
      amount: -toCents(p.amount_paid),
      order: p.id ?? i,
    }),
  );
  drafts.sort(
    (a, b) =>
      (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      a.order - b.order,
  );
  let balance = 0n;
  const entries = drafts.map(({ order: _order, ...d }) => {
    if (d.kind !== 'deposit') balance += d.amount;
    return { ...d, balance };
  });
  return { balance, entries };
};

// ------------------------------------------------------------------------------------------ arrears

export const agingBuckets = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
export type AgingBucket = (typeof agingBuckets)[number];

/** The bucket of an unpaid charge by the days it is overdue (0: due today, not yet overdue). */
export const agingBucket = (daysOverdue: number): AgingBucket =>
  daysOverdue <= 0
    ? 'current'
    : daysOverdue <= 30
      ? 'days_1_30'
      : daysOverdue <= 60
        ? 'days_31_60'
        : daysOverdue <= 90
          ? 'days_61_90'
          : 'days_over_90';

export type LeaseArrears = Record<AgingBucket, Cents> & {
  /** charges due minus counted payments (negative: a credit). */
  balance: Cents;
  /** the unpaid charges that are overdue (every bucket but `current`). */
  overdue: Cents;
  last_payment: { date: string; amount: Cents } | null;
};

/**
 * The balance of a lease on `asOf` and its unpaid charges by age: the counted payments pay the
 * oldest charges first, so what is unpaid is always the newest charges.
 */
export const leaseArrears = (
  terms: LeaseTerms,
  payments: readonly LedgerPayment[],
  asOf: string,
): LeaseArrears => {
  const counted = countedPayments(payments, asOf);
  let unallocated = counted.reduce((sum, p) => sum + toCents(p.amount_paid), 0n);
  const paid = unallocated;
  const out: LeaseArrears = {
    balance: 0n,
    overdue: 0n,
    current: 0n,
    days_1_30: 0n,
    days_31_60: 0n,
    days_61_90: 0n,
    days_over_90: 0n,
    last_payment: null,
  };
  let charged = 0n;
  for (const charge of rentCharges(terms, asOf)) {
    charged += charge.amount;
    const covered = unallocated < charge.amount ? unallocated : charge.amount;
    unallocated -= covered;
    const unpaid = charge.amount - covered;
    if (unpaid === 0n) continue;
    const bucket = agingBucket(daysBetween(charge.due_date, asOf));
    out[bucket] += unpaid;
    if (bucket !== 'current') out.overdue += unpaid;
  }
  out.balance = charged - paid;
  const last = [...counted].sort(
    (a, b) =>
      (a.payment_date < b.payment_date ? 1 : a.payment_date > b.payment_date ? -1 : 0) ||
      (b.id ?? 0) - (a.id ?? 0),
  )[0];
  out.last_payment = last ? { date: last.payment_date, amount: toCents(last.amount_paid) } : null;
  return out;
};

// ------------------------------------------------------------------------------------------ API shapes

/** `GET /occupancy/{id}/ledger` (amounts as JSON numbers). */
export type LedgerAnswer = {
  occupancy_id: number;
  as_of: string;
  balance: number;
  entries: { date: string; kind: LedgerEntryKind; description: string; amount: number; balance: number }[];
};

export const ledgerAnswer = (occupancyId: number, asOf: string, ledger: Ledger): LedgerAnswer => ({
  occupancy_id: occupancyId,
  as_of: asOf,
  balance: centsToNumber(ledger.balance),
  entries: ledger.entries.map((e) => ({
    ...e,
    amount: centsToNumber(e.amount),
    balance: centsToNumber(e.balance),
  })),
});

/** A row of `GET /arrears`: a lease with an overdue balance. */
export type ArrearsRow = Record<AgingBucket, number> & {
  occupancy_id: number;
  tenant_id: number;
  tenant_first_name: string;
  tenant_last_name: string;
  tenant_name: string;
  unit_id: number;
  unit_name: string;
  balance: number;
  last_payment_date: string | null;
  last_payment_amount: number | null;
};

/** `GET /arrears/summary`: the overdue amounts of every lease in arrears, and how many leases. */
export type ArrearsSummary = { total: number; leases: number };

/** The Arrears page's columns, which its exports use by label too. */
export const arrearsColumns: readonly Column[] = [
  { field: 'tenant_name', label: 'Tenant', sortable: true },
  { field: 'unit_name', label: 'Unit', sortable: true },
  { field: 'balance', label: 'Balance', kind: 'money', sortable: true },
  { field: 'current', label: 'Current', kind: 'money', sortable: true },
  { field: 'days_1_30', label: '1–30 days', kind: 'money', sortable: true },
  { field: 'days_31_60', label: '31–60 days', kind: 'money', sortable: true },
  { field: 'days_61_90', label: '61–90 days', kind: 'money', sortable: true },
  { field: 'days_over_90', label: 'Over 90 days', kind: 'money', sortable: true },
  { field: 'last_payment_date', label: 'Last Payment', kind: 'date', sortable: true },
  { field: 'last_payment_amount', label: 'Last Payment Amount', kind: 'money', sortable: true },
];

/** The fields `sort` accepts on `GET /arrears` (`field` or `-field`); default `-balance`. */
export const arrearsSortFields = [
  'occupancy_id',
  'tenant_name',
  'tenant_first_name',
  'tenant_last_name',
  'unit_name',
  'balance',
  ...agingBuckets,
  'last_payment_date',
  'last_payment_amount',
] as const;
export type ArrearsSortField = (typeof arrearsSortFields)[number];
export const ARREARS_DEFAULT_SORT = '-balance';
