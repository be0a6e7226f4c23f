import { describe, expect, it } from 'vitest';
import { readingChargeText, splitExactly } from './utility-billing.ts';

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
