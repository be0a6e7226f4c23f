import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { isValidIsoDate, type ImportDateFormat } from '@kodi/domain';
import type { Cell } from './file-rows.ts';
import { toE164, type CallingCode } from '../companies/phones.ts';

/**
 * How a file's cells are read (imports, statements): dates, amounts and phones. For an import, a cell
 * made into what the entity's zod rules take (the forms' rules then judge it): dates as
 * YYYY-MM-DD, amounts as numbers, phones in E.164, option labels as their values. A cell that cannot
 * be read as its field's kind is refused here, with a message naming its value.
 */
export type Converted = { value: unknown } | { error: string };

/** What reading a company's cells depends on. */
export type CellContext = {
  dateFormat: ImportDateFormat;
  /** the company's currency code and symbol: 'UGX 1,200,000' and 'USh 1,200,000' are amounts */
  currency: { code: string; symbol: string | null };
  /** the dialling code of the row's or company's country (256), for numbers written without +code */
  callingCode: CallingCode;
  /** the current year, for two-digit years */
  year: number;
};

/** A cell's text: numbers without a trailing .0, dates as YYYY-MM-DD, booleans as true/false. */
export const cellText = (cell: Cell): string => {
  if (cell === null) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString().slice(0, 10);
  if (typeof cell === 'number') return Number.isInteger(cell) ? String(cell) : String(cell);
  return String(cell).trim();
};

export const isBlank = (cell: Cell): boolean => cellText(cell) === '';

export const shown = (cell: Cell) => `'${cellText(cell).slice(0, 60)}'`;

// ---------------------------------------------------------------- dates

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthOf = (name: string): number | undefined => {
  const i = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return i === -1 ? undefined : i + 1;
};

const iso = (y: number, m: number, d: number): string | undefined => {
  const s = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return isValidIsoDate(s) ? s : undefined;
};

/** A two-digit year: up to ten years ahead is this century, else the last ('85' → 1985). */
const fullYear = (y: string, now: number): number => {
  if (y.length === 4) return Number(y);
  const n = Number(y);
  return 2000 + n <= now + 10 ? 2000 + n : 1900 + n;
};

/** An Excel date serial (days since 1899-12-30, the 1900 date system) as YYYY-MM-DD. */
export const excelSerialDate = (serial: number): string | undefined => {
  if (!Number.isFinite(serial) || serial < 1 || serial >= 2_958_466) return undefined;
  const ms = Date.UTC(1899, 11, 30) + Math.floor(serial) * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
};

/**
 * A date cell: an Excel date or serial, YYYY-MM-DD (with or without a time), a date with a month's
 * name ('5-Nov-2026', 'Nov 5, 2026', '05 November 2026'), or the file's numeric format (DD/MM/YYYY or
 * MM/DD/YYYY, with '/', '-' or '.', and two-digit years).
 */
export const readDate = (cell: Cell, ctx: CellContext): Converted => {
  if (cell instanceof Date) {
    return Number.isNaN(cell.getTime())
      ? { error: 'Not a date.' }
      : { value: cell.toISOString().slice(0, 10) };
  }
  if (typeof cell === 'number') {
    const d = excelSerialDate(cell);
    return d ? { value: d } : { error: `Not a date: ${shown(cell)}.` };
  }
  const s = cellText(cell);
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(s);
  if (m) {
    const d = iso(Number(m[1]), Number(m[2]), Number(m[3]));
    return d ? { value: d } : { error: `Not a real date: ${shown(cell)}.` };
  }
  if (/^\d{5}(\.\d+)?$/.test(s)) {
    const d = excelSerialDate(Number(s));
    if (d) return { value: d };
  }
  m = /^(\d{1,2})[-/. ]([A-Za-z]{3,9})\.?[-/. ,]+(\d{2}|\d{4})$/.exec(s);
  const named = m
    ? { d: m[1], mo: m[2], y: m[3] }
    : ((n) => (n ? { d: n[2], mo: n[1], y: n[3] } : undefined))(
        /^([A-Za-z]{3,9})\.?[-/. ]+(\d{1,2})(?:st|nd|rd|th)?,?[-/. ]+(\d{2}|\d{4})$/.exec(s),
      );
  if (named?.d && named.mo && named.y) {
    const month = monthOf(named.mo);
    const d = month ? iso(fullYear(named.y, ctx.year), month, Number(named.d)) : undefined;
    return d ? { value: d } : { error: `Not a real date: ${shown(cell)}.` };
  }
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})(?:[T ][\d:.]+)?$/.exec(s);
  if (m && ctx.dateFormat !== 'YYYY-MM-DD') {
    const [a, b] = [Number(m[1]), Number(m[2])];
    const [day, month] = ctx.dateFormat === 'DD/MM/YYYY' ? [a, b] : [b, a];
    const d = iso(fullYear(m[3] ?? '', ctx.year), month, day);
    return d ? { value: d } : { error: `Not a real date as ${ctx.dateFormat}: ${shown(cell)}.` };
  }
  if (m) return { error: `Not a date as YYYY-MM-DD: ${shown(cell)} (choose the file's date format).` };
  return { error: `Not a date as ${ctx.dateFormat}: ${shown(cell)}.` };
};

