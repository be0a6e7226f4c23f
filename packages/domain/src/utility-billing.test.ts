import { describe, expect, it } from 'vitest';
import {
  readingChargeText,
  serviceChargeCents,
  serviceChargeMonths,
  serviceChargeText,
  splitExactly,
} from './utility-billing.ts';

describe('shared bills and readings in words', () => {
  it('splits exactly, the rounding remainder to the largest part', () => {
    expect(splitExactly(100_000n, [30n, 30n, 10n])).toEqual([42_858n, 42_857n, 14_285n]);
    expect(splitExactly(33_333n, [3000n, 1500n, 500n])).toEqual([20_001n, 9_999n, 3_333n]);
    // the largest part takes it even when it is not the first
    expect(splitExactly(10n, [1n, 2n])).toEqual([3n, 7n]);
    expect(splitExactly(7n, [0n, 1n])).toEqual([0n, 7n]);
    expect(() => splitExactly(5n, [0n, 0n])).toThrow();
    for (const total of [1n, 99n, 1_000_001n])
      expect(splitExactly(total, [7n, 3n, 3n, 11n]).reduce((a, b) => a + b, 0n)).toBe(total);
  });

  it('names the meter, the readings and the consumption', () => {
    const r = { kind: 'water', unit_of_measure: 'm3', number: 'WM-1', is_reset: false };
    expect(readingChargeText({ ...r, previous_value: 1204, value: 1216, consumption: 12 })).toBe(
      'Water 12 m³ (1,204 – 1,216), meter WM-1',
    );
    expect(
      readingChargeText({
        ...r,
        kind: 'electricity',
        unit_of_measure: 'kwh',
        previous_value: '10.5',
        value: '3',
        consumption: '0',
        is_reset: true,
      }),
    ).toBe('Electricity 0 kWh (reset to 3), meter WM-1');
  });
});

describe('the monthly service charge', () => {
  it('is due each month of the days run from its billing day on', () => {
    expect(serviceChargeMonths('2026-11-01', '2026-11-01', null)).toEqual([
      { start: '2026-11-01', end: '2026-11-30', billing_date: '2026-11-01', days: 30 },
    ]);
    // the billing day not reached yet: nothing
    expect(serviceChargeMonths('2026-11-01', '2026-11-04', 5)).toEqual([]);
    // days missed across months (and a leap February): each month whose billing day has come
    expect(serviceChargeMonths('2027-12-20', '2028-02-04', 5).map((m) => [m.start, m.days])).toEqual([
      ['2027-12-01', 31],
      ['2028-01-01', 31],
    ]);
    expect(serviceChargeMonths('2028-02-01', '2028-02-05', 5)[0]?.days).toBe(29);
  });

  it('is pro rata by days let, rounded half up to the currency’s minor unit', () => {
    expect(serviceChargeCents(150_000n, 30, 30, 2)).toBe(150_000n);
    expect(serviceChargeCents(150_000n, 20, 30, 2)).toBe(100_000n);
    // 1,000.00 for 1 of 3 days: 333.333… → 333.33; in a currency without decimals → 333
    expect(serviceChargeCents(100_000n, 1, 3, 2)).toBe(33_333n);
    expect(serviceChargeCents(100_000n, 1, 3, 0)).toBe(33_300n);
    // 2 of 3: 666.666… → 666.67, and 667 without decimals
    expect(serviceChargeCents(100_000n, 2, 3, 2)).toBe(66_667n);
    expect(serviceChargeCents(100_000n, 2, 3, 0)).toBe(66_700n);
    const month = { start: '2026-11-01', end: '2026-11-30', billing_date: '2026-11-01', days: 30 };
    expect(serviceChargeText('Service charge', month, 30)).toBe('Service charge November 2026');
    expect(serviceChargeText('Estate levy', month, 20)).toBe('Estate levy November 2026 (20 of 30 days)');
  });
});
