import { chargeCategory, depositStatus, paymentMethod, rentCycle } from './enums.ts';
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

/**
 * The day number (days since 1970-01-01) of a YYYY-MM-DD the code made itself, and back: integer
 * arithmetic only (Howard Hinnant's civil-day algorithms), for loops over thousands of periods.
 */
export const dayOf = (iso: string): number =>
  civilDay(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10)));

/** The day number of year `year`, month `m` (1–12), day `d`. */
export const civilDay = (year: number, m: number, d: number): number => {
  const y = year - (m <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
};

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

export const isoOfDay = (n: number): string => {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${two(m)}-${two(d)}`;
};

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

export const daysInMonth = (year: number, month0: number): number =>
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

/** A rent change of a lease: from `effective_date` on, periods starting that day or later cost `rate`. */
export type RateChange = { effective_date: string; rate: string | number };

/** What of an occupancy the ledger needs (as the API or the database answers it). */
export type LeaseTerms = {
  start_date: string;
  end_date?: string | null;
  /** the rate from the start, until the first rate change */
  rate: string | number;
  rent_cycle: string;
  deposit_amount?: string | number | null;
  deposit_status?: string | null;
  /** rate changes, in any order (one a day at most) */
  rate_changes?: readonly RateChange[];
  /**
   * What the tenant owed when the lease was taken on (negative: a credit), on `opening_balance_date`:
   * no rent is charged for periods due on or before that date (issue 25, 'Opening balances').
   */
  opening_balance?: string | number | null;
  opening_balance_date?: string | null;
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

/** A charge beyond rent, stored: a late fee posted by the daily run, or a charge added by staff. */
export type LedgerCharge = {
  id: number;
  date: string;
  kind: ChargeKind;
  category?: string | null;
  description: string;
  amount: string | number;
  /** late fees: the due date of the rent charge the fee is for */
  rent_due_date?: string | null;
};

/** A waiver: an entry of its own that takes a charge (a late fee or a charge) off what is owed. */
export type LedgerWaiver = {
  id?: number;
  charge_id: number;
  date: string;
  amount: string | number;
  reason?: string | null;
};

/** A lease's deposit settlement: what of the deposit paid the balance, and what was refunded. */
export type LedgerSettlement = {
  date: string;
  applied_amount: string | number;
  refund_amount: string | number;
  refund_method?: string | null;
};

/**
 * What the books posted of a lease's rent (issue 25): the amount of each period, by its due date, as
 * `lease_rent_posted` keeps it (rent and its adjustments), posted through `through`, and the opening
 * balance as posted (`lease_rent_state`). Given, a ledger reads the rent and the opening balance from
 * here and not from the terms; only periods due after `through` (not posted yet: the upcoming) follow
 * the terms.
 */
export type PostedRent = {
  through: string;
  rent: readonly { due_date: string; amount: string | number }[];
  opening: { date: string; amount: string | number } | null;
};

/** What a lease's ledger holds besides its terms and payments. */
export type LedgerExtras = {
  charges?: readonly LedgerCharge[];
  waivers?: readonly LedgerWaiver[];
  settlement?: LedgerSettlement | null;
  /** the rent the books posted (none: the rent is derived from the terms, as before the books) */
  posted?: PostedRent | null;
};

export const chargeKinds = ['late_fee', 'charge'] as const;
export type ChargeKind = (typeof chargeKinds)[number];

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

/** The rate changes of a lease, oldest first, in cents. */
const sortedRates = (terms: LeaseTerms): { date: string; cents: Cents }[] =>
  [...(terms.rate_changes ?? [])]
    .map((r) => ({ date: r.effective_date, cents: toCents(r.rate) }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

/** The rate in force on `day`: that of the latest rate change on or before it, else the lease's rate. */
export const rateOn = (terms: LeaseTerms, day: string): Cents => {
  let rate = toCents(terms.rate);
  for (const change of sortedRates(terms)) {
    if (change.date > day) break;
    rate = change.cents;
  }
  return rate;
};

/** The day `months` after (y, m, d), the last day of a shorter month, as YYYY-MM-DD (no checks). */
const monthsAfter = (y: number, m: number, d: number, months: number): string => {
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month0 = index - year * 12;
  const day = Math.min(d, daysInMonth(year, month0));
  return `${String(year).padStart(4, '0')}-${two(month0 + 1)}-${two(day)}`;
};

const periodsOf = (terms: LeaseTerms, asOf: string, openedOn: string | null): RentCharge[] => {
  const cycle = cycleOf(terms);
  const rates = sortedRates(terms);
  let rate = toCents(terms.rate);
  let next = 0;
  const rateAt = (due: string): Cents => {
    for (let r = rates[next]; r && r.date <= due; r = rates[++next]) rate = r.cents;
    return rate;
  };
  const end = terms.end_date ?? null;
  const last = end && end < asOf ? end : asOf;
  parts(last);
  const [sy, sm, sd] = parts(terms.start_date);
  const out: RentCharge[] = [];
  if (cycle === 'monthly') {
    let due = terms.start_date;
    for (let k = 0; due <= last; k++) {
      const following = monthsAfter(sy, sm, sd, k + 1);
      const dayBefore = isoOfDay(dayOf(following) - 1);
      const amount = rateAt(due);
      if (openedOn === null || due > openedOn)
        out.push({ due_date: due, period_end: end && end < dayBefore ? end : dayBefore, amount });
      due = following;
    }
    return out;
  }
  const step = cycle === 'weekly' ? 7 : 1;
  const lastDay = dayOf(last);
  const endDay = end ? dayOf(end) : Infinity;
  for (let n = dayOf(terms.start_date); n <= lastDay; n += step) {
    const due = isoOfDay(n);
    const periodEnd = Math.min(n + step - 1, endDay);
    const amount = rateAt(due);
    if (openedOn !== null && due <= openedOn) continue;
    out.push({ due_date: due, period_end: periodEnd === n ? due : isoOfDay(periodEnd), amount });
  }
  return out;
};

/**
 * Every period of a lease started on or before `asOf`, oldest first, at the rate in force on the
 * period's first day, whether charged or not (periods due on or before the opening balance date are
 * not charged: `rentCharges`).
 */
export const rentPeriods = (terms: LeaseTerms, asOf: string): RentCharge[] => periodsOf(terms, asOf, null);

/**
 * The rent charges due on or before `asOf`, oldest first: one per period started, at the rate in
 * force on the period's first day, but none for a period due on or before the lease's opening
 * balance date (what was owed then is the opening balance).
 */
export const rentCharges = (terms: LeaseTerms, asOf: string): RentCharge[] =>
  periodsOf(terms, asOf, terms.opening_balance_date || null);

/**
 * The back rent of a lease (issue 25): the rent charges due from its start up to `today` (after the
 * opening-balance rule) that saving it charges, when it starts before today. A lease starting today
 * or later has none (its first charge is not back rent), nor has one whose terms are incomplete (a
 * form being typed). `rate`: the amount of every charge when they are all the same, else null.
 */
export type BackRent = { charges: number; total: Cents; rate: Cents | null };

export const NO_BACK_RENT: BackRent = { charges: 0, total: 0n, rate: null };

export const backRent = (terms: LeaseTerms, today: string): BackRent => {
  if (!isValidIsoDate(terms.start_date) || !isValidIsoDate(today) || terms.start_date >= today)
    return NO_BACK_RENT;
  if (terms.start_date < '1900-01-01') return NO_BACK_RENT;
  if (terms.end_date && (!isValidIsoDate(terms.end_date) || terms.end_date < terms.start_date))
    return NO_BACK_RENT;
  if (terms.opening_balance_date && !isValidIsoDate(terms.opening_balance_date)) return NO_BACK_RENT;
  if (!rentCycle.values.includes(terms.rent_cycle as RentCycle)) return NO_BACK_RENT;
  let charges: RentCharge[];
  try {
    charges = rentCharges(terms, today);
  } catch {
    return NO_BACK_RENT;
  }
  if (charges.length === 0) return NO_BACK_RENT;
  const first = charges[0]?.amount ?? 0n;
  let total = 0n;
  let same = true;
  for (const c of charges) {
    total += c.amount;
    if (c.amount !== first) same = false;
  }
  return { charges: charges.length, total, rate: same ? first : null };
};

/** `back_rent` as the API answers it (money as a JSON number). */
export const backRentAnswer = (b: BackRent): { charges: number; total: number } => ({
  charges: b.charges,
  total: centsToNumber(b.total),
});

/**
 * The warning the lease form and the import preview show: 'This lease starts Nov 1, 2025: 13 rent
 * charges of UGX 500,000 (UGX 6,500,000) will be posted. Set an opening balance if some was paid.'
 * (`money` formats an amount of cents as the app does); '' when there is no back rent.
 */
export const backRentWarning = (startDate: string, b: BackRent, money: (cents: Cents) => string): string => {
  if (b.charges === 0) return '';
  const what =
    b.charges === 1
      ? `1 rent charge of ${money(b.total)}`
      : b.rate !== null
        ? `${b.charges} rent charges of ${money(b.rate)} (${money(b.total)})`
        : `${b.charges} rent charges (${money(b.total)} in all)`;
  return `This lease starts ${formatDate(startDate)}: ${what} will be posted. Set an opening balance if some was paid.`;
};

/**
 * The back-rent warning as a catalogue key and its values (issue 30: `domainTexts.backRent*`, whose
 * English is `backRentWarning`'s), its date and amounts as `day` and `money` write them; null when
 * there is no back rent.
 */
export const backRentWarningMessage = (
  startDate: string,
  b: BackRent,
  money: (cents: Cents) => string,
  day: (date: string) => string = formatDate,
): {
  key: 'domainTexts.backRentOne' | 'domainTexts.backRentRate' | 'domainTexts.backRentTotal';
  values: Record<string, string>;
} | null => {
  if (b.charges === 0) return null;
  const values = { date: day(startDate), charges: String(b.charges), total: money(b.total) };
  if (b.charges === 1) return { key: 'domainTexts.backRentOne', values };
  return b.rate !== null
    ? { key: 'domainTexts.backRentRate', values: { ...values, rate: money(b.rate) } }
    : { key: 'domainTexts.backRentTotal', values };
};

/**
 * The opening balance of a lease counted on `asOf` in cents (positive: owed, negative: a credit), with
 * its date; null when it has none, or it is dated after `asOf`.
 */
export const openingBalance = (terms: LeaseTerms, asOf: string): { date: string; amount: Cents } | null => {
  const date = terms.opening_balance_date;
  const value = terms.opening_balance;
  if (!date || date > asOf || value === null || value === undefined || value === '') return null;
  const amount = toCents(value);
  return amount === 0n ? null : { date, amount };
};

/**
 * The rent charges of a lease due on or before `asOf`: what the books posted when `extras.posted` is
 * given (periods of no amount left out), and the terms' charges for periods due after the day rent is
 * posted through; else the terms' (`rentCharges`).
 */
export const leaseRentCharges = (terms: LeaseTerms, extras: LedgerExtras, asOf: string): RentCharge[] => {
  const posted = extras.posted;
  if (!posted) return rentCharges(terms, asOf);
  const ends = new Map(rentPeriods(terms, asOf).map((c) => [c.due_date, c.period_end]));
  const out: RentCharge[] = [];
  for (const r of posted.rent) {
    if (r.due_date > asOf || r.due_date > posted.through) continue;
    const amount = toCents(r.amount);
    if (amount === 0n) continue;
    out.push({ due_date: r.due_date, period_end: ends.get(r.due_date) ?? r.due_date, amount });
  }
  for (const c of rentCharges(terms, asOf)) if (c.due_date > posted.through) out.push(c);
  return out.sort((a, b) => (a.due_date < b.due_date ? -1 : a.due_date > b.due_date ? 1 : 0));
};

/**
 * The opening balance counted on `asOf`: as the books posted it when `extras.posted` is given (the
 * terms' when it was not posted yet, dated after the day posted through), else the terms'.
 */
export const leaseOpening = (
  terms: LeaseTerms,
  extras: LedgerExtras | undefined,
  asOf: string,
): { date: string; amount: Cents } | null => {
  const posted = extras?.posted;
  if (!posted) return openingBalance(terms, asOf);
  if (!posted.opening) {
    const t = openingBalance(terms, asOf);
    return t && t.date > posted.through ? t : null;
  }
  const amount = toCents(posted.opening.amount);
  return posted.opening.date > asOf || amount === 0n ? null : { date: posted.opening.date, amount };
};

/** The payments that count on `asOf`: completed, dated on or before it. */
export const countedPayments = <P extends LedgerPayment>(payments: readonly P[], asOf: string): P[] =>
  payments.filter((p) => p.status === 'completed' && p.payment_date <= asOf);

// ------------------------------------------------------------------------------------------ allocation

/**
 * What a lease owes, as debits in the order payments pay them: by date, and on one day rent, then
 * late fees, then other charges (then by id). A waiver takes its amount off its own charge from the
 * waiver's date on, so that payments go to what is still owed.
 */
export type Debit = {
  date: string;
  rank: number;
  seq: number;
  kind: 'rent' | 'opening_balance' | ChargeKind;
  amount: Cents;
  /** stored charges: their id; rent: none */
  charge_id?: number;
  /** rent: its period's end; late fees: the due date of their rent charge */
  period_end?: string;
  rent_due_date?: string | null;
  description?: string;
  category?: string | null;
  waivers: { date: string; amount: Cents }[];
};

const RANK = { opening_balance: -1, rent: 0, late_fee: 1, charge: 2 } as const;

const byDebitOrder = (a: Debit, b: Debit): number =>
  (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || a.rank - b.rank || a.seq - b.seq;

/** The amount of a debit still charged on `day` (less its waivers dated on or before it). */
export const netOn = (d: Debit, day: string): Cents =>
  d.waivers.reduce((sum, w) => (w.date <= day ? sum - w.amount : sum), d.amount);

/** Every debit of a lease dated on or before `through`, in payment order. */
export const leaseDebits = (terms: LeaseTerms, extras: LedgerExtras, through: string): Debit[] => {
  const waivers = new Map<number, { date: string; amount: Cents }[]>();
  for (const w of extras.waivers ?? []) {
    const list = waivers.get(w.charge_id) ?? [];
    list.push({ date: w.date, amount: toCents(w.amount) });
    waivers.set(w.charge_id, list);
  }
  const debits: Debit[] = leaseRentCharges(terms, extras, through).map((c, i) => ({
    date: c.due_date,
    rank: RANK.rent,
    seq: i,
    kind: 'rent',
    amount: c.amount,
    period_end: c.period_end,
    waivers: [],
  }));
  // an opening balance owed is the lease's oldest debit on its day (a credit is among the credits)
  const opening = leaseOpening(terms, extras, through);
  if (opening && opening.amount > 0n) {
    debits.push({
      date: opening.date,
      rank: RANK.opening_balance,
      seq: 0,
      kind: 'opening_balance',
      amount: opening.amount,
      description: OPENING_BALANCE,
      waivers: [],
    });
  }
  for (const c of extras.charges ?? []) {
    if (c.date > through) continue;
    debits.push({
      date: c.date,
      rank: RANK[c.kind],
      seq: c.id,
      kind: c.kind,
      amount: toCents(c.amount),
      charge_id: c.id,
      rent_due_date: c.rent_due_date ?? null,
      description: c.description,
      category: c.category ?? null,
      waivers: waivers.get(c.id) ?? [],
    });
  }
  return debits.sort(byDebitOrder);
};

/**
 * What has paid the lease's debits by the end of `day`: its counted payments, the deposit applied,
 * and (given the lease's terms) an opening balance that is a credit, from its date.
 */
export const leaseCredits = (
  payments: readonly LedgerPayment[],
  extras: LedgerExtras,
  day: string,
  terms?: LeaseTerms,
): Cents => {
  let credits = countedPayments(payments, day).reduce((sum, p) => sum + toCents(p.amount_paid), 0n);
  const s = extras.settlement;
  if (s && s.date <= day) credits += toCents(s.applied_amount);
  const opening = terms ? leaseOpening(terms, extras, day) : null;
  if (opening && opening.amount < 0n) credits -= opening.amount;
  return credits;
};

/**
 * What is still unpaid of `target` (one of `debits`, in payment order) at the end of `day`: the debits
 * up to it and itself, as charged on that day, less `credits` (those of that day), within the
 * target's own amount.
 */
export const unpaidOf = (debits: readonly Debit[], target: Debit, credits: Cents, day: string): Cents => {
  let through = 0n;
  for (const d of debits) {
    if (byDebitOrder(d, target) > 0) break;
    through += netOn(d, day);
  }
  const own = netOn(target, day);
  const unpaid = through - credits;
  return unpaid <= 0n ? 0n : unpaid < own ? unpaid : own;
};

// ------------------------------------------------------------------------------------------ ledger

/** The description of a lease's opening balance in its ledger and statement. */
export const OPENING_BALANCE = 'Opening balance';

export const ledgerEntryKinds = [
  'opening_balance',
  'rent',
  'late_fee',
  'charge',
  'deposit',
  'waiver',
  'deposit_applied',
  'payment',
  'deposit_refund',
] as const;
export type LedgerEntryKind = (typeof ledgerEntryKinds)[number];

/** Entries shown in the ledger but outside the balance: the deposit received and its refund. */
export const outsideBalance: ReadonlySet<LedgerEntryKind> = new Set(['deposit', 'deposit_refund']);

export type LedgerEntry = {
  date: string;
  kind: LedgerEntryKind;
  description: string;
  /** debits positive, payments, waivers and the deposit applied negative; deposit and refund: their amount. */
  amount: Cents;
  /** the running balance after this entry (positive: owed; negative: credit). */
  balance: Cents;
  /** late fees, charges and waivers: the charge's id (what `POST /charges/{id}/waive` takes) */
  charge_id?: number;
  /** charges: their category (utility, damage, other), as the charges list has it */
  category?: string;
};

export type Ledger = { balance: Cents; entries: LedgerEntry[] };

const KIND_ORDER: Record<LedgerEntryKind, number> = {
  opening_balance: -1,
  rent: 0,
  late_fee: 1,
  charge: 2,
  deposit: 3,
  waiver: 4,
  deposit_applied: 5,
  payment: 6,
  deposit_refund: 7,
};

const rentDescription = (due: string, end: string): string =>
  end === due ? `Rent ${formatDate(due)}` : `Rent ${formatDate(due)} – ${formatDate(end)}`;

const chargeDescription = (d: Debit): string => {
  if (d.kind !== 'charge') return d.description ?? '';
  const label = d.category ? (chargeCategory.labels as Record<string, string>)[d.category] : undefined;
  return label ? `${label}: ${d.description ?? ''}` : (d.description ?? '');
};

const paymentDescription = (p: LedgerPayment): string => {
  const number = p.receipt_number || p.payment_serial;
  const method = methodLabel(p.payment_method);
  return ['Payment', number, method ? `(${method})` : undefined].filter(Boolean).join(' ');
};

const methodLabel = (method: string | null | undefined): string | undefined =>
  method ? ((paymentMethod.labels as Record<string, string>)[method] ?? method) : undefined;

const depositDescription = (status: string | null | undefined): string => {
  const label = status ? (depositStatus.labels as Record<string, string>)[status] : undefined;
  return label ? `Deposit received (${label.toLowerCase()})` : 'Deposit received';
};

/**
 * The statement of a lease on `asOf`: its rent charges, late fees and other charges, their waivers,
 * its completed payments, its deposit and its settlement, in date order (on one day: rent, late fees,
 * charges, the deposit, waivers, the deposit applied, payments, the refund), each with the running
 * balance. The deposit and its refund are shown outside the balance.
 */
export const buildLedger = (
  terms: LeaseTerms,
  payments: readonly LedgerPayment[],
  asOf: string,
  extras: LedgerExtras = {},
): Ledger => {
  type Draft = Omit<LedgerEntry, 'balance'> & { order: number };
  const drafts: Draft[] = [];
  const debits = leaseDebits(terms, extras, asOf);
  for (const d of debits) {
    if (d.kind === 'opening_balance') continue;
    drafts.push({
      date: d.date,
      kind: d.kind,
      description: d.kind === 'rent' ? rentDescription(d.date, d.period_end ?? d.date) : chargeDescription(d),
      amount: d.amount,
      order: d.seq,
      ...(d.charge_id !== undefined ? { charge_id: d.charge_id } : {}),
      ...(d.kind === 'charge' && d.category ? { category: d.category } : {}),
    });
  }
  // the opening balance, owed or a credit, on its date
  const opening = leaseOpening(terms, extras, asOf);
  if (opening) {
    drafts.push({
      date: opening.date,
      kind: 'opening_balance',
      description: OPENING_BALANCE,
      amount: opening.amount,
      order: 0,
    });
  }
  const byId = new Map(debits.filter((d) => d.charge_id !== undefined).map((d) => [d.charge_id, d]));
  (extras.waivers ?? []).forEach((w, i) => {
    if (w.date > asOf) return;
    const charge = byId.get(w.charge_id);
    const what = charge ? chargeDescription(charge) : `charge ${w.charge_id}`;
    drafts.push({
      date: w.date,
      kind: 'waiver',
      description: `Waived: ${what}${w.reason ? ` (${w.reason})` : ''}`,
      amount: -toCents(w.amount),
      order: w.id ?? i,
      charge_id: w.charge_id,
    });
  });
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
  const s = extras.settlement;
  if (s && s.date <= asOf) {
    const applied = toCents(s.applied_amount);
    const refund = toCents(s.refund_amount);
    if (applied > 0n) {
      drafts.push({
        date: s.date,
        kind: 'deposit_applied',
        description: 'Deposit applied to the balance',
        amount: -applied,
        order: 0,
      });
    }
    if (refund > 0n) {
      const method = methodLabel(s.refund_method);
      drafts.push({
        date: s.date,
        kind: 'deposit_refund',
        description: `Deposit refunded${method ? ` (${method})` : ''}`,
        amount: refund,
        order: 0,
      });
    }
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
    if (!outsideBalance.has(d.kind)) balance += d.amount;
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
  /** debits due minus credits (negative: a credit). */
  balance: Cents;
  /** the unpaid debits that are overdue (every bucket but `current`). */
  overdue: Cents;
  last_payment: { date: string; amount: Cents } | null;
};

/**
 * The balance of a lease on `asOf` and its unpaid debits (rent, late fees, charges, less their
 * waivers) by age: the credits (counted payments, the deposit applied) pay the oldest debits first,
 * so what is unpaid is always the newest.
 */
export const leaseArrears = (
  terms: LeaseTerms,
  payments: readonly LedgerPayment[],
  asOf: string,
  extras: LedgerExtras = {},
): LeaseArrears => {
  const counted = countedPayments(payments, asOf);
  const paid = leaseCredits(payments, extras, asOf, terms);
  let unallocated = paid;
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
  for (const debit of leaseDebits(terms, extras, asOf)) {
    const amount = netOn(debit, asOf);
    charged += amount;
    const covered = unallocated < amount ? unallocated : amount;
    unallocated -= covered;
    const unpaid = amount - covered;
    if (unpaid <= 0n) continue;
    const bucket = agingBucket(daysBetween(debit.date, asOf));
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
  entries: {
    date: string;
    kind: LedgerEntryKind;
    description: string;
    amount: number;
    balance: number;
    /** late fees, charges and waivers: the charge's id; otherwise null */
    charge_id: number | null;
    /** charges: their category; otherwise null */
    category: ChargeCategory | null;
  }[];
};

export type ChargeCategory = (typeof chargeCategory.values)[number];

const chargeCategoryOf = (c: string | undefined): ChargeCategory | null =>
  (chargeCategory.values as readonly string[]).includes(c ?? '') ? (c as ChargeCategory) : null;

export const ledgerAnswer = (occupancyId: number, asOf: string, ledger: Ledger): LedgerAnswer => ({
  occupancy_id: occupancyId,
  as_of: asOf,
  balance: centsToNumber(ledger.balance),
  entries: ledger.entries.map((e) => ({
    date: e.date,
    kind: e.kind,
    description: e.description,
    amount: centsToNumber(e.amount),
    balance: centsToNumber(e.balance),
    charge_id: e.charge_id ?? null,
    category: chargeCategoryOf(e.category),
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
  /** the tenant's phone and e-mail, as kept (issue 26: the list is where a reminder starts) */
  tenant_phone: string | null;
  tenant_email: string | null;
};

/**
 * `GET /arrears/summary`: the overdue amounts of every lease in arrears, and how many leases; with
 * `by_age`, what of their balances falls in each age bucket (their sum is the balances' total).
 */
export type ArrearsSummary = {
  total: number;
  leases: number;
  by_age?: Record<AgingBucket, number> & { balance: number };
};

/** `POST /arrears/remind` (its zod rules are the server's: the web needs only the types). */
export type ArrearsRemindBody = {
  occupancy_ids?: number[] | undefined;
  all?: boolean | undefined;
  property_id?: number | undefined;
  channel: 'sms' | 'email' | 'whatsapp';
};

/** What `POST /arrears/remind` did: queued, skipped (no address) and already sent today, by lease. */
export type ArrearsRemindAnswer = {
  queued: number;
  skipped: number;
  already: number;
  results: {
    occupancy_id: number;
    tenant_name: string;
    status: 'queued' | 'skipped' | 'already' | 'not_in_arrears';
    to: string | null;
  }[];
};

/** The figures of `GET /dashboard`'s `money`: what came in and what is let. */
export type MoneyFigures = {
  /** completed payments dated in the month, the owners' collections included */
  collected: number;
  /** of collected, what was collected on properties with owners (issue 27): their money */
  owners_collected?: number;
  /** the month's rent due: the company's (Rental income) and the owners' (Rent due to owners) */
  rent_due: number;
  collected_percent: number | null;
  let_units: number;
  vacant_units: number;
};

/** `GET /dashboard`'s `money`: this month's collections against the rent due, overall and per property. */
export type DashboardMoney = MoneyFigures & {
  month: string;
  from: string;
  to: string;
  properties: (MoneyFigures & { property_id: number; name: string })[];
};

/** `GET /arrears?bucket=`: the leases with something owed in that age bucket (the dashboard's links). */
export const arrearsBucketLabels: Record<AgingBucket, string> = {
  current: 'Current',
  days_1_30: '1–30 days',
  days_31_60: '31–60 days',
  days_61_90: '61–90 days',
  days_over_90: 'Over 90 days',
};

/** The Arrears page's columns, which its exports use by label too. */
export const arrearsColumns: readonly Column[] = [
  { field: 'tenant_name', label: 'Tenant', sortable: true },
  { field: 'tenant_phone', label: 'Phone', sortable: false },
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
