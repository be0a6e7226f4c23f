import { describe, expect, it } from 'vitest';
import {
  addMonths,
  agingBucket,
  buildLedger,
  centsToNumber,
  formatCents,
  leaseArrears,
  ledgerAnswer,
  rentCharges,
  toCents,
  type LeaseTerms,
  type LedgerPayment,
} from './ledger.ts';

const monthly = (start_date: string, rate: string | number, end_date: string | null = null): LeaseTerms => ({
  start_date,
  end_date,
  rate,
  rent_cycle: 'monthly',
});

const paid = (payment_date: string, amount_paid: string | number, extra: Partial<LedgerPayment> = {}) => ({
  payment_date,
  amount_paid,
  status: 'completed',
  ...extra,
});

const dues = (terms: LeaseTerms, asOf: string) => rentCharges(terms, asOf).map((c) => c.due_date);

/** The aging of a lease as plain numbers, for compact expectations. */
const aged = (terms: LeaseTerms, payments: LedgerPayment[], asOf: string) => {
  const a = leaseArrears(terms, payments, asOf);
  return {
    balance: centsToNumber(a.balance),
    overdue: centsToNumber(a.overdue),
    current: centsToNumber(a.current),
    days_1_30: centsToNumber(a.days_1_30),
    days_31_60: centsToNumber(a.days_31_60),
    days_61_90: centsToNumber(a.days_61_90),
    days_over_90: centsToNumber(a.days_over_90),
  };
};

const zero = { current: 0, days_1_30: 0, days_31_60: 0, days_61_90: 0, days_over_90: 0 };

describe('money in cents', () => {
  it('parses NUMERIC text and JSON numbers exactly, and formats back', () => {
    expect(toCents('1500000.50')).toBe(150000050n);
    expect(toCents('1500000')).toBe(150000000n);
    expect(toCents('12.300')).toBe(1230n);
    expect(toCents('0.05')).toBe(5n);
    expect(toCents(0.1)).toBe(10n);
    expect(toCents(-5.5)).toBe(-550n);
    expect(toCents(999_999_999_999.99)).toBe(99_999_999_999_999n);
    expect(formatCents(-550n)).toBe('-5.50');
    expect(formatCents(5n)).toBe('0.05');
    expect(formatCents(0n)).toBe('0.00');
    expect(centsToNumber(99_999_999_999_999n)).toBe(999_999_999_999.99);
  });

  it('refuses what is not an amount of cents', () => {
    expect(() => toCents('12.345')).toThrow(RangeError);
    expect(() => toCents(1.005)).toThrow(RangeError);
    expect(() => toCents('1e3')).toThrow(RangeError);
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
  });

  it('adds thirds of a shilling without drifting', () => {
    const lease = { ...monthly('2026-01-01', '333.33'), rent_cycle: 'monthly' };
    expect(buildLedger(lease, [], '2026-03-01').balance).toBe(99999n);
  });
});

