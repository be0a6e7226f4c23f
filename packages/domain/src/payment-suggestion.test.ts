import { describe, expect, it } from 'vitest';
import { centsToNumber, type LeaseTerms } from './ledger.ts';
import { paymentSuggestion } from './payment-suggestion.ts';

const lease: LeaseTerms = { start_date: '2026-01-01', end_date: null, rate: 800000, rent_cycle: 'monthly' };
const paid = (payment_date: string, amount_paid: number) => ({
  payment_date,
  amount_paid,
  status: 'completed',
});

const plain = (s: ReturnType<typeof paymentSuggestion>) => ({
  amount: s.amount === null ? null : centsToNumber(s.amount),
  due: s.due,
  period: s.period,
});

describe('paymentSuggestion', () => {
  it('suggests the balance due, from the oldest unpaid rent to the latest period started', () => {
    // Jan paid, Feb half paid, Mar unpaid: 400,000 + 800,000 due from Feb 1 to Mar 31
    const s = paymentSuggestion(
      lease,
      [paid('2026-01-02', 800000), paid('2026-02-03', 400000)],
      {},
      '2026-03-10',
    );
    expect(plain(s)).toEqual({
      amount: 1200000,
      due: true,
      period: { start: '2026-02-01', end: '2026-03-31' },
    });
    expect(centsToNumber(s.rent)).toBe(800000);
  });

  it('suggests the next period’s rent when nothing is due, and when the tenant has a credit', () => {
    const s = paymentSuggestion(
      lease,
      [paid('2026-01-02', 800000), paid('2026-02-01', 800000)],
      {},
      '2026-02-15',
    );
    expect(plain(s)).toEqual({
      amount: 800000,
      due: false,
      period: { start: '2026-03-01', end: '2026-03-31' },
    });
    const credit = paymentSuggestion(lease, [paid('2026-01-02', 2000000)], {}, '2026-02-15');
    expect(centsToNumber(credit.balance)).toBe(-400000);
    expect(plain(credit)).toEqual({
      amount: 800000,
      due: false,
      period: { start: '2026-03-01', end: '2026-03-31' },
    });
  });

  it('offers the first period of a lease not started yet, and a short last period', () => {
    expect(plain(paymentSuggestion(lease, [], {}, '2025-12-20'))).toEqual({
      amount: 800000,
      due: false,
      period: { start: '2026-01-01', end: '2026-01-31' },
    });
    const ending = { ...lease, end_date: '2026-02-14' };
    expect(plain(paymentSuggestion(ending, [paid('2026-01-02', 800000)], {}, '2026-01-20'))).toEqual({
      amount: 800000,
      due: false,
      period: { start: '2026-02-01', end: '2026-02-14' },
    });
  });

  it('suggests nothing for a lease that ended with nothing due', () => {
    const ended = { ...lease, end_date: '2026-01-31' };
    expect(plain(paymentSuggestion(ended, [paid('2026-01-02', 800000)], {}, '2026-03-01'))).toEqual({
      amount: null,
      due: false,
      period: null,
    });
  });

  it('names the latest period when only a fee is unpaid', () => {
    const extras = {
      charges: [
        { id: 1, date: '2026-01-10', kind: 'late_fee' as const, description: 'Late fee', amount: 25000 },
      ],
    };
    expect(plain(paymentSuggestion(lease, [paid('2026-01-12', 800000)], extras, '2026-01-20'))).toEqual({
      amount: 25000,
      due: true,
      period: { start: '2026-01-01', end: '2026-01-31' },
    });
  });
});
