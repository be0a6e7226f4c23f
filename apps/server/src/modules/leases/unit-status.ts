import { sql, type SQL } from 'drizzle-orm';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { advisoryLocks } from '../../db/advisory-locks.ts';
import { recordColumns } from '../../crud/record-columns.ts';

// A unit's status follows its leases (issue 26; docs/decisions.md, 'Unit status follows the leases'):
// an `available` unit that a lease lets today becomes `occupied`, an `occupied` unit that no lease
// lets today becomes `available`; `maintenance` is never changed here. The units' table is crud/'s
// (the generic records): the status is set through `recordColumns.set`, in the transaction of the
// lease's change (or of the daily run), its version bumped (a unit form open on it meets a conflict).

/**
 * Takes the units' letting locks (in the order of their ids: two writers never wait on each other),
 * held to the end of the transaction: the leases read next are the latest committed, and no other
 * writer of these units' leases goes on until this transaction ends.
 */
export const lockUnits = async (tx: DbOrTx, unitIds: readonly number[]): Promise<void> => {
  const ids = [...new Set(unitIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await execRows(
    tx,
    sql`SELECT count(pg_advisory_xact_lock(${advisoryLocks.unitLetting}, u.id))::int AS n
          FROM (SELECT (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int AS id ORDER BY 1) u`,
  );
};

/** A lease of the unit `u` lets it on `today`: active, not terminated, started and not ended. */
const letToday = (companyId: number, today: string): SQL =>
  sql`EXISTS (SELECT 1 FROM occupancy o
               WHERE o.company_id = ${companyId} AND o.unit_id = u.id
                 AND o.is_active AND o.occupancy_status <> 'terminated'
                 AND o.start_date <= ${today}::date
                 AND COALESCE(o.end_date, 'infinity'::date) >= ${today}::date)`;

/**
 * The units (of the company, by id) whose status follows their leases on `today`: each `available`
 * one let today becomes `occupied`, each `occupied` one not let today `available`. Answers the ids
 * of the units it changed.
 */
export const followLeases = async (
  tx: DbOrTx,
  companyId: number,
  today: string,
  unitIds: readonly number[],
): Promise<number[]> => {
  const ids = [...new Set(unitIds.filter((id) => Number.isInteger(id) && id > 0))].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  await lockUnits(tx, ids);
  const changes = await execRows<{ id: number; status: string }>(
    tx,
    sql`SELECT u.id, CASE u.status WHEN 'available' THEN 'occupied' ELSE 'available' END AS status
          FROM units u
         WHERE u.company_id = ${companyId}
           AND u.id IN (SELECT (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int)
           AND u.status IN ('available', 'occupied')
           AND (u.status = 'available') = ${letToday(companyId, today)}
         ORDER BY u.id`,
  );
  for (const c of changes)
    await recordColumns.set(
      tx,
      'units',
      companyId,
      Number(c.id),
      { status: c.status },
      { bumpVersion: true },
    );
  return changes.map((c) => Number(c.id));
};

/**
 * The daily run's part (it processes the days `from` to its day): the `available` units a lease lets
 * on the company's `today` (a lease that started since, or a status set by hand against a current
 * lease), and the `occupied` units of the leases whose last day was one of the days before `today`
 * from the day before `from`, follow their leases. Idempotent: run twice, the second finds nothing to
 * change. Answers the ids of the units it changed.
 */
export const followLeasesDaily = async (
  tx: DbOrTx,
  companyId: number,
  today: string,
  from: string,
): Promise<number[]> => {
  const candidates = await execRows<{ id: number }>(
    tx,
    sql`SELECT u.id FROM units u
         WHERE u.company_id = ${companyId} AND u.status = 'available' AND ${letToday(companyId, today)}
        UNION
        SELECT u.id FROM units u
         WHERE u.company_id = ${companyId} AND u.status = 'occupied'
           AND EXISTS (SELECT 1 FROM occupancy o
                        WHERE o.company_id = ${companyId} AND o.unit_id = u.id
                          AND o.end_date >= ${from}::date - 1 AND o.end_date < ${today}::date)`,
  );
  return followLeases(
    tx,
    companyId,
    today,
    candidates.map((c) => Number(c.id)),
  );
};