describe('rent charges', () => {
  it('charges a lease starting mid-month on the same day each month', () => {
    expect(dues(monthly('2026-01-15', 1_000_000), '2026-04-14')).toEqual([
      '2026-01-15',
      '2026-02-15',
      '2026-03-15',
    ]);
    const charges = rentCharges(monthly('2026-01-15', 1_000_000), '2026-04-15');
    expect(charges).toHaveLength(4);
    expect(charges[0]).toEqual({ due_date: '2026-01-15', period_end: '2026-02-14', amount: 100000000n });
  });

  it('anchors month ends on the original day: Jan 31 → Feb 28 → Mar 31 → Apr 30', () => {
    expect(dues(monthly('2025-01-31', 100), '2025-05-31')).toEqual([
      '2025-01-31',
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-31',
    ]);
    expect(addMonths('2025-01-31', 13)).toBe('2026-02-28');
    expect(addMonths('2025-12-15', 1)).toBe('2026-01-15');
    expect(rentCharges(monthly('2025-01-31', 100), '2025-03-01')[1]?.period_end).toBe('2025-03-30');
  });

  it('knows leap years: Feb 29 exists in 2024 and 2028, not in 2025', () => {
    expect(dues(monthly('2024-01-31', 100), '2024-03-31')).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
    ]);
    // a lease starting on Feb 29 falls due on the 29th, on Feb 28 in common years
    expect(dues(monthly('2024-02-29', 100), '2025-03-29').slice(-2)).toEqual(['2025-02-28', '2025-03-29']);
    expect(addMonths('2024-02-29', 48)).toBe('2028-02-29');
    const daily = { start_date: '2024-02-27', rate: 10, rent_cycle: 'daily' };
    expect(dues(daily, '2024-03-01')).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    expect(dues({ ...daily, start_date: '2025-02-27' }, '2025-03-01')).toEqual([
      '2025-02-27',
      '2025-02-28',
      '2025-03-01',
    ]);
  });

  it('charges a weekly lease every 7 days', () => {
    const weekly = { start_date: '2026-03-02', rate: 200_000, rent_cycle: 'weekly' };
    expect(dues(weekly, '2026-03-22')).toEqual(['2026-03-02', '2026-03-09', '2026-03-16']);
    expect(dues(weekly, '2026-03-23')).toHaveLength(4);
    expect(rentCharges(weekly, '2026-03-02')[0]?.period_end).toBe('2026-03-08');
    expect(buildLedger(weekly, [], '2026-03-23').balance).toBe(toCents(800_000));
  });

  it('charges a daily lease every day, across a month end', () => {
    const daily = { start_date: '2026-05-30', rate: 50_000, rent_cycle: 'daily' };
    expect(dues(daily, '2026-06-02')).toEqual(['2026-05-30', '2026-05-31', '2026-06-01', '2026-06-02']);
    expect(buildLedger(daily, [], '2026-06-02').balance).toBe(toCents(200_000));
  });

  it('starts no period after the end date; a last short period is charged in full', () => {
    expect(dues(monthly('2025-01-10', 500_000, '2025-04-09'), '2026-01-01')).toEqual([
      '2025-01-10',
      '2025-02-10',
      '2025-03-10',
    ]);
    const endsOnDueDay = rentCharges(monthly('2025-01-10', 500_000, '2025-04-10'), '2026-01-01');
    expect(endsOnDueDay).toHaveLength(4);
    expect(endsOnDueDay[3]).toMatchObject({ due_date: '2025-04-10', period_end: '2025-04-10' });
    const weekly = { start_date: '2026-01-01', end_date: '2026-01-10', rate: 7, rent_cycle: 'weekly' };
    expect(rentCharges(weekly, '2026-12-31').map((c) => [c.due_date, c.period_end])).toEqual([
      ['2026-01-01', '2026-01-07'],
      ['2026-01-08', '2026-01-10'],
    ]);
  });

  it('charges nothing before the lease starts', () => {
    expect(rentCharges(monthly('2026-06-01', 100), '2026-05-31')).toEqual([]);
    expect(leaseArrears(monthly('2026-06-01', 100), [paid('2026-05-20', 100)], '2026-05-31').balance).toBe(
      -10000n,
    );
  });
});

describe('balances and arrears', () => {
  it('lets a payment cover three months', () => {
    const lease = monthly('2026-01-01', 1_000_000);
    const payments = [paid('2026-01-05', 3_000_000)];
    expect(aged(lease, payments, '2026-03-31')).toEqual({ balance: 0, overdue: 0, ...zero });
    // the fourth month is due on Apr 1 (current), overdue from Apr 2
    expect(aged(lease, payments, '2026-04-01')).toEqual({
      balance: 1_000_000,
      overdue: 0,
      ...zero,
      current: 1_000_000,
    });
    expect(aged(lease, payments, '2026-04-02')).toEqual({
      balance: 1_000_000,
      overdue: 1_000_000,
      ...zero,
      days_1_30: 1_000_000,
    });
  });

  it('leaves a balance after a partial payment, on the newest charges', () => {
    // Jan paid, Feb half paid (due Feb 1, 42 days ago), Mar unpaid (due Mar 1, 14 days ago)
    expect(aged(monthly('2026-01-01', 1_000_000), [paid('2026-01-03', 1_500_000)], '2026-03-15')).toEqual({
      balance: 1_500_000,
      overdue: 1_500_000,
      ...zero,
      days_1_30: 1_000_000,
      days_31_60: 500_000,
    });
  });

  it('keeps an overpayment as a credit, which pays the next charges', () => {
    const lease = monthly('2026-01-01', 1_000_000);
    const payments = [paid('2026-01-01', 2_500_000)];
    expect(aged(lease, payments, '2026-01-20')).toEqual({ balance: -1_500_000, overdue: 0, ...zero });
    expect(aged(lease, payments, '2026-03-05')).toEqual({
      balance: 500_000,
      overdue: 500_000,
      ...zero,
      days_1_30: 500_000,
    });
  });

  it('ages every charge of a lease with no payments', () => {
    // due Oct 1 (137 days), Nov 1 (106), Dec 1 (76), Jan 1 (45), Feb 1 (14)
    const a = leaseArrears(monthly('2025-10-01', 300_000), [], '2026-02-15');
    expect(a.last_payment).toBeNull();
    expect(aged(monthly('2025-10-01', 300_000), [], '2026-02-15')).toEqual({
      balance: 1_500_000,
      overdue: 1_500_000,
      current: 0,
      days_1_30: 300_000,
      days_31_60: 300_000,
      days_61_90: 300_000,
      days_over_90: 600_000,
    });
  });

  it('puts the bucket edges at 0, 30, 60 and 90 days overdue', () => {
    expect([0, 1, 30, 31, 60, 61, 90, 91].map(agingBucket)).toEqual([
      'current',
      'days_1_30',
      'days_1_30',
      'days_31_60',
      'days_31_60',
      'days_61_90',
      'days_61_90',
      'days_over_90',
    ]);
    const daily = { start_date: '2026-01-01', rate: 1, rent_cycle: 'daily' };
    // 92 daily charges from Jan 1 to Apr 2: 1 current, 30 + 30 + 30 in the middle buckets, 1 over 90
    expect(aged(daily, [], '2026-04-02')).toEqual({
      balance: 92,
      overdue: 91,
      current: 1,
      days_1_30: 30,
      days_31_60: 30,
      days_61_90: 30,
      days_over_90: 1,
    });
  });

  it('counts only completed payments dated on or before the day', () => {
    const lease = monthly('2026-01-01', 1_000);
    const payments = [
      paid('2026-01-02', 1_000, { status: 'pending' }),
      paid('2026-01-02', 1_000, { status: 'failed' }),
      paid('2026-02-10', 1_000),
      paid('2026-01-05', 400, { id: 7 }),
      paid('2026-01-05', 100, { id: 9 }),
    ];
    const a = leaseArrears(lease, payments, '2026-02-01');
    expect(a.balance).toBe(toCents(1_500));
    expect(a.last_payment).toEqual({ date: '2026-01-05', amount: toCents(100) });
    expect(leaseArrears(lease, payments, '2026-02-10').balance).toBe(toCents(500));
  });
});

