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
 * The language of what is printed or sent for a tenant (issue 30: receipts, statements): the tenant's
 * own, else the company's default for its tenants, else English.
 */
export const tenantLanguage = async (
  database: Database,
  companyId: number,
  tenantId: unknown,
): Promise<Language> => {
  const rows = await database.query<{ language: string | null }>(
    `SELECT COALESCE(t.language, c.default_language) AS language
       FROM companies c LEFT JOIN tenants t ON t.company_id = c.id AND t.id = $2
      WHERE c.id = $1`,
    [companyId, Number(tenantId) || 0],
  );
  return resolveLanguage(rows[0]?.language);
};

/**
 * The language of what is printed or sent for an owner (issue 30: owner statements): the owner's own,
 * else the company's default, else English.
 */
export const ownerLanguage = async (
  database: Database,
  companyId: number,
  ownerId: unknown,
): Promise<Language> => {
  const rows = await database.query<{ language: string | null }>(
    `SELECT COALESCE(o.language, c.default_language) AS language
       FROM companies c LEFT JOIN owners o ON o.company_id = c.id AND o.id = $2
      WHERE c.id = $1`,
    [companyId, Number(ownerId) || 0],
  );
  return resolveLanguage(rows[0]?.language);
};
