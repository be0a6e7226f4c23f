import type { TestContext } from './harness.ts';

/**
 * An owned property's current owners as if set on `since` (the owners' routes date a change today):
 * for API tests of money events dated before the test runs.
 */
export const backdateOwnership = async (
  t: TestContext,
  companyId: number,
  propertyId: number,
  since: string,
): Promise<void> => {
  await t.database.query(
    `UPDATE property_owner_sets SET effective_from = $3::date WHERE company_id = $1 AND property_id = $2`,
    [companyId, propertyId, since],
  );
};
