import { sql } from 'drizzle-orm';
import { addDays } from '@kodi/domain';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { books, toCents, type PostEntry } from './post.ts';
import { memoAmount } from './rent.ts';
import { agreementsOf, ownerFundLines, ownershipOf } from './owned.ts';

/**
 * The monthly management fees (issue 27, docs/decisions.md "What money events post for an owned
 * property"), posted by the daily run on the first day of each month: `fixed_monthly` (its amount)
 * and `per_occupied_unit` (its amount times the units let on the first day), each at least the
 * agreement's `minimum_fee`; and for `percent_of_collected`, what the month before's fees fell short
 * of the minimum. Dr Owner funds held (per owner by their shares on the day) / Cr Management fee
 * income, source `monthly_fee`, keys `monthly_fee:{property}:{YYYY-MM}` and
 * `monthly_fee:min:{property}:{YYYY-MM}`: run twice, or by two servers at once, each posts once.
 */

const monthOf = (day: string) => day.slice(0, 7);
const firstOf = (month: string) => `${month}-01`;
const previousMonth = (month: string) => monthOf(addDays(firstOf(month), -1));

/** The first days of the months from `from`'s to `through`'s (at most 12: the run's catch-up). */
export const monthsThrough = (from: string, through: string): string[] => {
  const out: string[] = [];
  for (let m = monthOf(through); out.length < 12 && m >= monthOf(from); m = previousMonth(m)) out.unshift(m);
  return out;
};

/** The fee entries of one month (dated its first day) for the company's managed properties. */
const monthEntries = async (tx: DbOrTx, companyId: number, month: string): Promise<PostEntry[]> => {
  const first = firstOf(month);
  const agreements = await agreementsOf(
    tx,
    companyId,
    (
      await execRows<{ property_id: number }>(
        tx,
        sql`SELECT property_id FROM management_agreements WHERE company_id = ${companyId} ORDER BY property_id`,
      )
    ).map((r) => Number(r.property_id)),
  );
  if (agreements.size === 0) return [];
  const ids = [...agreements.keys()];
  const ownership = await ownershipOf(tx, companyId, ids);
  const lastOfPrevious = addDays(first, -1);
  const previous = previousMonth(month);
  const let_ = await execRows<{ property_id: number; n: number }>(
    tx,
    sql`SELECT u.property_id, count(*)::int AS n FROM units u
         WHERE u.company_id = ${companyId}
           AND EXISTS (SELECT 1 FROM occupancy o
                        WHERE o.company_id = u.company_id AND o.unit_id = u.id
                          AND o.is_active AND o.occupancy_status <> 'terminated'
                          AND o.start_date <= ${first}::date
                          AND COALESCE(o.end_date, 'infinity'::date) >= ${first}::date)
         GROUP BY u.property_id`,
  );
  const letUnits = new Map(let_.map((r) => [Number(r.property_id), BigInt(Number(r.n))]));
  // the percent fees of the month before, net of their reversals (the minimum's top-up)
  const earned = await execRows<{ property_id: number; fees: string }>(
    tx,
    sql`SELECT l.property_id, sum(l.credit - l.debit)::text AS fees
          FROM journal_lines l
          JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
          JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
         WHERE l.company_id = ${companyId} AND a.role = 'management_fee_income'
           AND l.date >= ${firstOf(previous)}::date AND l.date < ${first}::date
           AND (e.key IS NULL OR e.key NOT LIKE 'monthly_fee:%')
         GROUP BY l.property_id`,
  );
  const feesBefore = new Map(earned.map((r) => [Number(r.property_id), toCents(r.fees)]));
  const entries: PostEntry[] = [];
  for (const [propertyId, a] of agreements) {
    const dims = { property_id: propertyId };
    if (a.fee_kind === 'percent_of_collected') {
      const shares = ownership.on(propertyId, lastOfPrevious);
      const short = a.minimum_fee - (feesBefore.get(propertyId) ?? 0n);
      if (a.minimum_fee > 0n && short > 0n && shares.length > 0)
        entries.push({
          date: first,
          memo: `Management fee: the minimum of ${memoAmount(a.minimum_fee)} for ${previous} (${memoAmount(short)} more)`,
          source: 'monthly_fee',
          source_id: propertyId,
          key: `monthly_fee:min:${propertyId}:${previous}`,
          lines: ownerFundLines(short, shares, 'debit', { role: 'management_fee_income' }, dims),
        });
      continue;
    }
    const shares = ownership.on(propertyId, first);
    if (shares.length === 0) continue;
    const units = letUnits.get(propertyId) ?? 0n;
    const reckoned = a.fee_kind === 'fixed_monthly' ? a.fee_amount : a.fee_amount * units;
    const fee = reckoned < a.minimum_fee ? a.minimum_fee : reckoned;
    if (fee <= 0n) continue;
    entries.push({
      date: first,
      memo:
        a.fee_kind === 'fixed_monthly'
          ? `Management fee for ${month}`
          : `Management fee for ${month}: ${units} let unit${units === 1n ? '' : 's'} × ${memoAmount(a.fee_amount)}${fee !== reckoned ? ` (the minimum, ${memoAmount(a.minimum_fee)})` : ''}`,
      source: 'monthly_fee',
      source_id: propertyId,
      key: `monthly_fee:${propertyId}:${month}`,
      lines: ownerFundLines(fee, shares, 'debit', { role: 'management_fee_income' }, dims),
    });
  }
  return entries;
};

/**
 * Posts the monthly fees of every month whose first day is from `from` through `through` (and of
 * `through`'s month), in one short transaction per month. Answers how many entries it posted.
 */
export const postMonthlyFees = async (
  database: Database,
  companyId: number,
  from: string,
  through: string,
): Promise<number> => {
  let count = 0;
  for (const month of monthsThrough(from, through)) {
    const posted = await database.db.transaction(async (tx) =>
      books.post(tx, companyId, await monthEntries(tx, companyId, month), { whenClosed: 'next_open_day' }),
    );
    count += posted.length;
  }
  return count;
};
