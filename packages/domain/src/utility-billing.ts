import { z } from 'zod';
import { meterKind, meterUnit } from './enums.ts';

/**
 * The bills of metered utilities (issue 28): the billing run's answer, a reading's charge in words,
 * and a building's shared bill split into parts that add up to it exactly.
 */

/** The most charges (and vacant readings) a run's answer lists one by one. */
export const BILLING_ITEMS_LISTED = 200;

/** A reading's quantity as people read it: thousands separated, up to 3 decimals, none trailing. */
export const readingText = (v: number | string): string =>
  new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 }).format(Number(v));

/**
 * A reading's charge in words: 'Water 12 m³ (1,204 – 1,216), meter WM-1'; a reset: 'Water 0 m³
 * (reset to 5), meter WM-1'. An en dash, not an arrow: the statements' PDF fonts (WinAnsi) have no
 * arrow, and print the en dash and m³.
 */
export const readingChargeText = (r: {
  kind: string;
  unit_of_measure: string;
  number: string;
  previous_value: number | string;
  value: number | string;
  consumption: number | string;
  is_reset: boolean;
}): string => {
  const kind = meterKind.labels[r.kind as keyof typeof meterKind.labels] ?? r.kind;
  const unit = meterUnit.labels[r.unit_of_measure as keyof typeof meterUnit.labels] ?? r.unit_of_measure;
  const used = Math.max(0, Number(r.consumption));
  const readings = r.is_reset
    ? `reset to ${readingText(r.value)}`
    : `${readingText(r.previous_value)} – ${readingText(r.value)}`;
  return `${kind} ${readingText(used)} ${unit} (${readings}), meter ${r.number}`;
};

export const billingRunBody = z.strictObject({
  property_id: z.int().positive().optional().describe('only this property’s meters (none: every property)'),
  period_end: z.iso.date({ error: 'Give the last day billed (YYYY-MM-DD).' }),
});
export type BillingRunBody = z.infer<typeof billingRunBody>;

const billedReading = z.object({
  reading_id: z.int(),
  meter_number: z.string(),
  unit_name: z.string().nullable(),
  reading_date: z.iso.date(),
  consumption: z.number(),
  amount: z.number().describe('priced by its tariff, rounded to the currency’s minor unit'),
});

export const billingRunSchema = z.object({
  period_end: z.iso.date(),
  property_id: z.int().nullable(),
  readings_billed: z.int().describe('readings billed now, to a lease or to nobody'),
  charges_made: z.int(),
  total_charged: z.number(),
  charges: z.array(
    billedReading.extend({
      charge_id: z.int(),
      occupancy_id: z.int(),
      tenant_name: z.string().nullable(),
      description: z.string(),
    }),
  ),
  not_listed: z.int().describe('charges made beyond those listed'),
  vacant: z.array(billedReading).describe('readings of a unit let to nobody at their date: billed to nobody'),
  held_back: z.int().describe('flagged readings up to the day, not confirmed: not billed'),
  no_tariff: z.int().describe('readings of meters without a tariff: not billed'),
});
export type BillingRun = z.infer<typeof billingRunSchema>;

/** A billing run in words, for the page's answer. */
export const billingRunText = (r: BillingRun, money: (amount: number) => string): string[] => [
  `${String(r.charges_made)} charge${r.charges_made === 1 ? '' : 's'} made, ${money(r.total_charged)} in all.`,
  ...(r.vacant.length > 0
    ? [
        `${String(r.vacant.length)} reading${r.vacant.length === 1 ? '' : 's'} of vacant units billed to nobody.`,
      ]
    : []),
  ...(r.held_back > 0 ? [`${String(r.held_back)} flagged reading(s) held back until confirmed.`] : []),
  ...(r.no_tariff > 0 ? [`${String(r.no_tariff)} reading(s) of meters without a tariff not billed.`] : []),
];

export const sharedBillKind = [
  'water',
  'electricity',
  'gas',
  'service_charge',
  'security',
  'refuse',
  'other',
] as const;
export const sharedBillSplit = ['equal', 'by_size', 'by_master_meter'] as const;

/**
 * Splits `total` (in minor units) by `weights`: each part the floor of its weight's share, the
 * remainder of the rounding to the largest part (the first of equal ones), so the parts add up to
 * `total` exactly. Weights of 0 get 0; no weight at all: nothing to split.
 */
export const splitExactly = (total: bigint, weights: readonly bigint[]): bigint[] => {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum <= 0n) throw new Error('nothing to split by');
  const parts = weights.map((w) => (total * w) / sum);
  const rest = total - parts.reduce((a, b) => a + b, 0n);
  let largest = 0;
  parts.forEach((p, i) => {
    if (p > (parts[largest] ?? 0n)) largest = i;
  });
  parts[largest] = (parts[largest] ?? 0n) + rest;
  return parts;
};

