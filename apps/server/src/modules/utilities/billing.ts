import { sql } from 'drizzle-orm';
import {
  BILLING_ITEMS_LISTED,
  readBlocks,
  readingChargeText,
  tariffBill,
  type BillingRun,
  type TariffBlock,
} from '@kodi/domain';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { advisoryLocks } from '../../db/advisory-locks.ts';
import { recordColumns } from '../../crud/record-columns.ts';
import { companyMoney } from '../companies/company.ts';
import { leaseEntries, type NewCharge } from '../leases/entries.ts';
import { recordAuditEntry } from '../audit/audit.ts';

/**
 * The billing of meters' readings (issue 28; docs/decisions.md, 'Utility billing'): every ready
 * reading (normal, or flagged and confirmed) of a unit's meter with a tariff, dated up to the run's
 * day and not billed yet, becomes a charge of the lease of its unit at its date, priced by its tariff
 * and posted to the books with it (modules/leases/entries.ts: Utility income, or the owners' funds of
 * an owned property). A reading of a unit let to nobody at its date is billed to nobody. One run of a
 * company at a time (its advisory lock); a reading is marked billed with its charge in the same
 * transaction, claimed while still ready: a run twice bills it once. Set-based: one read of the
 * readings with their meters, tariffs and leases, the charges in batches, one update of the readings.
 */

const BATCH = 2000;

type Candidate = {
  id: number;
  reading_date: string;
  value: string;
  previous_value: string | null;
  consumption: string | null;
  is_reset: boolean;
  number: string;
  kind: string;
  unit_of_measure: string;
  unit_name: string | null;
  tariff_id: number;
  blocks: string;
  fixed_charge: string;
  minimum_charge: string;
  occupancy_id: number | null;
  tenant_name: string | null;
};

export type BillingRequest = {
  companyId: number;
  periodEnd: string;
  propertyId?: number | null;
  userId?: number | null;
};

const batches = <T>(rows: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(rows.slice(i, i + BATCH));
  return out;
};

