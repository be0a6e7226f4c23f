import { sql, type SQL } from 'drizzle-orm';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { books, companyDay, methodRole, toCents, type PostEntry } from '../books/post.ts';
import { agreementsOf, collectionLines, ownershipOf } from '../books/owned.ts';
import { postLeaseRent } from '../books/rent.ts';

/**
 * A lease's entries beyond its terms and payments: charges (a late fee, a charge, a settlement's
 * deduction), their waivers, rate changes and the deposit's settlement. This file is the one code
 * that writes `charges`, `charge_waivers`, `rate_changes` and `deposit_settlements`
 * (writers.test.ts): the staff's routes (features/lease-charges) and the daily run
 * (features/rent-cycle) both write through it. Amounts are exact decimal text.
 */

/** A value, or the column's DEFAULT when it is not given. */
const value = (v: unknown, cast = ''): SQL =>
  v === undefined ? sql.raw('DEFAULT') : sql`${v}${sql.raw(cast)}`;

export type NewCharge = {
  occupancy_id: number;
  date: string;
  kind: 'charge' | 'late_fee';
  category?: string | null;
  description: string;
  amount: string;
  /** who added it (none: the daily run) */
  user_id?: number | null;
  /** a late fee: the rent it is for (one per rent and day) */
  rent_due_date?: string | null;
  /** a deduction of the deposit's settlement */
  settlement_id?: number | null;
  /** the monthly service charge (issue 28): the month's first day (one per lease and month) */
  service_month?: string | null;
};

export type NewRateChange = {
  occupancy_id: number;
  effective_date: string;
  rate: string;
  source: 'manual' | 'escalation';
  user_id?: number | null;
};

type Lease = {
  property_id: number | null;
  unit_id: number | null;
  occupancy_id: number;
  tenant_id: number | null;
};

/** The lease's dimensions on its lines: one read for all of them. */
const leaseDims = async (
  tx: DbOrTx,
  companyId: number,
  ids: readonly number[],
): Promise<Map<number, Lease>> => {
  const rows = await execRows<{ id: number; property_id: number | null; unit_id: number; tenant_id: number }>(
    tx,
    sql`SELECT id, property_id, unit_id, tenant_id FROM occupancy
         WHERE company_id = ${companyId} AND id = ANY(${`{${[...new Set(ids)].join(',')}}`}::int[])`,
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        occupancy_id: Number(r.id),
        property_id: r.property_id === null ? null : Number(r.property_id),
        unit_id: Number(r.unit_id),
        tenant_id: Number(r.tenant_id),
      },
    ]),
  );
};

/** The income account of a charge: late fees' or its category's. */
const incomeRole = (kind: string, category: string | null | undefined) =>
  kind === 'late_fee' ? 'late_fee_income' : `charge_income:${category ?? 'other'}`;

