import { describe, expect, it } from 'vitest';
import { defaultAccountNames } from '@kodi/domain';
import {
  accountFormSchema,
  cents,
  dayBefore,
  decimalOf,
  draftProblem,
  entryTotals,
  manualEntrySchema,
  roleLabel,
  sourceLabel,
  typedCents,
} from './books-rules.ts';

describe('amounts in cents', () => {
  it('reads typed amounts exactly, never as floats', () => {
    expect(typedCents('1,500.5')).toBe(150050n);
    expect(typedCents('0.1')).toBe(10n);
    expect(typedCents('')).toBe(0n);
    expect(typedCents('999999999999.99')).toBe(99999999999999n);
    expect(typedCents('1.234')).toBeNull();
    expect(typedCents('-5')).toBeNull();
    expect(typedCents('abc')).toBeNull();
    expect(cents('-12.30')).toBe(-1230n);
    expect(decimalOf(-1230n)).toBe('-12.30');
    expect(decimalOf(5n)).toBe('0.05');
    // 0.1 + 0.2 is 0.3 here
    expect(
      entryTotals([
        { debit: '0.1', credit: '' },
        { debit: '0.2', credit: '' },
      ]).debit,
    ).toBe(30n);
  });
});

describe('a manual entry as typed', () => {
  const line = (account_id: number | null, debit: string, credit: string) => ({ account_id, debit, credit });
  it('may be posted only when it balances, with two lines or more, each an account and one side', () => {
    expect(draftProblem([line(1, '100', ''), line(2, '', '100')])).toBeNull();
    expect(draftProblem([line(1, '100', ''), line(2, '', '99.99')])).toMatch(/does not balance/);
    expect(draftProblem([line(1, '100', '')])).toMatch(/at least two lines/);
    expect(draftProblem([line(1, '100', '100'), line(2, '', '100')])).toBe(
      'Line 1: give either a debit or a credit.',
    );
    expect(draftProblem([line(1, '50', ''), line(null, '', '50')])).toBe('Line 2: choose an account.');
    expect(draftProblem([line(1, '5.555', ''), line(2, '', '5')])).toMatch(/at most two decimals/);
    // blank lines are left out
    expect(draftProblem([line(1, '10', ''), line(null, '', ''), line(3, '', '10')])).toBeNull();
  });
  it('puts the problem on the lines in the form schema', () => {
    const r = manualEntrySchema.safeParse({
      date: '2026-11-27',
      memo: 'Owner drawing',
      lines: [line(1, '10', ''), line(2, '', '9')],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['lines']);
    expect(accountFormSchema.safeParse({ code: '', name: 'x', type: 'asset', is_active: true }).success).toBe(
      false,
    );
  });
});

describe('labels', () => {
  it('says what every default account is for, in words, never its role', () => {
    for (const role of Object.keys(defaultAccountNames)) {
      const label = roleLabel(role);
      expect(label, role).toBeTruthy();
      expect(label, role).not.toMatch(/_|:/);
    }
  });

  it('names the default accounts and the sources', () => {
    expect(roleLabel('cash')).toBe('Cash payments');
    expect(roleLabel('expense:condo_fees')).toBe('Condominium fees expenses');
    expect(roleLabel('charge_income:utility')).toBe('Utility charges');
    expect(roleLabel(null)).toBeNull();
    expect(sourceLabel('payment_void')).toBe('Payment voided');
    expect(dayBefore('2026-03-01')).toBe('2026-02-28');
  });
});