export const sharedBillBody = z.strictObject({
  property_id: z.int({ error: 'Required.' }).positive(),
  kind: z.enum(sharedBillKind, { error: 'Choose a kind.' }),
  period_start: z.iso.date({ error: 'Required (YYYY-MM-DD).' }),
  period_end: z.iso.date({ error: 'Required (YYYY-MM-DD).' }),
  amount: z.number({ error: 'Required.' }).positive('Must be more than 0.').max(999_999_999_999),
  split: z.enum(sharedBillSplit, { error: 'Choose how it is split.' }),
  description: z.string().trim().min(1, 'Required.').max(200, 'Maximum 200 characters.'),
});
export type SharedBillBody = z.infer<typeof sharedBillBody>;

export const sharedBillPartSchema = z.object({
  unit_id: z.int(),
  unit_name: z.string().nullable(),
  occupancy_id: z.int(),
  tenant_name: z.string().nullable(),
  days: z.int().describe('days let in the period'),
  weight: z.string().describe('what the part is in proportion to (days, or days × size)'),
  amount: z.number(),
  charge_id: z.int().nullable().describe('null: a part of 0'),
});

export const sharedBillSchema = z.object({
  id: z.int(),
  property_id: z.int(),
  kind: z.enum(sharedBillKind),
  period_start: z.iso.date(),
  period_end: z.iso.date(),
  amount: z.number(),
  split: z.enum(sharedBillSplit),
  description: z.string(),
  meter_id: z.int().nullable(),
  apportioned: z
    .number()
    .describe(
      'the part of the bill split among the units (by master meter: what the sub-meters did not account for)',
    ),
  parts: z.array(sharedBillPartSchema),
  user_id: z.int().nullable(),
  created_at: z.string(),
});
export type SharedBill = z.infer<typeof sharedBillSchema>;

/** A reading billed to a lease, as its tenant sees it beside the charge (the portal's ledger). */
export const leaseReadingSchema = z.object({
  id: z.int(),
  charge_id: z.int(),
  meter_number: z.string(),
  kind: z.enum(meterKind.values),
  unit_of_measure: z.enum(meterUnit.values),
  previous_date: z.iso.date().nullable(),
  previous_value: z.number(),
  reading_date: z.iso.date(),
  value: z.number(),
  consumption: z.number(),
  amount: z.number(),
  has_photo: z.boolean(),
});
export type LeaseReading = z.infer<typeof leaseReadingSchema>;

/** The months' names in English, January first (the charges' descriptions, the settings' selects). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A month the daily run posts service charges for: its first and last days, and its billing date. */
export type ServiceChargeMonth = { start: string; end: string; billing_date: string; days: number };

const iso = (y: number, m0: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m0 + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/**
 * The months whose service charges a run of the days `from`..`to` posts (issue 28; docs/decisions.md,
 * 'The monthly service charge'): each month of those days whose billing day (the company's utility
 * billing day, else the 1st) is on or before `to`.
 */
export const serviceChargeMonths = (
  from: string,
  to: string,
  billingDay: number | null,
): ServiceChargeMonth[] => {
  const day = billingDay ?? 1;
  const [fy = 0, fm = 1] = from.split('-').map(Number);
  const [ty = 0, tm = 1] = to.split('-').map(Number);
  const out: ServiceChargeMonth[] = [];
  for (let n = fy * 12 + fm - 1; n <= ty * 12 + tm - 1; n++) {
    const y = Math.floor(n / 12);
    const m0 = n % 12;
    const days = new Date(Date.UTC(y, m0 + 1, 0)).getUTCDate();
    const month = { start: iso(y, m0, 1), end: iso(y, m0, days), billing_date: iso(y, m0, day), days };
    if (month.billing_date <= to) out.push(month);
  }
  return out;
};

/**
 * A lease's service charge of a month, in cents: the monthly amount for a lease let the whole month,
 * else pro rata by its days let (`days` of the month's `monthDays`), rounded half up to the
 * currency's minor unit (`decimals`, 0 to 2).
 */
export const serviceChargeCents = (
  monthly: bigint,
  days: number,
  monthDays: number,
  decimals: number,
): bigint => {
  const perUnit = 10n ** BigInt(2 - Math.min(Math.max(decimals, 0), 2));
  const num = monthly * BigInt(Math.max(0, Math.min(days, monthDays)));
  const den = BigInt(monthDays) * perUnit;
  return ((num * 2n + den) / (den * 2n)) * perUnit;
};

/** 'Service charge November 2026', and '(10 of 30 days)' for part of the month. */
export const serviceChargeText = (text: string, month: ServiceChargeMonth, days: number): string => {
  const [y = '', m = '1'] = month.start.split('-');
  const name = `${text} ${MONTH_NAMES[Number(m) - 1] ?? ''} ${y}`;
  return days < month.days ? `${name} (${String(days)} of ${String(month.days)} days)` : name;
};