// ---------------------------------------------------------------- amounts

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An amount: a number cell, or text such as '1,200,000', '1 200 000', 'UGX 1,200,000',
 * 'USh 1,200,000' or '1.200.000,50'. Another currency's code is refused.
 */
export const readAmount = (cell: Cell, ctx: CellContext): Converted => {
  if (typeof cell === 'number') return { value: cell };
  let s = cellText(cell).replace(/[\u00a0\u202f\u2009]/g, ' ');
  const { code, symbol } = ctx.currency;
  if (symbol) s = s.replace(new RegExp(`^${escape(symbol)}\\s*|\\s*${escape(symbol)}$`, 'i'), '');
  const before = /^([A-Za-z]{3})\s*([-+(.\d].*)$/.exec(s);
  const after = /^(.*[\d)])\s*([A-Za-z]{3})$/.exec(s);
  const coded = before
    ? { code: before[1], amount: before[2] }
    : after
      ? { code: after[2], amount: after[1] }
      : null;
  if (coded?.code) {
    const written = coded.code.toUpperCase();
    if (written !== code) return { error: `The amount is in ${written}; the company's currency is ${code}.` };
    s = coded.amount ?? '';
  }
  s = s.replace(/^[$€£¥₦₹]\s*/, '').trim();
  const negative = /^\(.*\)$/.test(s);
  if (negative) s = s.slice(1, -1);
  // 1.200.000,50: dots group, the comma is the decimal mark
  if (/^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(s) || /^-?\d+,\d{1,2}$/.test(s))
    s = s.replace(/\./g, '').replace(',', '.');
  else s = s.replace(/[,' _]/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(s)) return { error: `Not an amount: ${shown(cell)}.` };
  const n = Number(s);
  return Number.isFinite(n) ? { value: negative ? -n : n } : { error: `Not an amount: ${shown(cell)}.` };
};

// ---------------------------------------------------------------- phones

/**
 * A phone number in E.164 (+256772123456) by the one reading of phones (lib/phones.ts): one written
 * with spaces, dashes or a leading 0 is read as a number of the row's or company's country. One that
 * cannot be read stays as it was (the form's rule, or the entity's own check, judges it).
 */
export const readPhone = (cell: Cell, ctx: CellContext): string => {
  const s = cellText(cell);
  return toE164(s, ctx.callingCode) ?? s;
};

/** The digit strings a stored phone may hold for this number (E.164, national with and without its 0). */
export const phoneDigits = (cell: Cell, ctx: CellContext): string[] => {
  const s = cellText(cell);
  const digits = new Set<string>([s.replace(/\D/g, '')]);
  const e164 = toE164(s, ctx.callingCode);
  const phone = e164 ? parsePhoneNumberFromString(e164) : undefined;
  if (phone) {
    digits.add(phone.number.slice(1));
    digits.add(String(phone.nationalNumber));
    digits.add(`0${String(phone.nationalNumber)}`);
  }
  return [...digits].filter((d) => d.length >= 6);
};
