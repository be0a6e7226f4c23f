import { formatDate } from './dates.ts';
import type { LateFeePolicy, ReminderRule } from './company-settings.ts';
import {
  addDays,
  addMonths,
  civilDay,
  dayOf,
  daysBetween,
  daysInMonth,
  isoOfDay,
  formatCents,
  leaseCredits,
  leaseDebits,
  netOn,
  rateOn,
  rentCharges,
  toCents,
  type Cents,
  type Debit,
  type LeaseTerms,
  type LedgerCharge,
  type LedgerExtras,
  type LedgerPayment,
  type RateChange,
} from './ledger.ts';

/**
 * The rules of the daily run (issue 17; docs/decisions.md, 'The rent cycle'): late fees, rent
 * escalations, rent reminders and the deposit settlement, computed from a lease's ledger (ledger.ts).
 * The run processes days: each day once, a missed day later with its own date. Money is cents.
 */

/** The days a run processes, both included. */
export type DayWindow = { from: string; to: string };

// ------------------------------------------------------------------------------------------ time

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The date (YYYY-MM-DD) and hour (0–23) it is in time zone `tz` at `now`. */
export const localTime = (tz: string, now: Date = new Date()): { date: string; hour: number } => {
  let clock = clocks.get(tz);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(tz, clock);
  }
  const p = Object.fromEntries(clock.formatToParts(now).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) % 24 };
};

// ------------------------------------------------------------------------------------------ money

/**
 * `cents` rounded half up to the currency's smallest unit (`decimals` 0: whole units; 2 or more: cents,
 * NUMERIC(14,2) keeps no less).
 */
export const roundToCurrency = (cents: Cents, decimals: number): Cents => {
  const unit = decimals >= 2 ? 1n : decimals === 1 ? 10n : 100n;
  return ((cents + unit / 2n) / unit) * unit;
};

/** `percent`% of `cents`, rounded half up to the currency's smallest unit. */
export const percentOf = (cents: Cents, percent: string | number, decimals: number): Cents => {
  const hundredths = toCents(percent); // 2.5 % → 250
  const unit = decimals >= 2 ? 1n : decimals === 1 ? 10n : 100n;
  const den = 10_000n * unit;
  return ((cents * hundredths + den / 2n) / den) * unit;
};

// ------------------------------------------------------------------------------------------ allocation

/**
 * What is unpaid of each debit at the end of `day` (debits in payment order, charged as on that day,
 * against the credits of that day): payments pay the oldest first.
 */
const unpaidOnDay = (debits: readonly Debit[], credits: Cents, day: string): Map<Debit, Cents> => {
  const out = new Map<Debit, Cents>();
  let left = credits;
  for (const d of debits) {
    const net = netOn(d, day);
    const covered = left <= 0n ? 0n : left < net ? left : net;
    left -= covered;
    out.set(d, net - covered);
  }
  return out;
};

/** The rent debits by their due date (one rent charge falls due a day at most). */
const rentsByDate = (debits: readonly Debit[]): Map<string, Debit> =>
  new Map(debits.filter((d) => d.kind === 'rent').map((d) => [d.date, d]));

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ------------------------------------------------------------------------------------------ late fees

/**
 * The policy a lease's fees follow: none when it is exempt, else its own (when it has one), else the
 * company's; a policy that is not enabled is none.
 */
export const effectiveLateFeePolicy = (
  lease: { late_fee_exempt?: boolean | null; late_fee?: LateFeePolicy | null },
  company: LateFeePolicy,
): LateFeePolicy | null => {
  if (lease.late_fee_exempt) return null;
  const policy = lease.late_fee ?? company;
  return policy.enabled ? policy : null;
};

/** A late fee the run posts: for the rent charge due `rent_due_date`, dated `date`. */
export type DueLateFee = { date: string; rent_due_date: string; amount: Cents; description: string };

export const lateFeeDescription = (rentDue: string): string => `Late fee: rent due ${formatDate(rentDue)}`;

