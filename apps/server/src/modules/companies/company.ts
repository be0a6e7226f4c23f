import { DEFAULT_CURRENCY } from '@kodi/domain';
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
