import { describe, expect, it } from 'vitest';
import {
  defaultLateFeePolicy,
  lateFeePolicySchema,
  remindersSchema,
  type LateFeePolicy,
} from './company-settings.ts';
import {
  addDays,
  buildLedger,
  centsToNumber,
  leaseArrears,
  rentCharges,
  toCents,
  type LeaseTerms,
  type LedgerCharge,
  type LedgerExtras,
  type LedgerPayment,
} from './ledger.ts';
import {
  effectiveLateFeePolicy,
  escalationsDue,
  isStaleReminder,
  lateFeeDates,
  lateFeeSourcesOn,
  lateFeesDue,
  localTime,
  percentOf,
  planDepositSettlement,
  remindersDue,
  roundToCurrency,
  type DueLateFee,
} from './rent-cycle.ts';

const lease = (start_date: string, rate: number | string, extra: Partial<LeaseTerms> = {}): LeaseTerms => ({
  start_date,
  rate,
  rent_cycle: 'monthly',
  ...extra,
});
const paid = (payment_date: string, amount_paid: number | string): LedgerPayment => ({
  payment_date,
  amount_paid,
  status: 'completed',
});
const policy = (p: Partial<LateFeePolicy> = {}): LateFeePolicy => ({
  ...defaultLateFeePolicy,
  enabled: true,
  grace_days: 5,
  kind: 'flat',
  amount: 50_000,
  repeat: 'once',
  cap: null,
  ...p,
});
const window = (from: string, to = from) => ({ from, to });
const fees = (list: DueLateFee[]) => list.map((f) => [f.date, f.rent_due_date, centsToNumber(f.amount)]);

/** The fees posted so far, as the ledger's stored charges. */
const stored = (list: DueLateFee[], firstId = 1): LedgerCharge[] =>
  list.map((f, i) => ({
    id: firstId + i,
    date: f.date,
    kind: 'late_fee',
    description: f.description,
    amount: centsToNumber(f.amount),
    rent_due_date: f.rent_due_date,
  }));

