import { z } from 'zod';
import {
  dayOf,
  isoOfDay,
  leaseCredits,
  leaseDebits,
  netOn,
  periodStart,
  rateOn,
  rentPeriods,
  type Cents,
  type LeaseTerms,
  type LedgerExtras,
  type LedgerPayment,
} from './ledger.ts';

/**
 * What the payment form suggests for a lease (issue 26, 'Recording a payment is quick'): the balance
 * due today when there is one, else the rent of the next period, and the period the amount covers.
 */
export type PaymentSuggestion = {
  /** the lease's balance today (positive: owed; negative: a credit) */
  balance: Cents;
  /** the rent of the period suggested (the rate in force on its first day) */
  rent: Cents;
  /** the amount suggested: the balance when something is due, else the next rent (null: a lease that ended) */
  amount: Cents | null;
  /** whether the amount is a balance due (else it is the next period's rent) */
  due: boolean;
  /** the period the amount covers, or null when the lease has no period to offer (ended, nothing due) */
  period: { start: string; end: string } | null;
};

/** Period `k` (from 0) of a lease: its first and last day, or null when it starts after the lease's end. */
export const leasePeriod = (terms: LeaseTerms, k: number): { start: string; end: string } | null => {
  const start = periodStart(terms, k);
  const end = terms.end_date ?? null;
  if (end && start > end) return null;
  const last = isoOfDay(dayOf(periodStart(terms, k + 1)) - 1);
  return { start, end: end && end < last ? end : last };
};

/**
 * The suggestion for a payment of a lease on `today`. Something due: the whole balance, for the
 * periods from the oldest rent still unpaid (credits pay the oldest debits first) to the latest period
 * started (only fees or charges unpaid: the latest period). Nothing due (or a credit): the rent of the
 * next period, not started yet, for that period; a lease that ended, nothing (amount and period null).
 */
export const paymentSuggestion = (
  terms: LeaseTerms,
  payments: readonly LedgerPayment[],
  extras: LedgerExtras,
  today: string,
): PaymentSuggestion => {
  const debits = leaseDebits(terms, extras, today);
  const credits = leaseCredits(payments, extras, today, terms);
  const charged = debits.reduce((sum, d) => sum + netOn(d, today), 0n);
  const balance = charged - credits;
  const started = rentPeriods(terms, today);
  const latest = started.length > 0 ? leasePeriod(terms, started.length - 1) : null;
  const next = leasePeriod(terms, started.length);
  if (balance > 0n) {
    let left = credits;
    let oldest: string | undefined;
    for (const d of debits) {
      const amount = netOn(d, today);
      const covered = left < amount ? left : amount;
      left -= covered;
      if (amount - covered > 0n && d.kind === 'rent') {
        oldest = d.date;
        break;
      }
    }
    const rentEnds = debits.filter((d) => d.kind === 'rent').map((d) => d.period_end ?? d.date);
    const end = rentEnds.length > 0 ? rentEnds.reduce((a, b) => (a > b ? a : b)) : undefined;
    const period = oldest && end ? { start: oldest, end } : (latest ?? next ?? null);
    return { balance, rent: rateOn(terms, period?.start ?? today), amount: balance, due: true, period };
  }
  // a lease that ended has no next rent: nothing to suggest
  if (!next)
    return { balance, rent: rateOn(terms, latest?.start ?? today), amount: null, due: false, period: null };
  const rent = rateOn(terms, next.start);
  return { balance, rent, amount: rent, due: false, period: next };
};

/** `GET /payments/suggestion`: the lease a payment of the tenant (and unit) goes to, and what to prefill. */
export const paymentSuggestionSchema = z.object({
  occupancy_id: z.int(),
  unit_id: z.int(),
  unit_name: z.string().nullable(),
  property_name: z.string().nullable(),
  /** the company's today: the day the balance is read */
  as_of: z.iso.date(),
  balance: z.number(),
  rent: z.number(),
  /** null: nothing is due and the lease has ended (no next rent) */
  amount: z.number().nullable(),
  due: z.boolean(),
  period_start: z.iso.date().nullable(),
  period_end: z.iso.date().nullable(),
});
export type PaymentSuggestionAnswer = z.infer<typeof paymentSuggestionSchema>;