export const leaseEntries = {
  /**
   * Charges of a company's leases, in one statement: the new ones' ids in the order given. A late fee
   * that its lease has already for that rent and day, or a service charge for a month its lease has
   * already, is left out (the daily run writes each once).
   */
  addCharges: async (tx: DbOrTx, companyId: number, charges: readonly NewCharge[]): Promise<number[]> => {
    if (charges.length === 0) return [];
    const rows = await execRows<{
      id: number;
      occupancy_id: number;
      date: string;
      kind: string;
      category: string | null;
      description: string;
      amount: string;
      user_id: number | null;
    }>(
      tx,
      sql`INSERT INTO charges (company_id, occupancy_id, date, kind, category, description, amount, user_id,
                               rent_due_date, settlement_id, service_month)
          SELECT ${companyId}, c.occupancy_id, c.date, c.kind, c.category, c.description, c.amount, c.user_id,
                 c.rent_due_date, c.settlement_id, c.service_month
            FROM jsonb_to_recordset(${JSON.stringify(
              charges.map((c, n) => ({
                n,
                occupancy_id: c.occupancy_id,
                date: c.date,
                kind: c.kind,
                category: c.category ?? null,
                description: c.description,
                amount: c.amount,
                user_id: c.user_id ?? null,
                rent_due_date: c.rent_due_date ?? null,
                settlement_id: c.settlement_id ?? null,
                service_month: c.service_month ?? null,
              })),
            )}::jsonb)
                 AS c (n int, occupancy_id int, date date, kind text, category text, description text, amount numeric,
                       user_id int, rent_due_date date, settlement_id int, service_month date)
           ORDER BY c.n
          -- charges_late_fee_key and charges_service_month_key (no other key of a new row can clash)
          ON CONFLICT DO NOTHING
          RETURNING id, occupancy_id, to_char(date, 'YYYY-MM-DD') AS date, kind, category, description,
                    amount::text AS amount, user_id`,
    );
    // each charge posts Dr Accounts receivable, Cr its income account, in the same transaction
    const dims = await leaseDims(
      tx,
      companyId,
      rows.map((r) => Number(r.occupancy_id)),
    );
    const ownership = await ownershipOf(
      tx,
      companyId,
      [...dims.values()].map((d) => d.property_id),
    );
    await books.post(
      tx,
      companyId,
      rows.map((r): PostEntry => {
        const lease = dims.get(Number(r.occupancy_id));
        const owned = ownership.on(lease?.property_id, r.date).length > 0;
        return {
          date: r.date,
          memo: r.description,
          source: r.kind === 'late_fee' ? 'late_fee' : 'charge',
          source_id: Number(r.id),
          user_id: r.user_id,
          key: `charge:${Number(r.id)}`,
          lines: [
            { role: 'receivable', debit: r.amount, ...lease, due_date: r.date },
            { role: owned ? 'owner_rent_due' : incomeRole(r.kind, r.category), credit: r.amount, ...lease },
          ],
        };
      }),
    );
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  },

  /**
   * Rate changes, in one statement: the new ones' ids. A lease has one change a day: `existing: 'skip'`
   * leaves out one that its lease has that day already (the daily run's escalations), 'refuse' lets the
   * database refuse it (23505: a person adding one is told).
   */
  addRateChanges: async (
    tx: DbOrTx,
    companyId: number,
    changes: readonly NewRateChange[],
    existing: 'skip' | 'refuse',
  ): Promise<number[]> => {
    if (changes.length === 0) return [];
    const rows = await execRows<{ id: number; occupancy_id: number }>(
      tx,
      sql`INSERT INTO rate_changes (company_id, occupancy_id, effective_date, rate, source, user_id)
          VALUES ${sql.join(
            changes.map(
              (c) =>
                sql`(${companyId}, ${c.occupancy_id}, ${c.effective_date}::date, ${c.rate}::numeric, ${c.source},
                     ${value(c.user_id)})`,
            ),
            sql`, `,
          )}
          ${existing === 'skip' ? sql`ON CONFLICT (company_id, occupancy_id, effective_date) DO NOTHING` : sql``}
          RETURNING id, occupancy_id`,
    );
    // the rent of the leases changed: posted through today, periods already posted adjusted
    if (rows.length > 0)
      await postLeaseRent(
        tx,
        companyId,
        rows.map((r) => Number(r.occupancy_id)),
        await companyDay(tx, companyId),
        { userId: changes[0]?.user_id ?? null },
      );
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  },

  /**
   * The waiver of a charge's whole amount: its id, or undefined when the company has no such charge.
   * A second waiver of one charge is refused by the database (23505).
   */
  waiveCharge: async (
    tx: DbOrTx,
    companyId: number,
    chargeId: number,
    w: { date: string; reason: string; user_id: number },
  ): Promise<number | undefined> => {
    const rows = await execRows<{
      id: number;
      occupancy_id: number;
      charge_kind: string;
      amount: string;
      category: string | null;
      charge_date: string;
    }>(
      tx,
      sql`INSERT INTO charge_waivers (company_id, charge_id, occupancy_id, charge_kind, date, amount, reason, user_id)
          SELECT company_id, id, occupancy_id, kind, ${w.date}, amount, ${w.reason}, ${w.user_id}
            FROM charges WHERE company_id = ${companyId} AND id = ${chargeId}
          RETURNING id, occupancy_id, charge_kind, amount::text AS amount,
                    (SELECT category FROM charges c WHERE c.company_id = ${companyId} AND c.id = ${chargeId}) AS category,
                    (SELECT to_char(c.date, 'YYYY-MM-DD') FROM charges c
                      WHERE c.company_id = ${companyId} AND c.id = ${chargeId}) AS charge_date`,
    );
    const waiver = rows[0];
    if (!waiver) return undefined;
    // Dr the charge's income account, Cr Accounts receivable
    const lease = (await leaseDims(tx, companyId, [Number(waiver.occupancy_id)])).get(
      Number(waiver.occupancy_id),
    );
    // an owned property's charge was due to its owners: its waiver takes it off there
    const owned =
      (await ownershipOf(tx, companyId, [lease?.property_id])).on(lease?.property_id, waiver.charge_date)
        .length > 0;
    await books.post(tx, companyId, [
      {
        date: w.date,
        memo: `Waived: ${w.reason}`.slice(0, 1000),
        source: 'waiver',
        source_id: Number(waiver.id),
        user_id: w.user_id,
        key: `waiver:${Number(waiver.id)}`,
        lines: [
          {
            role: owned ? 'owner_rent_due' : incomeRole(waiver.charge_kind, waiver.category),
            debit: waiver.amount,
            ...lease,
          },
          // the waiver takes its charge off: the charge's day is owed less
          { role: 'receivable', credit: waiver.amount, ...lease, due_date: waiver.charge_date },
        ],
      },
    ]);
    return Number(waiver.id);
  },

  /** The settlement of a lease's deposit (one per lease: a second is refused, 23505): its id. */
  settleDeposit: async (
    tx: DbOrTx,
    companyId: number,
    s: {
      occupancy_id: number;
      date: string;
      deposit_amount: string;
      deductions_total: string;
      applied_to_balance: boolean;
      applied_amount: string;
      refund_amount: string;
      refund_method: string | null;
      deposit_status: string;
      user_id: number;
    },
  ): Promise<number> => {
    const rows = await execRows<{ id: number }>(
      tx,
      sql`INSERT INTO deposit_settlements (company_id, occupancy_id, date, deposit_amount, deductions_total,
                applied_to_balance, applied_amount, refund_amount, refund_method, deposit_status, user_id)
          VALUES (${companyId}, ${s.occupancy_id}, ${s.date}, ${s.deposit_amount}, ${s.deductions_total},
                  ${s.applied_to_balance}, ${s.applied_amount}, ${s.refund_amount}, ${s.refund_method},
                  ${s.deposit_status}, ${s.user_id})
          RETURNING id`,
    );
    const id = Number(rows[0]?.id);
    // applied: Dr Security deposits held, Cr Accounts receivable; refunded: Cr the refund's money account
    const lease = (await leaseDims(tx, companyId, [s.occupancy_id])).get(s.occupancy_id);
    // a deposit applied on an owned property is collected for its owners, as a payment is
    const shares = (await ownershipOf(tx, companyId, [lease?.property_id])).on(lease?.property_id, s.date);
    const owned = collectionLines(
      toCents(s.applied_amount),
      shares,
      shares.length > 0
        ? (await agreementsOf(tx, companyId, [lease?.property_id])).get(lease?.property_id ?? 0)
        : undefined,
      lease ?? {},
    );
    await books.post(tx, companyId, [
      {
        date: s.date,
        memo: 'Deposit applied to the balance',
        source: 'deposit_applied',
        source_id: id,
        user_id: s.user_id,
        key: `deposit_applied:${id}`,
        lines: [
          { role: 'deposits_held', debit: s.applied_amount, ...lease },
          { role: 'receivable', credit: s.applied_amount, ...lease },
          ...owned.collected,
        ],
      },
      {
        date: s.date,
        memo: 'Management fee on the deposit applied',
        source: 'management_fee',
        // not the settlement's id: a payment's fee and tax are reversed by the payment's id
        source_id: null,
        user_id: s.user_id,
        key: `management_fee:deposit_applied:${id}`,
        lines: owned.fee,
      },
      {
        date: s.date,
        memo: 'Rental tax withheld on the deposit applied',
        source: 'rental_tax',
        // not the settlement's id: a payment's fee and tax are reversed by the payment's id
        source_id: null,
        user_id: s.user_id,
        key: `rental_tax:deposit_applied:${id}`,
        lines: owned.tax,
      },
      {
        date: s.date,
        memo: 'Deposit refunded',
        source: 'deposit_refund',
        source_id: id,
        user_id: s.user_id,
        key: `deposit_refund:${id}`,
        lines: [
          { role: 'deposits_held', debit: s.refund_amount, ...lease },
          { role: methodRole(s.refund_method), credit: s.refund_amount, ...lease },
        ],
      },
    ]);
    return id;
  },
};
