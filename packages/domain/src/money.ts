/** Money is exact in the database (NUMERIC) and in JSON it is a number with at most the currency's decimals. */
export const DEFAULT_CURRENCY = 'UGX';

const formatters = new Map<string, Intl.NumberFormat>();

/** Formats an amount in en-US style in the given currency, with that currency's decimal places. */
export const formatMoney = (
  amount: number | string | null | undefined,
  currencyCode: string | null | undefined = DEFAULT_CURRENCY,
  decimalPlaces?: number,
): string => {
  const code = (currencyCode || DEFAULT_CURRENCY).toUpperCase();
  const key = `${code}:${decimalPlaces ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: code,
        ...(decimalPlaces !== undefined
          ? { minimumFractionDigits: decimalPlaces, maximumFractionDigits: decimalPlaces }
          : {}),
      });
    } catch {
      f = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: DEFAULT_CURRENCY,
      });
    }
    formatters.set(key, f);
  }
  const n = typeof amount === 'string' ? Number(amount) : (amount ?? 0);
  return f.format(Number.isFinite(n) ? n : 0);
};

/** Thousands separators, 0 for empty (reports). */
export const formatNumber = (n: number | string | null | undefined, decimals = 0): string => {
  const v = typeof n === 'string' ? Number(n) : (n ?? 0);
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(Number.isFinite(v) ? v : 0);
};
