import { sql } from 'drizzle-orm';
import {
  DEFAULT_SERVICE_CHARGE_TEXT,
  formatCents,
  serviceChargeCents,
  serviceChargeMonths,
  serviceChargeText,
  toCents,
  type ServiceChargeMonth,
} from '@kodi/domain';
import { execRows, type Database } from '../../db/client.ts';
import { companyMoney } from '../companies/company.ts';
import { leaseEntries, type NewCharge } from '../leases/entries.ts';

/**
 * The monthly service charge (issue 28; docs/decisions.md, 'The monthly service charge'): the
 * company's amount per let unit per month (company settings), or its property's own (0: none), posted
 * by the daily run as a `utility` charge of each lease let in the month, from the month's billing day
 * (the company's utility billing day, else the 1st) on; a lease let part of the month pays for its
 * days let. A lease that starts later in the month is charged on the first run after it started.
 * Each charge posts to the books with it (modules/leases/entries.ts: Utility income, or the owners'
 * funds of an owned property). One charge per lease and month (`charges_service_month_key`): a month
 * run twice, or by two servers at once, posts once.
 */

const PAGE = 1000;

type Setting = { amount: string; description: string; day: number | null; properties: number };

/** The company's service charge, its billing day, and how many of its properties have their own. */
const settingOf = async (database: Database, companyId: number): Promise<Setting> => {
  const [row] = await execRows<{
    amount: string | null;
    description: string | null;
    day: number | null;
    properties: number;
  }>(
    database.db,
    sql`SELECT s.service_charge_amount::text AS amount, s.service_charge_description AS description,
               s.utility_billing_day AS day,
               (SELECT count(*)::int FROM properties p WHERE p.company_id = ${companyId} AND p.service_charge > 0) AS properties
          FROM (SELECT ${companyId}::int AS company_id) c
          LEFT JOIN company_settings s ON s.company_id = c.company_id`,
  );
  return {
    amount: row?.amount ?? '0',
    description: row?.description ?? DEFAULT_SERVICE_CHARGE_TEXT,
    day: row?.day === null || row?.day === undefined ? null : Number(row.day),
    properties: Number(row?.properties ?? 0),
  };
};

type Candidate = { occupancy_id: number; amount: string; days: number; charge_date: string };

/** A page of the leases let in the month, started by `startedBy`, without the month's charge yet. */
const leasesToCharge = async (
  database: Database,
  companyId: number,
  month: ServiceChargeMonth,
  startedBy: string,
  companyAmount: string,
  after: number,
) =>
  execRows<Candidate>(
    database.db,
    sql`SELECT o.id AS occupancy_id, COALESCE(p.service_charge, ${companyAmount}::numeric)::text AS amount,
               (LEAST(COALESCE(o.end_date, ${month.end}::date), ${month.end}::date)
                - GREATEST(o.start_date, ${month.start}::date) + 1)::int AS days,
               to_char(LEAST(GREATEST(${month.billing_date}::date, o.start_date), o.end_date), 'YYYY-MM-DD') AS charge_date
          FROM occupancy o
          LEFT JOIN properties p ON p.company_id = o.company_id AND p.id = o.property_id
         WHERE o.company_id = ${companyId} AND o.id > ${after}
           AND o.start_date <= ${startedBy}::date AND o.start_date <= ${month.end}::date
           AND (o.end_date IS NULL OR o.end_date >= ${month.start}::date)
           AND COALESCE(p.service_charge, ${companyAmount}::numeric) > 0
           AND NOT EXISTS (SELECT 1 FROM charges c WHERE c.company_id = o.company_id AND c.occupancy_id = o.id
                              AND c.service_month = ${month.start}::date)
         ORDER BY o.id
         LIMIT ${PAGE}`,
  );

/**
 * The daily run's service charges for the days `from`..`to` (see above): how many charges it posted.
 * Nothing to do (no amount anywhere) reads one row.
 */
export const postServiceChargesDaily = async (
  database: Database,
  companyId: number,
  from: string,
  to: string,
): Promise<number> => {
  const setting = await settingOf(database, companyId);
  if (!(Number(setting.amount) > 0) && setting.properties === 0) return 0;
  const decimals = (await companyMoney(database, companyId)).decimals ?? 2;
  let posted = 0;
  for (const month of serviceChargeMonths(from, to, setting.day)) {
    const startedBy = to < month.end ? to : month.end;
    for (let after = 0; ;) {
      const page = await leasesToCharge(database, companyId, month, startedBy, setting.amount, after);
      if (page.length === 0) break;
      after = Number(page[page.length - 1]?.occupancy_id ?? after);
      const charges = page.flatMap((l): NewCharge[] => {
        const days = Number(l.days);
        const cents = serviceChargeCents(toCents(l.amount), days, month.days, decimals);
        if (cents <= 0n) return [];
        return [
          {
            occupancy_id: Number(l.occupancy_id),
            date: l.charge_date,
            kind: 'charge',
            category: 'utility',
            description: serviceChargeText(setting.description, month, days),
            amount: formatCents(cents),
            service_month: month.start,
            user_id: null,
          },
        ];
      });
      // each page in a short transaction: a charge and its journal entry together; one that another
      // run posted meanwhile is left out by the month's key
      posted += (await database.db.transaction((tx) => leaseEntries.addCharges(tx, companyId, charges)))
        .length;
      if (page.length < PAGE) break;
    }
  }
  return posted;
};
