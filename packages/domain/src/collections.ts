import { z } from 'zod';
import { LETTER_CODE, exactAmount, receivedAt } from './fields.ts';

/**
 * Money in (issue 18): statements of mobile-money and bank accounts, their lines matched to leases,
 * and the payment webhook. The schemas of their bodies and answers, shared by the server and the web.
 */

/** The layouts `POST /statements` reads (docs/decisions.md, 'Collections'). */
export const statementSources = ['mtn_momo', 'airtel_money', 'bank', 'custom'] as const;
export type StatementSource = (typeof statementSources)[number];

export const statementSourceLabels: Record<StatementSource, string> = {
  mtn_momo: 'MTN Mobile Money',
  airtel_money: 'Airtel Money',
  bank: 'Bank statement',
  custom: 'Other (map the columns)',
};

export const statementLineStatuses = ['matched', 'suggested', 'unmatched', 'ignored'] as const;
export type StatementLineStatus = (typeof statementLineStatuses)[number];

/** What a statement's column may be mapped to. */
export const statementFields = [
  'transaction_id',
  'date',
  'amount',
  'payer_phone',
  'payer_name',
  'reference',
  'direction',
] as const;
export type StatementField = (typeof statementFields)[number];

/** `mapping`: `{ "file column": field }` (a field named once). */
export const statementMappingSchema = z.record(z.string().max(200), z.enum(statementFields));
export type StatementMapping = z.infer<typeof statementMappingSchema>;

/** `POST /statements` answers what the upload came to. */
export const statementUploadSchema = z.object({
  id: z.int(),
  source: z.enum(statementSources),
  lines: z.int(),
  new_lines: z.int(),
  duplicate_lines: z.int(),
  matched: z.int(),
  suggested: z.int(),
  unmatched: z.int(),
});
export type StatementUpload = z.infer<typeof statementUploadSchema>;

/** A statement in `GET /statements`, with its totals (received: its new incoming lines). */
export const statementSummarySchema = z.object({
  id: z.int(),
  source: z.enum(statementSources),
  file_name: z.string(),
  lines: z.int(),
  new_lines: z.int(),
  duplicate_lines: z.int(),
  user_name: z.string().nullable(),
  created_at: z.string(),
  received: z.number().describe('the incoming lines’ amounts'),
  matched: z.number().describe('of which matched to leases'),
  posted: z.number().describe('the completed payments made from its lines'),
  open_lines: z.int().describe('lines still suggested or unmatched'),
});
export type StatementSummary = z.infer<typeof statementSummarySchema>;

/** A row of `GET /statement-lines`. */
export const statementLineSchema = z.object({
  id: z.int(),
  statement_id: z.int().nullable(),
  source: z.string(),
  transaction_id: z.string(),
  date: z.iso.date(),
  amount: z.number(),
  direction: z.enum(['in', 'out']),
  payer_phone: z.string().nullable(),
  payer_name: z.string().nullable(),
  reference: z.string().nullable(),
  status: z.enum(statementLineStatuses),
  confidence: z.int(),
  occupancy_id: z.int().nullable(),
  tenant_id: z.int().nullable(),
  tenant_name: z.string().nullable(),
  unit_name: z.string().nullable(),
  payment_id: z.int().nullable(),
  payment_ids: z.array(z.int()),
  ignore_reason: z.string().nullable(),
  /** why the matching matched, suggested or left it ('No tenant has this phone'; issue 26) */
  match_reason: z.string().nullable(),
});
export type StatementLine = z.infer<typeof statementLineSchema>;

/** Money as NUMERIC(14,2) keeps it: cents at most. */
export const hasCentsAtMost = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

const positiveAmount = z.coerce
  .number({ error: 'Enter an amount.' })
  .positive('The amount must be more than 0.')
  .max(999_999_999_999.99, 'The amount is too large.')
  .refine(hasCentsAtMost, 'At most 2 decimals.');

/** `POST /statement-lines/{id}/match`. */
export const matchBodySchema = z.strictObject({
  allocations: z
    .array(
      z.strictObject({
        occupancy_id: z.coerce.number().int().positive().max(2147483647),
        amount: positiveAmount,
      }),
    )
    .min(1, 'Give at least one lease.')
    .max(20, 'At most 20 leases.'),
});
export type MatchBody = z.infer<typeof matchBodySchema>;

export const ignoreBodySchema = z.strictObject({
  reason: z.string().trim().min(1, 'Give a reason.').max(500),
});

/** `POST /webhooks/payments/{company_key}`: one payment received, as an aggregator's callback sends it. */
export const paymentWebhookBodySchema = z.object({
  transaction_id: z.string().trim().min(1).max(100),
  /** a JSON number or a decimal text, at most 2 decimals */
  amount: exactAmount(),
  /** the company's currency code exactly ('UGX', not 'ugx') */
  currency: z.string().regex(LETTER_CODE, 'The currency is its three-letter code in capitals (UGX).'),
  payer_phone: z.string().max(40).nullish(),
  payer_name: z.string().max(200).nullish(),
  reference: z.string().max(300).nullish(),
  /** a date or a date and time, from 2000 on and not more than a day ahead */
  paid_at: receivedAt(),
});
export type PaymentWebhookBody = z.infer<typeof paymentWebhookBodySchema>;

export const paymentWebhookAnswerSchema = z.object({
  id: z.int(),
  status: z.enum(statementLineStatuses),
  duplicate: z.boolean(),
});

/** `POST /company-settings/webhook-secret`: the secret is shown this once. */
export const webhookSecretSchema = z.object({ url: z.string(), secret: z.string() });
