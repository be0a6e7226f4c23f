import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, neutralised, unneutralised } from './csv.ts';

describe('CSV cells (every CSV the server writes)', () => {
  it('puts a quote before text a spreadsheet would run as a formula', () => {
    for (const text of [
      '=1+1',
      '=HYPERLINK("http://evil.test","x")',
      '+SUM(1)',
      '-2+3',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '-',
      '+A1',
    ])
      expect(neutralised(text), JSON.stringify(text)).toBe(`'${text}`);
  });

  it('leaves numbers as written, and text that starts otherwise', () => {
    for (const text of [
      '-5',
      '+5',
      '-1,200.50',
      '+256772123456',
      '+256 772 123456',
      '(1,200)',
      '-0',
      'a=1',
      "'=1",
      ' =1',
      '',
    ])
      expect(neutralised(text), JSON.stringify(text)).toBe(text);
    // a number cell (not text) is never changed
    expect(csvCell(-5)).toBe('-5');
  });

  it('quotes a cell holding a separator, a quote, a line break or spaces at an end', () => {
    expect(csvLine(['a', 'b,c', 'd"e', 'f\ng', ' h', null, undefined, 3, true])).toBe(
      'a,"b,c","d""e","f\ng"," h",,,3,true\r\n',
    );
    expect(csvCell('\t=1')).toBe(`"'\t=1"`);
    expect(csvCell('=SUM(1,2)')).toBe(`"'=SUM(1,2)"`);
  });

  it('takes off, when reading, the quote the writer added (and only that one)', () => {
    for (const text of ['=1+1', '+x', '-Ann', '@home', '\tx', '\rx'])
      expect(unneutralised(neutralised(text))).toBe(text);
    for (const text of ["'quoted'", "'a", "''=1", '-5']) expect(unneutralised(text)).toBe(text);
  });
});
