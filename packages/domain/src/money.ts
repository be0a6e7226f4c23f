import { intlLocales, type Language } from './i18n/languages.ts';

/** Money is exact in the database (NUMERIC) and in JSON it is a number with at most the currency's decimals. */
export const DEFAULT_CURRENCY = 'UGX';

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Formats an amount in the given currency, with that currency's decimal places, the way the language
 * writes it: en in the spec's en-US style ('UGX 1,234,567'), fr '1 234 567 UGX' (Intl's narrow
 * no-break space between thousands and no-break space before the code: an amount never wraps).
 */
export const formatMoney = (
  amount: number | string | null | undefined,
  currencyCode: string | null | undefined = DEFAULT_CURRENCY,
  decimalPlaces?: number,
  language: Language = 'en',
): string => {
  const code = (currencyCode || DEFAULT_CURRENCY).toUpperCase();
  const locale = intlLocales[language];
  const key = `${locale}:${code}:${decimalPlaces ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency: code,
        ...(decimalPlaces !== undefined
          ? { minimumFractionDigits: decimalPlaces, maximumFractionDigits: decimalPlaces }
          : {}),
      });
    } catch {
      f = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency: DEFAULT_CURRENCY,
      });
    }
    formatters.set(key, f);
  }
  const n = typeof amount === 'string' ? Number(amount) : (amount ?? 0);
  return f.format(Number.isFinite(n) ? n : 0);
};

/** Thousands separators, 0 for empty (reports); the language's separators (en: '1,234', fr: '1 234'). */
export const formatNumber = (
  n: number | string | null | undefined,
  decimals = 0,
  language: Language = 'en',
): string => {
  const v = typeof n === 'string' ? Number(n) : (n ?? 0);
  return new Intl.NumberFormat(intlLocales[language], {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(Number.isFinite(v) ? v : 0);
};