/**
 * The days a rent charge due `due` may earn a fee, within the window: the day after its due date
 * plus the grace days, then every 7 days (weekly) or on the same day of each following month
 * (monthly, the ledger's month-end rule) from that day.
 */
export const lateFeeDates = (due: string, policy: LateFeePolicy, window: DayWindow): string[] => {
  const first = addDays(due, policy.grace_days + 1);
  const out: string[] = [];
  if (policy.repeat === 'once') {
    if (first >= window.from && first <= window.to) out.push(first);
    return out;
  }
  if (policy.repeat === 'weekly') {
    const skip = Math.max(0, Math.ceil(daysBetween(first, window.from) / 7));
    for (let d = addDays(first, 7 * skip); d <= window.to; d = addDays(d, 7)) out.push(d);
    return out;
  }
  const [fy, fm] = first.split('-').map(Number) as [number, number];
  const [wy, wm] = window.from.split('-').map(Number) as [number, number];
  const skip = Math.max(0, (wy - fy) * 12 + (wm - fm) - 1);
  for (let k = skip; ; k++) {
    const d = addMonths(first, k);
    if (d > window.to) break;
    if (d >= window.from) out.push(d);
  }
  return out;
};

/**
 * The due dates of the rent charges that may get a fee on `day` (the inverse of `lateFeeDates`, so
 * that a day costs a few look-ups, not a walk over every charge): the day less the grace days and
 * one, and for repeated fees the days 7k before that (weekly), or the first fee days k months
 * before whose k-th month falls on `day` (monthly: every day from its day to the end of a longer
 * month when `day` is the last of its month). None before `firstDue`.
 */
export const lateFeeSourcesOn = (day: string, policy: LateFeePolicy, firstDue: string): string[] => {
  const x = dayOf(day);
  const g = policy.grace_days + 1;
  const first = dayOf(firstDue);
  const out: string[] = [];
  if (policy.repeat === 'once') {
    if (x - g >= first) out.push(isoOfDay(x - g));
    return out;
  }
  if (policy.repeat === 'weekly') {
    for (let f = x - g; f >= first; f -= 7) out.push(isoOfDay(f));
    return out;
  }
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const d = Number(day.slice(8, 10));
  const lastOfMonth = d === daysInMonth(y, m - 1);
  for (let k = 0; ; k++) {
    const index = y * 12 + (m - 1) - k;
    const fy = Math.floor(index / 12);
    const fm = index - fy * 12 + 1;
    const length = daysInMonth(fy, fm - 1);
    const start = civilDay(fy, fm, 1);
    if (start + length - 1 - g < first) break;
    if (d > length) continue;
    for (let dd = d; dd <= (lastOfMonth ? length : d); dd++) {
      const due = start + dd - 1 - g;
      if (due >= first) out.push(isoOfDay(due));
    }
  }
  return out;
};

/**
 * The late fees of a lease dated within the window that are not posted yet (its late fees are among
 * `extras.charges`, each with the rent due date it is for). A rent charge (only rent earns fees)
 * still partly unpaid at the end of the day before a fee day gets a fee: `amount` (flat), or
 * `amount`% of what is unpaid of it then (percent), the fees of one charge never adding up to more
 * than `cap` (the last one cut to fit). Fees are decided day by day, oldest first, each counting
 * the fees posted before it (payments pay the oldest debits first, fees included).
 */
