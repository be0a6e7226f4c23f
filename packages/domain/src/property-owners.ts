import { z } from 'zod';
import { feeKind } from './enums.ts';
import { bool, ignored, oneOf, refId } from './fields.ts';
import { messages } from './validation.ts';

/**
 * Who owns a property and on what terms it is managed (issue 27, first slice): the owners' shares
 * (`GET/PUT /properties/{id}/owners`) and the management agreement (`GET/PUT /properties/{id}/agreement`).
 * The server checks bodies with these rules and the web's forms use them (react-hook-form).
 */

const toNumber = (v: unknown) => {
  if (typeof v === 'string') {
    const s = v.trim().replace(/,/g, '');
    return s === '' ? undefined : Number(s);
  }
  return v === null ? undefined : v;
};

const inCents = (n: number) => Number(n.toFixed(2)) === n;
const cents = (n: number) => Math.round(n * 100);

export const SHARE_MESSAGE = 'A share is more than 0 and at most 100.';
export const DECIMALS_MESSAGE = 'At most 2 decimals.';
export const PERCENT_MESSAGE = 'A percent from 0 to 100.';
export const AMOUNT_MESSAGE = 'Must be a positive number >= 0.';

/** A percent with at most 2 decimals, from `min` (exclusive when `above`) to 100. */
const percent = (message: string, above: boolean) =>
  z.preprocess(
    toNumber,
    z
      .number({ error: (issue) => (issue.input === undefined ? messages.required : message) })
      .refine(Number.isFinite, message)
      .refine((n) => (above ? n > 0 : n >= 0) && n <= 100, message)
      .refine(inCents, DECIMALS_MESSAGE),
  );

/** An amount >= 0 to the cent, at most what NUMERIC(14,2) holds. */
const amount = () =>
  z.preprocess(
    toNumber,
    z
      .number({ error: (issue) => (issue.input === undefined ? messages.required : AMOUNT_MESSAGE) })
      .refine(Number.isFinite, AMOUNT_MESSAGE)
      .refine((n) => n >= 0, AMOUNT_MESSAGE)
      .refine((n) => n <= 999_999_999_999.99, 'The number is too large.')
      .refine(inCents, DECIMALS_MESSAGE),
  );

/** One owner's share of a property as a body gives it (`owner_name`, as read, is accepted and dropped). */
export const ownerShareBody = z.strictObject({
  owner_id: refId(),
  share_percent: percent(SHARE_MESSAGE, true),
  owner_name: ignored,
});

/** The most owners a property has. */
export const MAX_OWNERS = 50;

/** The message when the shares do not add up to 100. */
export const sharesTotalMessage = (total: number) =>
  `The shares must add up to 100% (they add up to ${(total / 100).toFixed(2).replace(/\.00$/, '')}%).`;

const shareList = z.array(ownerShareBody).max(MAX_OWNERS, `At most ${MAX_OWNERS} owners.`);

/** The shares' rules: each owner once, adding up to exactly 100 (to the hundredth), or none at all. */
const checkShares = (list: readonly { owner_id: number; share_percent: number }[], ctx: z.RefinementCtx) => {
  const seen = new Set<number>();
  list.forEach((s, i) => {
    if (seen.has(s.owner_id))
      ctx.addIssue({
        code: 'custom',
        path: ['owners', i, 'owner_id'],
        message: 'This owner is listed twice.',
      });
    seen.add(s.owner_id);
  });
  const total = list.reduce((sum, s) => sum + cents(s.share_percent), 0);
  if (list.length > 0 && total !== 10_000)
    ctx.addIssue({ code: 'custom', path: ['owners'], message: sharesTotalMessage(total) });
};

/**
 * `PUT /properties/{id}/owners`: the owners and their shares from today, `[{ owner_id, share_percent }]`,
 * or the answer of its GET (`{ owners: [...] }`) sent back; an empty list makes it the company's own.
 */
export const propertyOwnersBody = z
  .union([shareList, z.strictObject({ owners: shareList, property_id: ignored, effective_from: ignored })])
  .transform((v) => (Array.isArray(v) ? v : v.owners))
  .superRefine(checkShares);

/** The owners' form (the web): the same rules on `{ owners }`. */
export const propertyOwnersForm = z
  .object({ owners: shareList })
  .superRefine((v, ctx) => checkShares(v.owners, ctx));

/** An owner's share as the API answers it. */
export const ownerShare = z.object({
  owner_id: z.number().int(),
  owner_name: z.string(),
  share_percent: z.number(),
});
export type OwnerShare = z.infer<typeof ownerShare>;

/** `GET /properties/{id}/owners`: the shares in force (today, or `as_of`), from the day they were set. */
export const propertyOwnersAnswer = z.object({
  property_id: z.number().int(),
  /** the day these shares were set; null when none ever were */
  effective_from: z.string().nullable(),
  /** by share, largest first; empty: the company's own property */
  owners: z.array(ownerShare),
});
export type PropertyOwners = z.infer<typeof propertyOwnersAnswer>;

/** The agreement's fields and rules (the body without its version). */
const agreementShape = {
  fee_kind: oneOf(feeKind.values),
  /** a percent of what is collected (0–100), or an amount a month, or an amount per occupied unit a month */
  fee_amount: amount(),
  minimum_fee: amount().default(0),
  /** what is kept back from the owners' payouts for repairs */
  reserve: amount().default(0),
  withhold_rental_tax: bool(false),
  rental_tax_rate: percent(PERCENT_MESSAGE, false).default(0),
};

const checkAgreement = (v: { fee_kind?: unknown; fee_amount?: unknown }, ctx: z.RefinementCtx) => {
  if (v.fee_kind === 'percent_of_collected' && typeof v.fee_amount === 'number' && v.fee_amount > 100)
    ctx.addIssue({ code: 'custom', path: ['fee_amount'], message: PERCENT_MESSAGE });
};

/**
 * `PUT /properties/{id}/agreement`: the property's management agreement; `version` as read when it
 * has one (a stale one is 409). Its GET's read-only fields are accepted and dropped.
 */
export const agreementBody = z
  .strictObject({
    ...agreementShape,
    version: z.preprocess(toNumber, z.number().int().min(1)).optional(),
    property_id: ignored,
    updated_at: ignored,
  })
  .superRefine(checkAgreement)
  .transform(({ property_id: _p, updated_at: _u, ...rest }) => rest);

/** The agreement's form (the web): the same rules. */
export const agreementForm = z.object(agreementShape).superRefine(checkAgreement);

/** `GET /properties/{id}/agreement`. */
export const agreementAnswer = z.object({
  property_id: z.number().int(),
  fee_kind: z.enum(feeKind.values),
  fee_amount: z.number(),
  minimum_fee: z.number(),
  reserve: z.number(),
  withhold_rental_tax: z.boolean(),
  rental_tax_rate: z.number(),
  version: z.number().int(),
  updated_at: z.string(),
});
export type ManagementAgreement = z.infer<typeof agreementAnswer>;

/** The message of a property without an agreement (`404 agreement_not_found`). */
export const NO_AGREEMENT_MESSAGE = 'This property has no management agreement.';