describe('late fees', () => {
  const march = lease('2026-03-01', 1_000_000, { end_date: '2026-03-31' });

  it('dates the first fee the day after the due date plus the grace days (due 1 March, grace 5: 7 March)', () => {
    expect(lateFeeDates('2026-03-01', policy(), window('2026-01-01', '2026-12-31'))).toEqual(['2026-03-07']);
    expect(fees(lateFeesDue(march, [], {}, policy(), window('2026-03-06'), 0))).toEqual([]);
    expect(fees(lateFeesDue(march, [], {}, policy(), window('2026-03-07'), 0))).toEqual([
      ['2026-03-07', '2026-03-01', 50_000],
    ]);
    // grace 0: the day after the due date
    expect(fees(lateFeesDue(march, [], {}, policy({ grace_days: 0 }), window('2026-03-02'), 0))).toEqual([
      ['2026-03-02', '2026-03-01', 50_000],
    ]);
  });

  it('charges a flat amount, or a percentage of what is unpaid of the charge', () => {
    expect(
      fees(lateFeesDue(march, [], {}, policy({ kind: 'percent', amount: 5 }), window('2026-03-07'), 0)),
    ).toEqual([['2026-03-07', '2026-03-01', 50_000]]);
    // 2.5 % of 1,000,000.10 is 25,000.0025: rounded to the currency (UGX: whole shillings; USD: cents)
    const odd = lease('2026-03-01', '1000000.10', { end_date: '2026-03-31' });
    const p = policy({ kind: 'percent', amount: 2.5 });
    expect(fees(lateFeesDue(odd, [], {}, p, window('2026-03-07'), 0))).toEqual([
      ['2026-03-07', '2026-03-01', 25_000],
    ]);
    expect(fees(lateFeesDue(odd, [], {}, p, window('2026-03-07'), 2))).toEqual([
      ['2026-03-07', '2026-03-01', 25_000],
    ]);
    expect(percentOf(toCents('1000.50'), 10, 2)).toBe(toCents('100.05'));
    expect(roundToCurrency(toCents('100.50'), 0)).toBe(toCents(101));
  });

  it('counts a partial payment made before the fee day, and none for a charge paid in time', () => {
    const part = [paid('2026-03-06', 600_000)];
    expect(
      fees(lateFeesDue(march, part, {}, policy({ kind: 'percent', amount: 10 }), window('2026-03-07'), 0)),
    ).toEqual([['2026-03-07', '2026-03-01', 40_000]]);
    // paid on the fee day itself: too late, the fee is decided on the day before
    expect(
      fees(lateFeesDue(march, [paid('2026-03-07', 1_000_000)], {}, policy(), window('2026-03-07'), 0)),
    ).toEqual([['2026-03-07', '2026-03-01', 50_000]]);
    expect(
      lateFeesDue(march, [paid('2026-03-06', 1_000_000)], {}, policy(), window('2026-03-07'), 0),
    ).toEqual([]);
    // a pending payment does not count
    expect(
      lateFeesDue(
        march,
        [{ ...paid('2026-03-02', 1_000_000), status: 'pending' }],
        {},
        policy(),
        window('2026-03-07'),
        0,
      ),
    ).toHaveLength(1);
  });

  it('repeats weekly from the first fee day while the charge stays unpaid', () => {
    const weekly = policy({ repeat: 'weekly' });
    expect(lateFeeDates('2026-03-01', weekly, window('2026-03-01', '2026-03-31'))).toEqual([
      '2026-03-07',
      '2026-03-14',
      '2026-03-21',
      '2026-03-28',
    ]);
    // paid on 15 March: the fees of the 7th and 14th, not those after
    const list = lateFeesDue(
      march,
      [paid('2026-03-15', 1_100_000)],
      {},
      weekly,
      window('2026-03-01', '2026-03-31'),
      0,
    );
    expect(fees(list)).toEqual([
      ['2026-03-07', '2026-03-01', 50_000],
      ['2026-03-14', '2026-03-01', 50_000],
    ]);
  });

  it('repeats monthly on the same day (the last day of a shorter month)', () => {
    const monthly = policy({ repeat: 'monthly', grace_days: 30 });
    // due 31 Dec, grace 30: first fee 31 Jan, then 28 Feb, 31 Mar
    expect(lateFeeDates('2025-12-31', monthly, window('2026-01-01', '2026-04-30'))).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
    const one = lease('2025-12-31', 1_000, { end_date: '2026-01-01' });
    expect(fees(lateFeesDue(one, [], {}, monthly, window('2026-02-01', '2026-03-31'), 2))).toEqual([
      ['2026-02-28', '2025-12-31', 50_000],
      ['2026-03-31', '2025-12-31', 50_000],
    ]);
  });

  it('finds the charges that may get a fee on a day exactly as their schedules say (month ends, leap years)', () => {
    const days = [
      ...Array.from({ length: 45 }, (_, i) => addDays('2024-01-25', i)),
      ...['2024-04-30', '2024-05-31', '2024-06-30', '2024-12-31', '2025-02-28', '2025-03-31'],
    ];
    const dues = Array.from({ length: 560 }, (_, i) => addDays('2023-01-01', i));
    for (const repeat of ['once', 'weekly', 'monthly'] as const) {
      for (const grace_days of [0, 5, 30]) {
        const p = policy({ repeat, grace_days });
        for (const day of days) {
          const forward = dues.filter((due) => lateFeeDates(due, p, window(day)).includes(day));
          const last = dues[dues.length - 1] as string;
          const inverse = lateFeeSourcesOn(day, p, '2023-01-01')
            .filter((due) => due <= last)
            .sort();
          expect(inverse, `${repeat} grace ${grace_days} on ${day}`).toEqual(forward);
        }
      }
    }
  });

  it('never charges more than the cap for one charge: the last fee is cut to fit', () => {
    const capped = policy({ repeat: 'weekly', amount: 40_000, cap: 100_000 });
    const list = lateFeesDue(march, [], {}, capped, window('2026-03-01', '2026-04-30'), 0);
    expect(fees(list)).toEqual([
      ['2026-03-07', '2026-03-01', 40_000],
      ['2026-03-14', '2026-03-01', 40_000],
      ['2026-03-21', '2026-03-01', 20_000],
    ]);
    // fees posted before count towards the cap
    const first = lateFeesDue(march, [], {}, capped, window('2026-03-07'), 0);
    const later = lateFeesDue(
      march,
      [],
      { charges: stored(first) },
      capped,
      window('2026-03-08', '2026-04-30'),
      0,
    );
    expect(fees(later)).toEqual([
      ['2026-03-14', '2026-03-01', 40_000],
      ['2026-03-21', '2026-03-01', 20_000],
    ]);
  });

  it('posts nothing twice, and keeps a posted fee when the policy changes (only future fees change)', () => {
    const first = lateFeesDue(march, [], {}, policy({ repeat: 'weekly' }), window('2026-03-07'), 0);
    const extras: LedgerExtras = { charges: stored(first) };
    expect(lateFeesDue(march, [], extras, policy({ repeat: 'weekly' }), window('2026-03-07'), 0)).toEqual([]);
    const changed = lateFeesDue(
      march,
      [],
      extras,
      policy({ repeat: 'weekly', amount: 70_000 }),
      window('2026-03-01', '2026-03-14'),
      0,
    );
    expect(fees(changed)).toEqual([['2026-03-14', '2026-03-01', 70_000]]);
  });

  it('catches up a window of missed days with each fee on its own date', () => {
    const two = lease('2026-02-01', 1_000_000);
    const list = lateFeesDue(two, [], {}, policy({ grace_days: 0 }), window('2026-02-01', '2026-03-10'), 0);
    expect(fees(list)).toEqual([
      ['2026-02-02', '2026-02-01', 50_000],
      ['2026-03-02', '2026-03-01', 50_000],
    ]);
  });

  it('gives rent charges fees, never other charges or fees', () => {
    const paidRent = lease('2026-03-01', 1_000_000, { end_date: '2026-03-31' });
    const extras: LedgerExtras = {
      charges: [
        {
          id: 9,
          date: '2026-03-02',
          kind: 'charge',
          category: 'utility',
          description: 'Water',
          amount: 30_000,
        },
      ],
    };
    expect(
      lateFeesDue(
        paidRent,
        [paid('2026-03-01', 1_000_000)],
        extras,
        policy(),
        window('2026-03-01', '2026-06-30'),
        0,
      ),
    ).toEqual([]);
  });

  it('lets payments pay the oldest debits first, an earlier fee included', () => {
    // rent of Feb unpaid: a fee on 7 Feb; a payment of 1,050,000 on 2 Mar pays Feb and its fee,
    // so the March rent is unpaid on 7 March
    const l = lease('2026-02-01', 1_000_000);
    const payments = [paid('2026-03-02', 1_050_000)];
    const list = lateFeesDue(l, payments, {}, policy(), window('2026-02-01', '2026-03-31'), 0);
    expect(fees(list)).toEqual([
      ['2026-02-07', '2026-02-01', 50_000],
      ['2026-03-07', '2026-03-01', 50_000],
    ]);
    // paying 1,000,000 more on 6 March pays March too (the fee came first): no fee on 7 March
    const more = lateFeesDue(
      l,
      [...payments, paid('2026-03-06', 1_000_000)],
      {},
      policy(),
      window('2026-02-01', '2026-03-31'),
      0,
    );
    expect(fees(more)).toEqual([['2026-02-07', '2026-02-01', 50_000]]);
  });

  it('counts a waiver: a waived fee no longer takes a payment, which then pays the rent', () => {
    const l = lease('2026-02-01', 1_000_000);
    const first = lateFeesDue(l, [], {}, policy(), window('2026-02-07'), 0);
    const payments = [paid('2026-03-02', 2_000_000)];
    // the fee of 7 Feb unwaived: 2,000,000 pays Feb rent, the fee and 950,000 of March: a fee on 7 March
    const unwaived = { charges: stored(first) };
    expect(fees(lateFeesDue(l, payments, unwaived, policy(), window('2026-03-07'), 0))).toEqual([
      ['2026-03-07', '2026-03-01', 50_000],
    ]);
    // waived on 3 March: the payment covers both rents
    const waived = {
      ...unwaived,
      waivers: [{ charge_id: 1, date: '2026-03-03', amount: 50_000, reason: 'First time' }],
    };
    expect(lateFeesDue(l, payments, waived, policy(), window('2026-03-07'), 0)).toEqual([]);
    // the ledger shows the waiver as an entry of its own, and the balance without the fee
    const ledger = buildLedger(l, payments, '2026-03-07', waived);
    expect(ledger.entries.map((e) => [e.date, e.kind, centsToNumber(e.amount)])).toEqual([
      ['2026-02-01', 'rent', 1_000_000],
      ['2026-02-07', 'late_fee', 50_000],
      ['2026-03-01', 'rent', 1_000_000],
      ['2026-03-02', 'payment', -2_000_000],
      ['2026-03-03', 'waiver', -50_000],
    ]);
    expect(ledger.balance).toBe(0n);
  });

  it('follows the lease: exempt, its own policy, or the company’s', () => {
    const company = policy();
    const own = policy({ amount: 1 });
    expect(effectiveLateFeePolicy({ late_fee_exempt: true, late_fee: own }, company)).toBeNull();
    expect(effectiveLateFeePolicy({ late_fee: own }, company)).toBe(own);
    expect(effectiveLateFeePolicy({}, company)).toBe(company);
    expect(effectiveLateFeePolicy({ late_fee: { ...own, enabled: false } }, company)).toBeNull();
    expect(effectiveLateFeePolicy({}, { ...company, enabled: false })).toBeNull();
  });

  it('validates a policy with its messages', () => {
    const bad = lateFeePolicySchema.safeParse({
      ...policy(),
      grace_days: 61,
      kind: 'percent',
      amount: 120,
      cap: 0,
    });
    expect(bad.success).toBe(false);
    const messages = Object.fromEntries((bad.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(messages).toMatchObject({
      grace_days: 'Grace days must be a whole number from 0 to 60.',
      cap: 'The cap must be greater than 0.',
    });
    const enabledWithout = lateFeePolicySchema.safeParse({ ...policy(), amount: 0 });
    expect(enabledWithout.error?.issues[0]?.message).toBe('The amount must be greater than 0.');
    expect(
      lateFeePolicySchema.safeParse({ ...policy(), kind: 'percent', amount: 101 }).error?.issues[0]?.message,
    ).toBe('A percentage must be at most 100.');
  });
});

describe('the ledger and the arrears with charges beyond rent', () => {
  it('counts fees, charges, waivers and the deposit applied in the balance and the buckets', () => {
    const l = lease('2026-01-01', 1_000, {
      deposit_amount: 500,
      deposit_status: 'returned',
      end_date: '2026-02-28',
    });
    const extras: LedgerExtras = {
      charges: [
        {
          id: 1,
          date: '2026-01-07',
          kind: 'late_fee',
          description: 'Late fee',
          amount: 50,
          rent_due_date: '2026-01-01',
        },
        { id: 2, date: '2026-02-10', kind: 'charge', category: 'utility', description: 'Water', amount: 80 },
        { id: 3, date: '2026-02-11', kind: 'charge', category: 'damage', description: 'Window', amount: 40 },
      ],
      waivers: [{ id: 1, charge_id: 3, date: '2026-02-12', amount: 40, reason: 'Storm' }],
      settlement: { date: '2026-03-01', applied_amount: 300, refund_amount: 200, refund_method: 'cash' },
    };
    const before = leaseArrears(l, [paid('2026-01-05', 1_000)], '2026-02-20', extras);
    // owed: fee 50 (Jan 7, 44 days), Feb rent 1,000 (19 days), water 80 (10 days); the window was waived
    expect(centsToNumber(before.balance)).toBe(1_130);
    expect(centsToNumber(before.days_31_60)).toBe(50);
    expect(centsToNumber(before.days_1_30)).toBe(1_080);
    const after = buildLedger(l, [paid('2026-01-05', 1_000)], '2026-03-01', extras);
    expect(
      after.entries.map((e) => [e.kind, e.description, centsToNumber(e.amount), centsToNumber(e.balance)]),
    ).toEqual([
      ['rent', 'Rent Jan 1, 2026 – Jan 31, 2026', 1_000, 1_000],
      ['deposit', 'Deposit received (returned)', 500, 1_000],
      ['payment', 'Payment', -1_000, 0],
      ['late_fee', 'Late fee', 50, 50],
      ['rent', 'Rent Feb 1, 2026 – Feb 28, 2026', 1_000, 1_050],
      ['charge', 'Utility: Water', 80, 1_130],
      ['charge', 'Damage: Window', 40, 1_170],
      ['waiver', 'Waived: Damage: Window (Storm)', -40, 1_130],
      ['deposit_applied', 'Deposit applied to the balance', -300, 830],
      ['deposit_refund', 'Deposit refunded (Cash)', 200, 830],
    ]);
    expect(after.entries.filter((e) => e.charge_id !== undefined).map((e) => e.charge_id)).toEqual([
      1, 2, 3, 3,
    ]);
    const arrears = leaseArrears(l, [paid('2026-01-05', 1_000)], '2026-03-01', extras);
    expect(arrears.balance).toBe(after.balance);
    // the deposit applied paid the oldest: the fee and 250 of February's rent
    expect(centsToNumber(arrears.days_1_30)).toBe(830);
  });
});

describe('rate changes and escalation', () => {
  it('charges each period the rate in force on its first day, across a change within a period', () => {
    const l = lease('2026-01-15', 1_000, {
      rate_changes: [
        { effective_date: '2026-03-01', rate: 1_100 }, // within the Feb 15 – Mar 14 period: from Mar 15 on
        { effective_date: '2026-04-15', rate: '1200.50' }, // on a period's first day: that period
      ],
    });
    expect(rentCharges(l, '2026-05-15').map((c) => [c.due_date, centsToNumber(c.amount)])).toEqual([
      ['2026-01-15', 1_000],
      ['2026-02-15', 1_000],
      ['2026-03-15', 1_100],
      ['2026-04-15', 1_200.5],
      ['2026-05-15', 1_200.5],
    ]);
  });

  it('turns an escalation rule into rate changes on their dates, compounding, rounded to the currency', () => {
    const l = lease('2024-03-31', 1_000_000, { end_date: '2027-12-31' });
    const rule = { percent: 5, every_months: 12 };
    // a window of two years: both anniversaries, the second on the first
    expect(escalationsDue(l, rule, window('2024-04-01', '2026-12-31'), 0)).toEqual([
      { effective_date: '2025-03-31', rate: '1050000.00' },
      { effective_date: '2026-03-31', rate: '1102500.00' },
    ]);
    // only the days of the window; one already there is not made again
    expect(escalationsDue(l, rule, window('2025-03-31'), 0)).toHaveLength(1);
    const withOne = { ...l, rate_changes: [{ effective_date: '2025-03-31', rate: 1_050_000 }] };
    expect(escalationsDue(withOne, rule, window('2025-03-31'), 0)).toEqual([]);
    // 3 % of 1,234,567 in whole shillings; a manual change before it is its base
    const odd = lease('2025-01-01', 1_234_567, {
      rate_changes: [{ effective_date: '2025-06-01', rate: 1_234_567 }],
    });
    expect(escalationsDue(odd, { percent: 3, every_months: 6 }, window('2025-07-01'), 0)).toEqual([
      { effective_date: '2025-07-01', rate: '1271604.00' },
    ]);
    // the rule stops at the end date, and without both parts there is none
    expect(escalationsDue({ ...l, end_date: '2025-03-30' }, rule, window('2025-03-31'), 0)).toEqual([]);
    expect(escalationsDue(l, { percent: 5, every_months: null }, window('2025-03-31'), 0)).toEqual([]);
  });

  it('charges the escalated rate from the period starting on the escalation day', () => {
    const l = lease('2025-01-10', 1_000, {
      rate_changes: escalationsDue(
        lease('2025-01-10', 1_000),
        { percent: 10, every_months: 12 },
        window('2026-01-10'),
        2,
      ),
    });
    expect(
      rentCharges(l, '2026-02-10')
        .slice(-3)
        .map((c) => [c.due_date, centsToNumber(c.amount)]),
    ).toEqual([
      ['2025-12-10', 1_000],
      ['2026-01-10', 1_100],
      ['2026-02-10', 1_100],
    ]);
  });
});

describe('deposit settlement', () => {
  it('pays the deductions from the deposit and refunds the rest', () => {
    expect(
      planDepositSettlement({
        deposit: toCents(1_000),
        balance: toCents(300),
        deductions: [toCents(100), toCents(50)],
        applyToBalance: false,
      }),
    ).toEqual({
      deductions_total: toCents(150),
      applied: toCents(150),
      refund: toCents(850),
      deposit_status: 'returned',
    });
  });

  it('pays the outstanding balance too when asked', () => {
    expect(
      planDepositSettlement({
        deposit: toCents(1_000),
        balance: toCents(300),
        deductions: [toCents(100)],
        applyToBalance: true,
      }),
    ).toEqual({
      deductions_total: toCents(100),
      applied: toCents(400),
      refund: toCents(600),
      deposit_status: 'returned',
    });
    // a credit is not taken from the deposit
    expect(
      planDepositSettlement({
        deposit: toCents(1_000),
        balance: toCents(-200),
        deductions: [],
        applyToBalance: true,
      }).refund,
    ).toBe(toCents(1_000));
  });

  it('forfeits a deposit that the deductions and the balance use up', () => {
    expect(
      planDepositSettlement({
        deposit: toCents(1_000),
        balance: toCents(900),
        deductions: [toCents(400)],
        applyToBalance: true,
      }),
    ).toEqual({
      deductions_total: toCents(400),
      applied: toCents(1_000),
      refund: 0n,
      deposit_status: 'forfeited',
    });
  });
});

describe('reminders', () => {
  const rules = remindersSchema.parse([
    { event: 'before_due', days: 3, channels: ['email'] },
    { event: 'due', days: 0, channels: ['sms', 'email'], template_id: 4 },
    { event: 'overdue', days: 5, channels: ['sms'] },
  ]);
  const l = lease('2026-03-01', 1_000);

  it('are due before, on and after the due date while the rent is unpaid', () => {
    const list = remindersDue(l, [], {}, rules, window('2026-02-26', '2026-03-06'));
    expect(
      list.map((r) => [r.event, r.send_date, r.due_date, centsToNumber(r.amount), r.channels, r.template_id]),
    ).toEqual([
      ['before_due', '2026-02-26', '2026-03-01', 1_000, ['email'], null],
      ['due', '2026-03-01', '2026-03-01', 1_000, ['sms', 'email'], 4],
      ['overdue', '2026-03-06', '2026-03-01', 1_000, ['sms'], null],
    ]);
  });

  it('leave out what is paid by the day before they are sent, and name what is left', () => {
    const list = remindersDue(
      l,
      [paid('2026-02-27', 1_000), paid('2026-03-03', 1)],
      {},
      rules,
      window('2026-02-26', '2026-03-06'),
    );
    expect(list.map((r) => [r.event, centsToNumber(r.amount)])).toEqual([['before_due', 1_000]]);
    const part = remindersDue(l, [paid('2026-03-02', 400)], {}, rules, window('2026-03-06'));
    expect(part.map((r) => [r.event, centsToNumber(r.amount)])).toEqual([['overdue', 600]]);
  });

  it('are stale more than 2 days after their send date', () => {
    expect(isStaleReminder('2026-03-01', '2026-03-03')).toBe(false);
    expect(isStaleReminder('2026-03-01', '2026-03-04')).toBe(true);
  });

  it('are validated: due has 0 days, the others at least 1, no channel twice', () => {
    const bad = remindersSchema.safeParse([
      { event: 'due', days: 2, channels: ['email'] },
      { event: 'overdue', days: 0, channels: ['sms', 'sms'] },
    ]);
    expect((bad.error?.issues ?? []).map((i) => [i.path.join('.'), i.message])).toEqual([
      ['0.days', 'A reminder on the due date has 0 days.'],
      ['1.channels', 'A channel is named twice.'],
      ['1.days', 'Days must be at least 1.'],
    ]);
  });
});

describe('the company’s day', () => {
  it('is computed in its time zone', () => {
    const now = new Date('2026-03-01T22:30:00Z');
    expect(localTime('Africa/Kampala', now)).toEqual({ date: '2026-03-02', hour: 1 });
    expect(localTime('UTC', now)).toEqual({ date: '2026-03-01', hour: 22 });
    expect(localTime('America/Los_Angeles', now)).toEqual({ date: '2026-03-01', hour: 14 });
  });
});
