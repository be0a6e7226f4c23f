import { z } from 'zod';
import { chargeCategory, paymentMethod } from './enums.ts';
import { bool, ignored, isoDate, oneOf, positiveNumber, text } from './fields.ts';
import { isValidIsoDate } from './dates.ts';
import { companySettingsSchema, lateFeePolicySchema } from './company-settings.ts';

/**
 * The bodies and answers of a lease's charges beyond rent, waivers, rate changes and deposit
 * settlement, and of the daily run (issue 17): the server declares them as its routes' schemas,
 * the web reads their types.
 */

const isoDay = () => z.iso.date();

// ------------------------------------------------------------------------------------------ charges

/** `POST /occupancy/{id}/charges`: a charge beyond rent (a utility bill, damage, anything else). */
export const chargeBody = z.strictObject({
  date: isoDate(),
  category: oneOf(chargeCategory.values as readonly ['utility', 'damage', 'other']),
  description: text(500),
  amount: positiveNumber(),
});
export type ChargeBody = z.infer<typeof chargeBody>;

/** `POST /charges/{id}/waive`. */
export const waiveBody = z.strictObject({ reason: text(500) });

export const waiverSchema = z.object({
  id: z.int(),
  charge_id: z.int(),
  occupancy_id: z.int(),
  date: isoDay(),
  amount: z.number(),
  reason: z.string(),
  user_id: z.int().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type Waiver = z.infer<typeof waiverSchema>;

/** A late fee or a charge of `GET /occupancy/{id}/charges`, with its waiver when it has one. */
export const chargeSchema = z.object({
  id: z.int(),
  occupancy_id: z.int(),
  date: isoDay(),
  kind: z.enum(['late_fee', 'charge']),
  category: z.enum(['utility', 'damage', 'other']).nullable(),
  description: z.string(),
  amount: z.number(),
  rent_due_date: isoDay().nullable().describe('Late fees: the due date of the rent they are for'),
  user_id: z.int().nullable().describe('Who added it (none for a late fee posted by the daily run)'),
  created_at: z.iso.datetime({ offset: true }),
  waiver: waiverSchema.omit({ charge_id: true, occupancy_id: true }).nullable(),
});
export type Charge = z.infer<typeof chargeSchema>;

// ------------------------------------------------------------------------------------------ rate changes

/** `POST /occupancy/{id}/rate-changes`. */
export const rateChangeBody = z.strictObject({ effective_date: isoDate(), rate: positiveNumber() });

export const rateChangeSchema = z.object({
  id: z.int(),
  occupancy_id: z.int(),
  effective_date: isoDay(),
  rate: z.number(),
  source: z.enum(['manual', 'escalation']),
  user_id: z.int().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type RateChangeRecord = z.infer<typeof rateChangeSchema>;

// ------------------------------------------------------------------------------------------ deposit

const refundMethod = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : null),
  z
    .enum(paymentMethod.values as readonly ['cash', 'check', 'banktransfer', 'creditcard', 'mobilemoney'], {
      error: 'Choose one of the listed values.',
    })
    .nullable(),
);

/** `POST /occupancy/{id}/deposit-settlement`: once per lease, at its end. */
export const depositSettlementBody = z.strictObject({
  date: isoDate(),
  deductions: z
    .array(z.strictObject({ description: text(500), amount: positiveNumber() }))
    .max(50, 'At most 50 deductions.')
    .default([]),
  applied_to_balance: bool(false),
  refund_method: refundMethod.optional().transform((v) => v ?? null),
});
export type DepositSettlementBody = z.infer<typeof depositSettlementBody>;

export const depositSettlementSchema = z.object({
  id: z.int(),
  occupancy_id: z.int(),
  date: isoDay(),
  deposit_amount: z.number(),
  deductions: z.array(z.object({ charge_id: z.int(), description: z.string(), amount: z.number() })),
  deductions_total: z.number(),
  applied_to_balance: z.boolean(),
  applied_amount: z.number().describe('What of the deposit paid the balance (deductions included)'),
  refund_amount: z.number(),
  refund_method: z.string().nullable(),
  deposit_status: z.enum(['returned', 'forfeited']),
  user_id: z.int().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type DepositSettlement = z.infer<typeof depositSettlementSchema>;

// ------------------------------------------------------------------------------------------ daily run

/** `POST /rent-cycle/run`: `as_of` (any date) only when the server does not run in production. */
export const rentCycleRunBody = z.strictObject({
  as_of: z
    .string()
    .refine(isValidIsoDate, 'Use a date as YYYY-MM-DD.')
    .refine((d) => d >= '1900-01-01' && d <= '2199-12-31', 'The date must be from 1900 to 2199.')
    .optional(),
});

// ------------------------------------------------------------------------------------------ lease policy

/**
 * `PUT /occupancy/{id}/late-fee`: the lease's own late-fee policy, used instead of the company's
 * (null: the company's). `late_fee_exempt` (a field of the lease) overrides both.
 */
export const leaseLateFeeBody = z.strictObject({
  late_fee: lateFeePolicySchema.nullable(),
  // what its GET answers and this PUT does not write: taken back as read and left as they are (issue 26)
  occupancy_id: ignored,
  late_fee_exempt: ignored,
  effective: ignored,
});

const policySchema = companySettingsSchema.shape.late_fee;

/** `GET /occupancy/{id}/late-fee`: the lease's own policy, and the one its fees follow (none: exempt or off). */
export const leaseLateFeeSchema = z.object({
  occupancy_id: z.int(),
  late_fee_exempt: z.boolean(),
  late_fee: policySchema.nullable(),
  effective: policySchema.nullable(),
});
export type LeaseLateFee = z.infer<typeof leaseLateFeeSchema>;