export const lateFeesDue = (
  terms: LeaseTerms,
  payments: readonly LedgerPayment[],
  extras: LedgerExtras,
  policy: LateFeePolicy,
  window: DayWindow,
  decimals: number,
): DueLateFee[] => {
  if (!policy.enabled || window.from > window.to) return [];
  const rents = rentCharges(terms, addDays(window.to, -policy.grace_days - 1));
  if (rents.length === 0) return [];
  const postedFor = new Map<string, Cents>();
  const posted = new Set<string>();
  for (const c of extras.charges ?? []) {
    if (c.kind !== 'late_fee' || !c.rent_due_date) continue;
    postedFor.set(c.rent_due_date, (postedFor.get(c.rent_due_date) ?? 0n) + toCents(c.amount));
    posted.add(`${c.rent_due_date}|${c.date}`);
  }
  const dues = new Set(rents.map((r) => r.due_date));
  const firstDue = rents[0]?.due_date as string;
  const byDay = new Map<string, string[]>();
  for (let x = dayOf(window.from), last = dayOf(window.to); x <= last; x++) {
    const day = isoOfDay(x);
    for (const due of lateFeeSourcesOn(day, policy, firstDue)) {
      if (!dues.has(due) || posted.has(`${due}|${day}`)) continue;
      byDay.set(day, [...(byDay.get(day) ?? []), due]);
    }
  }
  const cap = policy.cap === null ? null : toCents(policy.cap);
  const flat = toCents(policy.amount);
  const added: LedgerCharge[] = [];
  const out: DueLateFee[] = [];
  for (const day of [...byDay.keys()].sort(cmp)) {
    // decided on the state at the end of the day before
    const before = addDays(day, -1);
    const all = { ...extras, charges: [...(extras.charges ?? []), ...added] };
    const debits = leaseDebits(terms, all, before);
    const unpaid = unpaidOnDay(debits, leaseCredits(payments, all, before, terms), before);
    const rents = rentsByDate(debits);
    for (const due of (byDay.get(day) ?? []).sort(cmp)) {
      const rent = rents.get(due);
      const left = rent ? (unpaid.get(rent) ?? 0n) : 0n;
      if (left <= 0n) continue;
      const already = postedFor.get(due) ?? 0n;
      let fee = policy.kind === 'flat' ? flat : percentOf(left, policy.amount, decimals);
      if (cap !== null && already + fee > cap) fee = cap - already;
      if (fee <= 0n) continue;
      postedFor.set(due, already + fee);
      const description = lateFeeDescription(due);
      out.push({ date: day, rent_due_date: due, amount: fee, description });
      added.push({
        id: Number.MAX_SAFE_INTEGER - added.length,
        date: day,
        kind: 'late_fee',
        description,
        amount: formatCents(fee),
        rent_due_date: due,
      });
    }
  }
  return out;
};

// ------------------------------------------------------------------------------------------ escalation

/** A lease's escalation rule: its rate grows by `percent`% every `every_months` months from its start. */
export type EscalationRule = { percent: string | number | null; every_months: number | null };

/**
 * The rate changes the rule makes on the days of the window that the lease has none yet: on the start
 * date plus every `every_months` months (not after the end date), the rate in force the day before
 * grown by `percent`%, rounded to the currency's smallest unit. Each counts the ones before it.
 */
export const escalationsDue = (
  terms: LeaseTerms,
  rule: EscalationRule,
  window: DayWindow,
  decimals: number,
): { effective_date: string; rate: string }[] => {
  const percent = rule.percent === null ? 0n : toCents(rule.percent);
  const every = rule.every_months ?? 0;
  if (percent <= 0n || every < 1 || window.from > window.to) return [];
  const changes: RateChange[] = [...(terms.rate_changes ?? [])];
  const out: { effective_date: string; rate: string }[] = [];
  for (let k = 1; ; k++) {
    const day = addMonths(terms.start_date, every * k);
    if (day > window.to || (terms.end_date && day > terms.end_date)) break;
    if (day < window.from || changes.some((c) => c.effective_date === day)) continue;
    const before = rateOn({ ...terms, rate_changes: changes }, addDays(day, -1));
    const unit = decimals >= 2 ? 1n : decimals === 1 ? 10n : 100n;
    const den = 10_000n * unit;
    const rate = formatCents(((before * (10_000n + percent) + den / 2n) / den) * unit);
    changes.push({ effective_date: day, rate });
    out.push({ effective_date: day, rate });
  }
  return out;
};

// ------------------------------------------------------------------------------------------ reminders

/** A rent reminder due: for the rent charge due `due_date`, to be sent on `send_date`. */
export type DueReminder = {
  event: ReminderRule['event'];
  days: number;
  due_date: string;
  send_date: string;
  /** what is unpaid of that rent charge at the end of the day before `send_date` */
  amount: Cents;
  channels: ReminderRule['channels'];
  template_id: number | null;
};

