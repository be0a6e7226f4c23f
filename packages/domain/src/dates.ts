/** Dates travel as YYYY-MM-DD and display as 'Nov 22, 2026' in UTC. */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const displayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

export const formatDate = (value: string | Date | null | undefined): string => {
  if (!value) return '';
  const d = typeof value === 'string' ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  return Number.isNaN(d.getTime()) ? '' : displayFormat.format(d);
};

/** Today as YYYY-MM-DD (UTC). */
export const todayIso = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

export const isValidIsoDate = (s: string): boolean => {
  if (!ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};
