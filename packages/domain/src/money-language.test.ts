import { describe, expect, it } from 'vitest';
import { formatDate } from './dates.ts';
import { formatMoney, formatNumber } from './money.ts';

// Intl's own spacing is kept (en-US too puts a no-break space after the code): French groups thousands with a narrow no-break space (U+202F) and puts a
// no-break space (U+00A0) before the currency, so an amount never breaks across lines.
const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('dates, numbers and money in each language (issue 30)', () => {
  it('keep the spec’s en-US formats in English', () => {
    expect(formatMoney(1234567, 'UGX')).toBe(`UGX${NBSP}1,234,567`);
    expect(formatMoney(1234567, 'UGX', undefined, 'en')).toBe(`UGX${NBSP}1,234,567`);
    expect(formatMoney('1234.5', 'KES')).toBe(`KES${NBSP}1,234.50`);
    expect(formatDate('2026-11-27')).toBe('Nov 27, 2026');
    expect(formatNumber(1234567)).toBe('1,234,567');
  });

  it('write French the French way', () => {
    expect(formatMoney(1234567, 'UGX', undefined, 'fr')).toBe(`1${NNBSP}234${NNBSP}567${NBSP}UGX`);
    expect(formatMoney(1234567, 'UGX', undefined, 'fr').replace(/\s/g, ' ')).toBe('1 234 567 UGX');
    expect(formatMoney('1234.5', 'KES', undefined, 'fr')).toBe(`1${NNBSP}234,50${NBSP}KES`);
    expect(formatDate('2026-11-27', 'fr')).toBe('27 nov. 2026');
    expect(formatNumber(1234567, 0, 'fr')).toBe(`1${NNBSP}234${NNBSP}567`);
  });

  it('write Kiswahili day first, thousands with commas', () => {
    expect(formatDate('2026-11-27', 'sw')).toBe('27 Nov 2026');
    expect(formatMoney(1234567, 'UGX', undefined, 'sw')).toBe(`UGX${NBSP}1,234,567`);
  });
});
