/**
 * Every CSV file the server writes goes through here (the import's template and its errors file):
 * one line at a time, cells quoted when needed, and text a spreadsheet would run as a formula
 * neutralised (CSV injection, issue 23).
 */

/** What Excel, LibreOffice and Google Sheets take as the start of a formula (or DDE): = + - @, a tab, a CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A number as written: one sign, then digits, spaces and `. , ( )` only ('-5', '-1,200.50',
 * '+256 772 123456', '(1,200)'). Nothing can be called or referred to without letters or other
 * signs, so it is left as it is: a negative amount stays a number, a phone keeps its '+'.
 */
const numberAsWritten = (text: string) => /^[+-]?[\d .,()]+$/.test(text) && /\d/.test(text);

/**
 * A text cell that would start a formula, with a single quote before it (`'=HYPERLINK(...)`): the
 * spreadsheet shows it as text. Numbers as written are not changed. Kodi's CSV reader
 * (lib/file-rows.ts) takes that quote off again, so a file it wrote imports as it was.
 */
export const neutralised = (text: string): string =>
  FORMULA_START.test(text) && !numberAsWritten(text) ? `'${text}` : text;

/** A text cell that `neutralised` wrote: the quote it added is taken off when the file is read again. */
export const unneutralised = (text: string): string =>
  text.charCodeAt(0) === 39 && FORMULA_START.test(text.slice(1, 2)) ? text.slice(1) : text;

/**
 * One CSV cell: text neutralised, numbers and booleans as they are, quoted when it holds a separator,
 * a quote, a line break or spaces at an end.
 */
export const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? neutralised(v) : String(v);
  return /[",;\t\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One CSV line (comma-separated, ended by CRLF). */
export const csvLine = (cells: readonly unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;
