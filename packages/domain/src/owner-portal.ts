import { z } from 'zod';

/**
 * The owner portal (issue 27): what an owner's portal account sees, scoped to the properties it owns a
 * share of today. Tenants appear by name and amount only: never their phone or e-mail.
 */

const day = z.iso.date();
const amount = () => z.number().describe('in the company’s currency');

/** One of the owner's properties: its units, who lives there, this month's money and its arrears. */
export const ownerPortalPropertySchema = z.object({
  id: z.int(),
  name: z.string(),
  share_percent: z.number().describe('the owner’s share of the property today'),
  units: z.int(),
  occupied_units: z.int(),
  vacant_units: z.int(),
  rent_due: amount().describe('rent posted for the periods due this month (the books)'),
  collected: amount().describe('completed payments dated this month'),
  collected_percent: z.int().nullable().describe('collected ÷ rent due, rounded; null when nothing is due'),
  arrears: amount().describe('what tenants owe that fell due before today'),
});
export type OwnerPortalProperty = z.infer<typeof ownerPortalPropertySchema>;

/** `GET /owner-portal/me` */
export const ownerPortalMeSchema = z.object({
  owner: z.object({ id: z.int(), name: z.string() }),
  company: z.object({ name: z.string(), currency: z.string(), decimals: z.int().nullable() }),
  as_of: day,
  month: z.string().regex(/^\d{4}-\d{2}$/),
  properties: z.array(ownerPortalPropertySchema),
  totals: z.object({ rent_due: amount(), collected: amount(), arrears: amount() }),
});
export type OwnerPortalMe = z.infer<typeof ownerPortalMeSchema>;

/** A tenant in arrears on one of the owner's properties: its name and what it owes, nothing else. */
export const ownerPortalArrearSchema = z.strictObject({
  property_id: z.int(),
  property_name: z.string(),
  unit_name: z.string().nullable(),
  tenant_name: z.string(),
  amount: amount().describe('what fell due before today and is unpaid'),
});
export type OwnerPortalArrear = z.infer<typeof ownerPortalArrearSchema>;

/** `GET /owner-portal/arrears` and a property's own (`GET /owner-portal/properties/{id}`). */
export const ownerPortalArrearsSchema = z.object({ as_of: day, rows: z.array(ownerPortalArrearSchema) });
export type OwnerPortalArrears = z.infer<typeof ownerPortalArrearsSchema>;

/** `GET /owner-portal/properties/{id}` */
export const ownerPortalPropertyAnswerSchema = z.object({
  as_of: day,
  month: z.string().regex(/^\d{4}-\d{2}$/),
  property: ownerPortalPropertySchema,
  arrears: z.array(ownerPortalArrearSchema),
});
export type OwnerPortalPropertyAnswer = z.infer<typeof ownerPortalPropertyAnswerSchema>;

/** An exact decimal amount, as the books hold it. */
const exact = () => z.string().describe('Exact decimal');
const statementFigures = {
  opening_balance: exact(),
  collected: exact(),
  expenses: exact(),
  management_fees: exact(),
  rental_tax: exact(),
  payouts: exact(),
  adjustments: exact().describe('Other entries to the owner’s funds (manual corrections)'),
  closing_balance: exact(),
  reserve: exact(),
  available: exact(),
};

/**
 * An owner's statement (`GET /owners/{id}/statement` for staff, `GET /owner-portal/statement` for the
 * owner): per property the funds held at the start, what was collected and taken out, held at the end
 * and available; occupancy and each tenant's arrears (names and amounts only).
 */
export const ownerStatementSchema = z.object({
  owner_id: z.int(),
  owner_name: z.string(),
  from: z.string(),
  to: z.string(),
  properties: z.array(
    z.object({
      property_id: z.int().nullable(),
      property_name: z.string().nullable(),
      share_percent: z.number().nullable(),
      ...statementFigures,
      units: z.int(),
      occupied_units: z.int(),
      arrears: z.array(
        z.object({ tenant_name: z.string(), unit_name: z.string().nullable(), amount: exact() }),
      ),
    }),
  ),
  totals: z.object(statementFigures),
});
export type OwnerStatementAnswer = z.infer<typeof ownerStatementSchema>;

/** A payout to an owner, as staff list it (`GET /owner-payouts`). */
export const ownerPayoutSchema = z.object({
  id: z.int(),
  owner_id: z.int(),
  owner_name: z.string(),
  date: z.string(),
  amount: exact(),
  method: z.string(),
  reference: z.string().nullable(),
  override_reason: z.string().nullable().describe('Why it was paid above what was available'),
  entry_id: z.int().nullable().describe('Its journal entry'),
  created_at: z.string(),
});

/** A payout as the owner sees it (`GET /owner-portal/payouts`): no staff's override reason, no entry. */
export const ownerPortalPayoutSchema = ownerPayoutSchema.pick({
  id: true,
  date: true,
  amount: true,
  method: true,
  reference: true,
});
export type OwnerPortalPayout = z.infer<typeof ownerPortalPayoutSchema>;
