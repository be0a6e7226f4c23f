import { describe, expect, it } from 'vitest';
import { exactAmount, isReceivedWhen, receivedAt } from './index.ts';

describe('money received: when and how much (the payment webhook, statements)', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');

  it('takes days and times from 2000 to a day after now', () => {
    for (const ok of [
      '2000-01-01',
      '2026-11-28',
      '2026-11-28T12:00:00Z',
      '2026-11-28T14:00:00+02:00',
      '2026-11-28T11:59:59',
      '2026-02-10T08:30:00.123-05:00',
    ])
      expect(isReceivedWhen(ok, now), ok).toBe(true);
    for (const no of [
      '1999-12-31',
      '1999-12-31T23:59:59Z',
      '2026-11-29',
      '2026-11-28T12:00:01Z',
      '2026-11-28T12:00:01',
      '9999-12-31',
      '0001-01-01',
      '+275760-09-13',
      '-271821-04-20',
      '275760-09-13',
      '2026-02-30',
      '1',
      '',
    ])
      expect(isReceivedWhen(no, now), no).toBe(false);
  });

  it('receivedAt: ISO 8601 dates and times only, in the window', () => {
    const schema = receivedAt();
    for (const ok of ['2026-02-10', '2026-02-10T08:30:00Z', '2026-02-10T08:30:00+03:00', '2026-02-10T08:30'])
      expect(schema.safeParse(ok).success, ok).toBe(true);
    for (const no of [
      1,
      null,
      true,
      '1',
      'Feb 10 2026',
      '2026-02-10 08:30:00',
      '2026-02-10T08:30Z',
      '+275760-09-13',
    ])
      expect(schema.safeParse(no).success, String(no)).toBe(false);
    expect(schema.safeParse('1999-12-31').error?.issues[0]?.message).toBe(
      'The date must be from 2000-01-01 on and not more than a day ahead.',
    );
  });

  it('exactAmount: a JSON number or a decimal text with at most 2 decimals, more than 0, what NUMERIC(14,2) holds', () => {
    const schema = exactAmount();
    expect(schema.parse('1500.50')).toBe(1500.5);
    expect(schema.parse(1500.5)).toBe(1500.5);
    expect(schema.parse('999999999999.99')).toBe(999_999_999_999.99);
    expect(schema.parse(0.01)).toBe(0.01);
    for (const no of [
      true,
      [1],
      '1e3',
      '1,000',
      ' 1',
      '-1',
      0,
      '0',
      0.001,
      0.1 + 0.2,
      '1.005',
      1e13,
      null,
      NaN,
    ])
      expect(schema.safeParse(no).success, JSON.stringify(no)).toBe(false);
  });
});
