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
