import { z } from 'zod';
import {
  agingBuckets,
  arrearsSummarySchema,
  type ArrearsRemindAnswer,
  type ArrearsRemindBody,
  type ArrearsSummary,
} from '@kodi/domain';

/**
 * The arrears answers of issue 26 as the server declares them (the web reads only their types,
 * @kodi/domain ledger.ts: their zod rules stay out of the web's first download).
 */

/** `GET /arrears/summary?by_age=true`: the summary with the balances by age. */
export const arrearsSummaryByAgeSchema = arrearsSummarySchema.extend({
  by_age: z
    .object({
      balance: z.number(),
      ...(Object.fromEntries(agingBuckets.map((b) => [b, z.number()])) as Record<
        (typeof agingBuckets)[number],
        z.ZodNumber
      >),
    })
    .optional()
    .describe('The balances of the leases in arrears and what of them falls in each age bucket'),
}) satisfies z.ZodType<ArrearsSummary>;

/** `POST /arrears/remind`: the leases to remind (or every lease in arrears) and by which channel. */
export const arrearsRemindBodySchema = z
  .object({
    occupancy_ids: z.array(z.int().positive()).max(1000, 'At most 1,000 leases at once.').optional(),
    all: z.boolean().optional().describe('Every lease in arrears (of property_id when given)'),
    property_id: z.int().positive().optional(),
    channel: z.enum(['sms', 'email', 'whatsapp'], { error: "Use 'sms', 'email' or 'whatsapp'." }),
  })
  .refine((b) => b.all === true || (b.occupancy_ids?.length ?? 0) > 0, {
    message: 'Choose the leases to remind.',
    path: ['occupancy_ids'],
  }) satisfies z.ZodType<ArrearsRemindBody>;

/** What `POST /arrears/remind` did, by lease. */
export const arrearsRemindAnswerSchema = z.object({
  queued: z.int(),
  skipped: z.int(),
  already: z.int().describe('Reminded by this channel today already: not sent again'),
  results: z.array(
    z.object({
      occupancy_id: z.int(),
      tenant_name: z.string(),
      status: z.enum(['queued', 'skipped', 'already', 'not_in_arrears']),
      to: z.string().nullable(),
    }),
  ),
}) satisfies z.ZodType<ArrearsRemindAnswer>;
