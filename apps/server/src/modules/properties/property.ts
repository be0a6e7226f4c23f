import { z } from 'zod';
import { AppError } from '@kodi/domain';
import type { DbOrTx } from '../../db/client.ts';
import { execRows } from '../../db/client.ts';
import { sql } from 'drizzle-orm';

export const PROPERTY_ID_MESSAGE = 'Must be a whole number.';

/**
 * `property_id=N`: the rows of one property (lists and their exports, the arrears, the dashboard,
 * the reports). A whole number that fits an id; anything else is `400 validation_failed`.
 */
export const propertyIdQuery = z
  .string()
  .regex(/^\d{1,10}$/, PROPERTY_ID_MESSAGE)
  .transform(Number)
  .refine((n) => n >= 1 && n <= 2147483647, PROPERTY_ID_MESSAGE)
  .optional();

/** A query that may name a property. */
export const propertyQuery = z.object({ property_id: propertyIdQuery });

/** Throws `404 not_found` unless the property is the company's (another company's is not found). */
export const ensureProperty = async (db: DbOrTx, companyId: number, propertyId: number): Promise<void> => {
  const rows = await execRows<{ found: number }>(
    db,
    sql`SELECT 1 AS found FROM properties WHERE company_id = ${companyId} AND id = ${propertyId}`,
  );
  if (rows.length === 0) throw new AppError('not_found', 'Property not found.');
};
