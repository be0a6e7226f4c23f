import { LANGUAGES, intlLocales, type Language } from './i18n/languages.ts';

/** Dates travel as YYYY-MM-DD and display in UTC as 'Nov 22, 2026' (en), '22 Nov 2026' (sw), '22 nov. 2026' (fr). */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const displayFormats = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    new Intl.DateTimeFormat(intlLocales[language], {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }),
  ]),
) as Record<Language, Intl.DateTimeFormat>;

export const formatDate = (value: string | Date | null | undefined, language: Language = 'en'): string => {
  if (!value) return '';
  const d = typeof value === 'string' ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  return Number.isNaN(d.getTime()) ? '' : displayFormats[language].format(d);
};

/** A moment's calendar day where it is read (the browser's or server's own time zone), as YYYY-MM-DD. */
export const localDayIso = (now: Date = new Date()): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** Today as YYYY-MM-DD (UTC). */
export const todayIso = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

export const isValidIsoDate = (s: string): boolean => {
  if (!ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** The earliest day money received may carry (statement lines and the payment webhook). */
export const RECEIVED_FROM = '2000-01-01';
const DAY_MS = 86_400_000;

/**
 * Whether money can have been received on this day (YYYY-MM-DD) or at this time (ISO 8601; one
 * without an offset is read as UTC): from 2000 on, and not more than a day after `now`. A statement's
 * or an aggregator's date outside is a mistake (or an attack: a line of year 275760 can be stored by
 * PostgreSQL but not written as YYYY-MM-DD, and the ledger would count rent up to it).
 */
export const isReceivedWhen = (value: string, now: number = Date.now()): boolean => {
  const day = value.slice(0, 10);
  if (!isValidIsoDate(day) || day < RECEIVED_FROM) return false;
  const at = Date.parse(
    value.length === 10 ? `${value}T00:00:00Z` : /(Z|[+-]\d{2}:\d{2})$/i.test(value) ? value : `${value}Z`,
  );
  return Number.isFinite(at) && at <= now + DAY_MS;
};
