import { describe, expect, it } from 'vitest';
import { expenses, occupancy } from '@kodi/domain';
import { convertCell, excelSerialDate, readAmount, readDate, readPhone, type CellContext } from './cells.ts';
import { detectDelimiter } from '../../modules/files/file-rows.ts';
import { headerColumns } from './preview.ts';

const ctx = (over: Partial<CellContext> = {}): CellContext => ({
  dateFormat: 'YYYY-MM-DD',
  currency: { code: 'UGX', symbol: 'USh' },
  callingCode: 256,
  year: 2026,
  ...over,
});

describe('reading cells', () => {
  it('reads dates in every written form, and refuses what is ambiguous or unreal', () => {
    const ymd = ctx();
    const dmy = ctx({ dateFormat: 'DD/MM/YYYY' });
    const mdy = ctx({ dateFormat: 'MM/DD/YYYY' });
    expect(readDate('2026-11-05', ymd)).toEqual({ value: '2026-11-05' });
    expect(readDate('2026/11/5 00:00:00', ymd)).toEqual({ value: '2026-11-05' });
    expect(readDate('2026-11-05T00:00:00Z', ymd)).toEqual({ value: '2026-11-05' });
    expect(readDate(new Date(Date.UTC(2026, 10, 5)), ymd)).toEqual({ value: '2026-11-05' });
    expect(readDate(46331, ymd)).toEqual({ value: '2026-11-05' });
    expect(readDate('46331', ymd)).toEqual({ value: '2026-11-05' });
    expect(excelSerialDate(1)).toBe('1899-12-31');
    expect(readDate('5-Nov-2026', ymd)).toEqual({ value: '2026-11-05' });
    expect(readDate('05 November 2026', ymd)).toEqual({ value: '2026-11-05' });
    expect(readDate('Nov 5, 2026', ymd)).toEqual({ value: '2026-11-05' });
    expect(readDate('5-Nov-85', ymd)).toEqual({ value: '1985-11-05' });
    expect(readDate('05/11/2026', dmy)).toEqual({ value: '2026-11-05' });
    expect(readDate('5.11.26', dmy)).toEqual({ value: '2026-11-05' });
    expect(readDate('11/05/2026', mdy)).toEqual({ value: '2026-11-05' });
    expect(readDate('05/11/2026', ymd)).toEqual({
      error: "Not a date as YYYY-MM-DD: '05/11/2026' (choose the file's date format).",
    });
    expect(readDate('31/02/2026', dmy)).toEqual({ error: "Not a real date as DD/MM/YYYY: '31/02/2026'." });
    expect(readDate('2026-02-30', ymd)).toEqual({ error: "Not a real date: '2026-02-30'." });
    expect(readDate('soon', dmy)).toEqual({ error: "Not a date as DD/MM/YYYY: 'soon'." });
  });

  it("reads amounts with grouping and the company's currency, and refuses another currency", () => {
    const c = ctx();
    expect(readAmount(1200000, c)).toEqual({ value: 1200000 });
    expect(readAmount('1,200,000', c)).toEqual({ value: 1200000 });
    expect(readAmount('UGX 1,200,000', c)).toEqual({ value: 1200000 });
    expect(readAmount('ugx1200000.50', c)).toEqual({ value: 1200000.5 });
    expect(readAmount('1 200 000 UGX', c)).toEqual({ value: 1200000 });
    expect(readAmount('USh 1,200,000', c)).toEqual({ value: 1200000 });
    expect(readAmount('1\u00a0200\u00a0000', c)).toEqual({ value: 1200000 });
    expect(readAmount('1.200.000,50', c)).toEqual({ value: 1200000.5 });
    expect(readAmount('(1,200)', c)).toEqual({ value: -1200 });
    expect(readAmount('$ 12.5', ctx({ currency: { code: 'USD', symbol: '$' } }))).toEqual({ value: 12.5 });
    expect(readAmount('USD 500', c)).toEqual({
      error: "The amount is in USD; the company's currency is UGX.",
    });
    expect(readAmount('twelve', c)).toEqual({ error: "Not an amount: 'twelve'." });
    expect(readAmount('1,2,3x', c)).toEqual({ error: "Not an amount: '1,2,3x'." });
  });

  it("puts phones in E.164 with the company's country, and leaves what it cannot read", () => {
    expect(readPhone('0772 123 456', ctx())).toBe('+256772123456');
    expect(readPhone(772123456, ctx())).toBe('+256772123456');
    expect(readPhone('+44 20 7946 0958', ctx())).toBe('+442079460958');
    expect(readPhone('00254 712 345678', ctx())).toBe('+254712345678');
    expect(readPhone('12', ctx())).toBe('12');
    expect(readPhone('0772 123 456', ctx({ callingCode: null }))).toBe('0772 123 456');
  });

  it('reads options by value or label, and yes or no', () => {
    const f = (def: typeof occupancy | typeof expenses, name: string) => {
      const field = def.fields.find((x) => x.name === name);
      if (!field) throw new Error(name);
      return field;
    };
    expect(convertCell('Condominium fees', f(expenses, 'category'), ctx())).toEqual({ value: 'condo_fees' });
    expect(convertCell('WEEKLY', f(occupancy, 'rent_cycle'), ctx())).toEqual({ value: 'weekly' });
    expect(convertCell('Yes', f(occupancy, 'utilities_included'), ctx())).toEqual({ value: true });
    expect(convertCell('n', f(occupancy, 'utilities_included'), ctx())).toEqual({ value: false });
    expect(convertCell('maybe', f(occupancy, 'utilities_included'), ctx())).toEqual({
      error: "Not yes or no: 'maybe'.",
    });
  });

  it('finds the separator and names the columns of a header', () => {
    expect(detectDelimiter('a;b;"c;d",e')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    expect(detectDelimiter('name')).toBe(',');
    expect(headerColumns(['Name', '', 'Name', ' Phone ', '', null])).toEqual([
      'Name',
      'Column 2',
      'Name (2)',
      'Phone',
    ]);
  });
});