/** Bills the company's ready readings up to `periodEnd` (see above): what it billed, to whom. */
export const billUtilities = async (database: Database, request: BillingRequest): Promise<BillingRun> => {
  const { companyId, periodEnd } = request;
  const propertyId = request.propertyId ?? null;
  const decimals = (await companyMoney(database, companyId)).decimals ?? 2;
  const inProperty = propertyId === null ? sql`` : sql` AND r.property_id = ${propertyId}`;
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${advisoryLocks.utilityBilling}, ${companyId})`);
    const candidates = await execRows<Candidate>(
      tx,
      sql`SELECT r.id, to_char(r.reading_date, 'YYYY-MM-DD') AS reading_date, r.value::text AS value,
                 r.previous_value::text AS previous_value, r.consumption::text AS consumption, r.is_reset,
                 m.number, m.kind, m.unit_of_measure, m.unit_name, m.tariff_id, t.blocks,
                 t.fixed_charge::text AS fixed_charge, t.minimum_charge::text AS minimum_charge,
                 o.id AS occupancy_id, o.tenant_name
            FROM meter_readings r
            JOIN meters m ON m.company_id = r.company_id AND m.id = r.meter_id
            JOIN tariffs t ON t.company_id = m.company_id AND t.id = m.tariff_id
            LEFT JOIN LATERAL (
              SELECT o.id, o.tenant_name FROM occupancy o
               WHERE o.company_id = m.company_id AND o.unit_id = m.unit_id
                 AND o.start_date <= r.reading_date AND (o.end_date IS NULL OR o.end_date >= r.reading_date)
               ORDER BY o.start_date DESC, o.id DESC LIMIT 1) o ON TRUE
           WHERE r.company_id = ${companyId} AND r.status = 'ready' AND r.reading_date <= ${periodEnd}::date
             AND m.unit_id IS NOT NULL${inProperty}
           ORDER BY r.reading_date, r.id
             FOR UPDATE OF r`,
    );
    const [counts] = await execRows<{ held_back: number; no_tariff: number }>(
      tx,
      sql`SELECT count(*) FILTER (WHERE r.status = 'flagged')::int AS held_back,
                 count(*) FILTER (WHERE r.status = 'ready' AND m.tariff_id IS NULL)::int AS no_tariff
            FROM meter_readings r JOIN meters m ON m.company_id = r.company_id AND m.id = r.meter_id
           WHERE r.company_id = ${companyId} AND r.reading_date <= ${periodEnd}::date
             AND m.unit_id IS NOT NULL${inProperty}`,
    );
    const tariffs = new Map<number, TariffBlock[]>();
    const priced = candidates.map((c) => {
      let blocks = tariffs.get(c.tariff_id);
      if (!blocks) {
        const read = readBlocks(c.blocks);
        if ('error' in read) throw new Error(`tariff ${String(c.tariff_id)}: ${read.error}`);
        blocks = read;
        tariffs.set(c.tariff_id, blocks);
      }
      // a confirmed lower reading used nothing
      const used = c.consumption === null || c.consumption.startsWith('-') ? '0' : c.consumption;
      const bill = tariffBill(
        { blocks, fixed_charge: c.fixed_charge, minimum_charge: c.minimum_charge },
        used,
        decimals,
      );
      const description = readingChargeText({
        ...c,
        previous_value: c.previous_value ?? c.value,
        consumption: used,
      });
      return { ...c, used, amount: bill.amount, description };
    });
    const charged = priced.filter((p) => p.occupancy_id !== null && Number(p.amount) > 0);
    const chargeOf = new Map<number, number>();
    for (const rows of batches(charged)) {
      const ids = await leaseEntries.addCharges(
        tx,
        companyId,
        rows.map((p): NewCharge => ({
          occupancy_id: Number(p.occupancy_id),
          date: p.reading_date,
          kind: 'charge',
          category: 'utility',
          description: p.description,
          amount: p.amount,
          user_id: request.userId ?? null,
        })),
      );
      // the ids in the order given (one statement's identities)
      rows.forEach((p, i) => chargeOf.set(p.id, Number(ids[i])));
    }
    let marked = 0;
    for (const rows of batches(priced))
      marked += (
        await recordColumns.setEach(
          tx,
          'meter_readings',
          companyId,
          rows.map((p) => ({
            id: p.id,
            charge_id: chargeOf.get(p.id) ?? null,
            billed_occupancy_id: p.occupancy_id,
            billed_amount: p.amount,
          })),
          { charge_id: 'int', billed_occupancy_id: 'int', billed_amount: 'numeric' },
          {
            constant: { status: 'billed', billed_at: sql`now()` },
            onlyWhere: sql`meter_readings.status = 'ready'`,
          },
        )
      ).length;
    if (marked !== priced.length) throw new Error('utility billing: readings changed under the run');
    const charges = priced
      .filter((p) => chargeOf.has(p.id))
      .map((p) => ({
        reading_id: p.id,
        charge_id: Number(chargeOf.get(p.id)),
        occupancy_id: Number(p.occupancy_id),
        tenant_name: p.tenant_name,
        meter_number: p.number,
        unit_name: p.unit_name,
        reading_date: p.reading_date,
        consumption: Number(p.used),
        amount: Number(p.amount),
        description: p.description,
      }));
    const vacant = priced
      .filter((p) => p.occupancy_id === null)
      .map((p) => ({
        reading_id: p.id,
        meter_number: p.number,
        unit_name: p.unit_name,
        reading_date: p.reading_date,
        consumption: Number(p.used),
        amount: Number(p.amount),
      }));
    const total = charged.reduce((sum, p) => sum + BigInt(p.amount.replace('.', '')), 0n);
    const run: BillingRun = {
      period_end: periodEnd,
      property_id: propertyId,
      readings_billed: priced.length,
      charges_made: charges.length,
      total_charged: Number(total) / 100,
      charges: charges.slice(0, BILLING_ITEMS_LISTED),
      not_listed: Math.max(0, charges.length - BILLING_ITEMS_LISTED),
      vacant: vacant.slice(0, BILLING_ITEMS_LISTED),
      held_back: Number(counts?.held_back ?? 0),
      no_tariff: Number(counts?.no_tariff ?? 0),
    };
    if (priced.length > 0)
      await recordAuditEntry(tx, {
        companyId,
        userId: request.userId ?? null,
        action: 'create',
        entity: 'meter_readings',
        recordId: priced[0]?.id ?? 0,
        after: {
          period_end: periodEnd,
          property_id: propertyId,
          readings_billed: run.readings_billed,
          charges_made: run.charges_made,
          total_charged: run.total_charged,
          vacant: vacant.length,
        },
        summary: `Utility billing to ${periodEnd}: ${String(run.charges_made)} charges`,
      });
    return run;
  });
};

/** The company's utility billing day, if any: the daily run bills on it (`billUtilitiesDaily`). */
const billingDay = async (tx: DbOrTx, companyId: number): Promise<number | null> => {
  const rows = await execRows<{ day: number | null }>(
    tx,
    sql`SELECT utility_billing_day AS day FROM company_settings WHERE company_id = ${companyId}`,
  );
  return rows[0]?.day ?? null;
};

/**
 * The daily run's billing (features/rent-cycle): when the company's billing day of the month falls in
 * the days the run processes (`from`..`to`), its readings are billed up to the latest such day. Billed
 * readings are never billed again: a day run twice, or by two servers, bills once.
 */
export const billUtilitiesDaily = async (
  database: Database,
  companyId: number,
  from: string,
  to: string,
): Promise<BillingRun | undefined> => {
  const day = await billingDay(database.db, companyId);
  if (day === null) return undefined;
  let periodEnd: string | undefined;
  for (
    let d = new Date(`${to}T00:00:00Z`);
    d.toISOString().slice(0, 10) >= from;
    d.setUTCDate(d.getUTCDate() - 1)
  )
    if (d.getUTCDate() === day) {
      periodEnd = d.toISOString().slice(0, 10);
      break;
    }
  return periodEnd ? billUtilities(database, { companyId, periodEnd }) : undefined;
};