export const reminderSendDate = (rule: Pick<ReminderRule, 'event' | 'days'>, due: string): string =>
  rule.event === 'before_due'
    ? addDays(due, -rule.days)
    : rule.event === 'due'
      ? due
      : addDays(due, rule.days);

/**
 * The reminders of a lease whose send date falls in the window: for each rent charge and reminder,
 * when what is unpaid of the charge at the end of the day before the send date (payments pay the
 * oldest debits first) is more than nothing.
 */
export const remindersDue = (
  terms: LeaseTerms,
  payments: readonly LedgerPayment[],
  extras: LedgerExtras,
  rules: readonly ReminderRule[],
  window: DayWindow,
): DueReminder[] => {
  if (rules.length === 0 || window.from > window.to) return [];
  const ahead = Math.max(0, ...rules.map((r) => (r.event === 'before_due' ? r.days : 0)));
  const horizon = addDays(window.to, ahead);
  const dues = new Set(rentCharges(terms, horizon).map((r) => r.due_date));
  const byDay = new Map<string, { rule: ReminderRule; due: string }[]>();
  for (let x = dayOf(window.from), last = dayOf(window.to); x <= last; x++) {
    const day = isoOfDay(x);
    for (const rule of rules) {
      // the rent charge this rule reminds of on this day (the inverse of reminderSendDate)
      const due = isoOfDay(
        rule.event === 'before_due' ? x + rule.days : rule.event === 'due' ? x : x - rule.days,
      );
      if (dues.has(due)) byDay.set(day, [...(byDay.get(day) ?? []), { rule, due }]);
    }
  }
  if (byDay.size === 0) return [];
  const debits = leaseDebits(terms, extras, horizon);
  const rentsOn = rentsByDate(debits);
  const out: DueReminder[] = [];
  for (const day of [...byDay.keys()].sort(cmp)) {
    const before = addDays(day, -1);
    const unpaid = unpaidOnDay(debits, leaseCredits(payments, extras, before, terms), before);
    for (const { rule, due } of byDay.get(day) ?? []) {
      const rent = rentsOn.get(due);
      const left = rent ? (unpaid.get(rent) ?? 0n) : 0n;
      if (left <= 0n) continue;
      out.push({
        event: rule.event,
        days: rule.days,
        due_date: due,
        send_date: day,
        amount: left,
        channels: rule.channels,
        template_id: rule.template_id ?? null,
      });
    }
  }
  return out;
};

/** A reminder sent more than this many days after its send date is recorded as skipped ('stale'). */
export const STALE_REMINDER_DAYS = 2;

export const isStaleReminder = (sendDate: string, today: string): boolean =>
  daysBetween(sendDate, today) > STALE_REMINDER_DAYS;

// ------------------------------------------------------------------------------------------ deposit

export type DepositSettlementPlan = {
  deductions_total: Cents;
  /** what of the deposit pays the lease's debits (a credit on the settlement date) */
  applied: Cents;
  /** the rest of the deposit, paid back */
  refund: Cents;
  deposit_status: 'returned' | 'forfeited';
};

/**
 * A deposit settled on a day: the deductions become charges, and the deposit pays them (a deduction
 * is what the deposit is kept for), and also the rest of the balance owed that day when
 * `applyToBalance`; what is left of it is refunded. Nothing left: the deposit is forfeited.
 */
export const planDepositSettlement = (args: {
  deposit: Cents;
  /** the lease's balance on the settlement day, before the deductions (negative: a credit) */
  balance: Cents;
  deductions: readonly Cents[];
  applyToBalance: boolean;
}): DepositSettlementPlan => {
  const deductions = args.deductions.reduce((a, b) => a + b, 0n);
  const owed = deductions + (args.applyToBalance && args.balance > 0n ? args.balance : 0n);
  const applied = owed < args.deposit ? owed : args.deposit;
  const refund = args.deposit - applied;
  return {
    deductions_total: deductions,
    applied,
    refund,
    deposit_status: refund > 0n ? 'returned' : 'forfeited',
  };
};
