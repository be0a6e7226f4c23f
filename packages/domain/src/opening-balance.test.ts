import { describe, expect, it } from 'vitest';
import {
  backRent,
  backRentWarning,
  buildLedger,
  formatCents,
  leaseArrears,
  rentCharges,
  rentPeriods,
  type Cents,
  type LeaseTerms,
} from './ledger.ts';
import { lateFeesDue } from './rent-cycle.ts';
import { defaultLateFeePolicy, type LateFeePolicy } from './company-settings.ts';
import { formatMoney } from './money.ts';

const lease = (extra: Partial<LeaseTerms> = {}): LeaseTerms => ({
  start_date: '2025-11-01',
  rate: '500000',
  rent_cycle: 'monthly',
  ...extra,
});
const ugx = (c: Cents) => formatMoney(formatCents(c), 'UGX');

describe('opening balances (issue 25)', () => {
  it('charges no rent for periods due on or before the opening balance date', () => {
    const all = rentPeriods(lease({ opening_balance_date: '2026-10-01' }), '2026-11-28');
    expect(all).toHaveLength(13);
    const on = rentCharges(lease({ opening_balance_date: '2026-10-01' }), '2026-11-28');
    expect(on.map((c) => c.due_date)).toEqual(['2026-11-01']);
    const dayBefore = rentCharges(lease({ opening_balance_date: '2026-09-30' }), '2026-11-28');
    expect(dayBefore.map((c) => c.due_date)).toEqual(['2026-10-01', '2026-11-01']);
    const dayAfter = rentCharges(lease({ opening_balance_date: '2026-10-02' }), '2026-11-28');
    expect(dayAfter.map((c) => c.due_date)).toEqual(['2026-11-01']);
  });

  it('puts the opening balance in the ledger and the arrears from its date, a credit paying rent after it', () => {
    const owed = lease({ opening_balance: '300000', opening_balance_date: '2026-10-01' });
    const ledger = buildLedger(owed, [], '2026-11-28');
    expect(ledger.entries.map((e) => [e.date, e.kind, e.description, formatCents(e.amount)])).toEqual([
      ['2026-10-01', 'opening_balance', 'Opening balance', '300000.00'],
      ['2026-11-01', 'rent', 'Rent Nov 1, 2026 – Nov 30, 2026', '500000.00'],
    ]);
    expect(ledger.balance).toBe(80_000_000n);
    const a = leaseArrears(owed, [], '2026-11-28');
    expect(a.days_31_60).toBe(30_000_000n);
    expect(a.days_1_30).toBe(50_000_000n);
    // a payment pays the opening balance first (it is older)
    const paid = leaseArrears(
      owed,
      [{ payment_date: '2026-11-02', amount_paid: '300000', status: 'completed' }],
      '2026-11-28',
    );
    expect(paid.days_31_60).toBe(0n);
    expect(paid.days_1_30).toBe(50_000_000n);
    const credit = lease({ opening_balance: '-200000', opening_balance_date: '2026-10-01' });
    expect(buildLedger(credit, [], '2026-11-28').balance).toBe(30_000_000n);
    expect(leaseArrears(credit, [], '2026-11-28')).toMatchObject({
      balance: 30_000_000n,
      overdue: 30_000_000n,
    });
    // before its date the opening balance does not count yet
    expect(buildLedger(owed, [], '2026-09-30').entries).toEqual([]);
  });

  it('charges no late fee on rent before the opening balance date', () => {
    const policy: LateFeePolicy = { ...defaultLateFeePolicy, enabled: true, amount: 10_000 };
    const window = { from: '2025-11-01', to: '2026-11-28' };
    const without = lateFeesDue(lease(), [], {}, policy, window, 0);
    expect(without.length).toBe(13);
    const opened = lateFeesDue(lease({ opening_balance_date: '2026-10-01' }), [], {}, policy, window, 0);
    expect(opened.map((f) => f.rent_due_date)).toEqual(['2026-11-01']);
  });

  it('counts the back rent up to today and words the warning', () => {
    const b = backRent(lease(), '2026-11-28');
    expect(b).toEqual({ charges: 13, total: 650_000_000n, rate: 50_000_000n });
    expect(backRentWarning('2025-11-01', b, ugx).replace(/\s/g, ' ')).toBe(
      'This lease starts Nov 1, 2025: 13 rent charges of UGX 500,000 (UGX 6,500,000) will be posted. Set an opening balance if some was paid.',
    );
    const changed = backRent(
      lease({ rate_changes: [{ effective_date: '2026-06-01', rate: '600000' }] }),
      '2026-11-28',
    );
    expect(changed).toEqual({ charges: 13, total: 710_000_000n, rate: null });
    expect(backRentWarning('2025-11-01', changed, ugx)).toContain('13 rent charges (UGX');
    expect(backRent(lease({ opening_balance_date: '2026-10-01' }), '2026-11-28').charges).toBe(1);
    // none: starting today or later, or terms being typed
    expect(backRent(lease({ start_date: '2026-11-28' }), '2026-11-28').charges).toBe(0);
    expect(backRent(lease({ start_date: '2026-1' }), '2026-11-28').charges).toBe(0);
    expect(backRent(lease({ rate: '' }), '2026-11-28').charges).toBe(0);
    expect(
      backRentWarning('2025-11-01', backRent(lease({ start_date: '2027-01-01' }), '2026-11-28'), ugx),
    ).toBe('');
  });
});