describe('the ledger', () => {
  it('lists charges, the deposit and payments in date order with a running balance', () => {
    const lease: LeaseTerms = {
      ...monthly('2026-01-15', '1000000.00', '2026-03-20'),
      deposit_amount: '2000000.00',
      deposit_status: 'returned',
    };
    const payments: LedgerPayment[] = [
      paid('2026-02-15', '1000000.00', {
        id: 2,
        receipt_number: 'RCT-000002',
        payment_method: 'mobilemoney',
      }),
      paid('2026-01-15', '1000000.00', { id: 1, payment_serial: 'PAY-000001', receipt_number: null }),
      paid('2026-01-20', '50.00', { id: 3, status: 'pending' }),
    ];
    const ledger = buildLedger(lease, payments, '2026-06-01');
    expect(ledgerAnswer(12, '2026-06-01', ledger)).toEqual({
      occupancy_id: 12,
      as_of: '2026-06-01',
      balance: 1_000_000,
      entries: [
        {
          date: '2026-01-15',
          kind: 'rent',
          description: 'Rent Jan 15, 2026 – Feb 14, 2026',
          amount: 1_000_000,
          balance: 1_000_000,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-01-15',
          kind: 'deposit',
          description: 'Deposit received (returned)',
          amount: 2_000_000,
          balance: 1_000_000,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-01-15',
          kind: 'payment',
          description: 'Payment PAY-000001',
          amount: -1_000_000,
          balance: 0,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-02-15',
          kind: 'rent',
          description: 'Rent Feb 15, 2026 – Mar 14, 2026',
          amount: 1_000_000,
          balance: 1_000_000,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-02-15',
          kind: 'payment',
          description: 'Payment RCT-000002 (Mobile money)',
          amount: -1_000_000,
          balance: 0,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-03-15',
          kind: 'rent',
          description: 'Rent Mar 15, 2026 – Mar 20, 2026',
          amount: 1_000_000,
          balance: 1_000_000,
          charge_id: null,
          category: null,
        },
      ],
    });
  });

  it('describes a daily charge by its day and a held deposit as held', () => {
    const lease: LeaseTerms = {
      start_date: '2026-05-30',
      rate: 50_000,
      rent_cycle: 'daily',
      deposit_amount: 100_000,
      deposit_status: 'held',
    };
    const ledger = buildLedger(lease, [], '2026-05-30');
    expect(ledger.entries.map((e) => e.description)).toEqual([
      'Rent May 30, 2026',
      'Deposit received (held)',
    ]);
    expect(ledger.balance).toBe(toCents(50_000));
  });

  it('agrees with the arrears on the balance', () => {
    const lease = monthly('2025-11-30', '750000.00');
    const payments = [paid('2025-12-01', '700000.00'), paid('2026-02-28', '800000.00')];
    expect(buildLedger(lease, payments, '2026-03-31').balance).toBe(
      leaseArrears(lease, payments, '2026-03-31').balance,
    );
  });
});
