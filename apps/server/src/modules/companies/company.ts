import { DEFAULT_CURRENCY, resolveLanguage, type Language } from '@kodi/domain';
import type { Database } from '../../db/client.ts';

export type CompanyMoney = { name: string; currency: string; decimals: number | undefined };

/** The company's name and how its money is shown (its currency, UGX when it has none). */
export const companyMoney = async (database: Database, companyId: number): Promise<CompanyMoney> => {
  const rows = await database.query<{ name: string; currency: string | null; decimals: number | null }>(
    `SELECT c.name, trim(c.currency_code) AS currency, cur.decimal_places AS decimals
       FROM companies c LEFT JOIN currencies cur ON cur.currency_code = c.currency_code WHERE c.id = $1`,
    [companyId],
  );
  const r = rows[0];
  return {
    name: r?.name ?? 'Kodi',
    currency: r?.currency || DEFAULT_CURRENCY,
    decimals: r?.decimals === null || r?.decimals === undefined ? undefined : Number(r.decimals),
  };
};

/**
 * The language of what is printed or sent for a tenant or an owner (issue 30): its own, else the
 * company's default, else English. (The table is one of two constants, never the request's.)
 */
const recipientLanguage = async (
  database: Database,
  table: 'tenants' | 'owners',
  companyId: number,
  id: unknown,
): Promise<Language> => {
  const rows = await database.query<{ language: string | null }>(
    `SELECT COALESCE(r.language, c.default_language) AS language
       FROM companies c LEFT JOIN ${table} r ON r.company_id = c.id AND r.id = $2
      WHERE c.id = $1`,
    [companyId, Number(id) || 0],
  );
  return resolveLanguage(rows[0]?.language);
};

/** A tenant's language (receipts, statements, its messages). */
export const tenantLanguage = (database: Database, companyId: number, tenantId: unknown): Promise<Language> =>
  recipientLanguage(database, 'tenants', companyId, tenantId);

/** An owner's language (owner statements and what is sent to it). */
export const ownerLanguage = (database: Database, companyId: number, ownerId: unknown): Promise<Language> =>
  recipientLanguage(database, 'owners', companyId, ownerId);

/**
 * The language of what is sent to a user (a sign-in code, an invitation's link, a password reset:
 * issue 30): a portal account's tenant's or owner's, a staff user's own, else the company's default,
 * else English.
 */
export const userLanguage = async (database: Database, userId: number): Promise<Language> => {
  const rows = await database.query<{ language: string | null }>(
    `SELECT COALESCE(
              CASE WHEN u.tenant_id IS NOT NULL OR u.owner_id IS NOT NULL
                   THEN COALESCE(t.language, o.language) ELSE u.language END,
              c.default_language) AS language
       FROM users u
       LEFT JOIN companies c ON c.id = u.company_id
       LEFT JOIN tenants t ON t.company_id = u.company_id AND t.id = u.tenant_id
       LEFT JOIN owners o ON o.company_id = u.company_id AND o.id = u.owner_id
      WHERE u.id = $1`,
    [userId],
  );
  return resolveLanguage(rows[0]?.language);
};
