import type { Charge, DepositSettlement, RateChangeRecord, Waiver } from '@kodi/domain';
import type { Database, DbOrTx } from '../../db/client.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';

/**
 * What a lease's charges, waivers, rate changes and deposit settlement look like in the API, read
 * from their tables (amounts as NUMERIC text made JSON numbers, dates as YYYY-MM-DD).
 */

type Row = Record<string, unknown>;
export const TS = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const num = (v: unknown) => Number(v);
const intOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const CHARGE_SELECT = `c.id, c.occupancy_id, to_char(c.date, 'YYYY-MM-DD') AS date, c.kind, c.category, c.description,
  c.amount::text AS amount, to_char(c.rent_due_date, 'YYYY-MM-DD') AS rent_due_date, c.user_id,
  ${TS('c.created_at')} AS created_at,
  w.id AS waiver_id, to_char(w.date, 'YYYY-MM-DD') AS waiver_date, w.amount::text AS waiver_amount,
  w.reason AS waiver_reason, w.user_id AS waiver_user_id, ${TS('w.created_at')} AS waiver_created_at`;
export const CHARGE_FROM = `charges c LEFT JOIN charge_waivers w ON w.company_id = c.company_id AND w.charge_id = c.id`;

export const presentCharge = (r: Row): Charge => ({
  id: num(r.id),
  occupancy_id: num(r.occupancy_id),
  date: String(r.date),
  kind: r.kind === 'late_fee' ? 'late_fee' : 'charge',
  category: (r.category as Charge['category']) ?? null,
  description: String(r.description),
  amount: num(r.amount),
  rent_due_date: (r.rent_due_date as string | null) ?? null,
  user_id: intOrNull(r.user_id),
  created_at: String(r.created_at),
  waiver:
    r.waiver_id === null || r.waiver_id === undefined
      ? null
      : {
          id: num(r.waiver_id),
          date: String(r.waiver_date),
          amount: num(r.waiver_amount),
          reason: String(r.waiver_reason),
          user_id: intOrNull(r.waiver_user_id),
          created_at: String(r.waiver_created_at),
        },
});

export const listCharges = async (database: Database, companyId: number, occupancyId: number) =>
  (
    await database.query<Row>(
      `SELECT ${CHARGE_SELECT} FROM ${CHARGE_FROM}
        WHERE c.company_id = $1 AND c.occupancy_id = $2 ORDER BY c.date, c.id`,
      [companyId, occupancyId],
    )
  ).map(presentCharge);

export const WAIVER_RETURNING = `id, charge_id, occupancy_id, to_char(date, 'YYYY-MM-DD') AS date, amount::text AS amount,
  reason, user_id, ${TS('created_at')} AS created_at`;

export const presentWaiver = (r: Row): Waiver => ({
  id: num(r.id),
  charge_id: num(r.charge_id),
  occupancy_id: num(r.occupancy_id),
  date: String(r.date),
  amount: num(r.amount),
  reason: String(r.reason),
  user_id: intOrNull(r.user_id),
  created_at: String(r.created_at),
});

export const RATE_CHANGE_SELECT = `id, occupancy_id, to_char(effective_date, 'YYYY-MM-DD') AS effective_date,
  rate::text AS rate, source, user_id, ${TS('created_at')} AS created_at`;

export const presentRateChange = (r: Row): RateChangeRecord => ({
  id: num(r.id),
  occupancy_id: num(r.occupancy_id),
  effective_date: String(r.effective_date),
  rate: num(r.rate),
  source: r.source === 'escalation' ? 'escalation' : 'manual',
  user_id: intOrNull(r.user_id),
  created_at: String(r.created_at),
});

export const listRateChanges = async (database: Database, companyId: number, occupancyId: number) =>
  (
    await database.query<Row>(
      `SELECT ${RATE_CHANGE_SELECT} FROM rate_changes
        WHERE company_id = $1 AND occupancy_id = $2 ORDER BY effective_date`,
      [companyId, occupancyId],
    )
  ).map(presentRateChange);

/** The settlement of a lease with its deductions (the charges it made), or undefined. */
export const loadSettlement = async (
  database: Database,
  companyId: number,
  occupancyId: number,
): Promise<DepositSettlement | undefined> => {
  const rows = await database.query<Row>(
    `SELECT s.id, s.occupancy_id, to_char(s.date, 'YYYY-MM-DD') AS date, s.deposit_amount::text AS deposit_amount,
            s.deductions_total::text AS deductions_total, s.applied_to_balance, s.applied_amount::text AS applied_amount,
            s.refund_amount::text AS refund_amount, s.refund_method, s.deposit_status, s.user_id,
            ${TS('s.created_at')} AS created_at,
            COALESCE((SELECT json_agg(json_build_object('charge_id', c.id, 'description', c.description,
                                                        'amount', c.amount::text) ORDER BY c.id)
                        FROM charges c WHERE c.company_id = s.company_id AND c.settlement_id = s.id), '[]'::json) AS deductions
       FROM deposit_settlements s WHERE s.company_id = $1 AND s.occupancy_id = $2`,
    [companyId, occupancyId],
  );
  const r = rows[0];
  if (!r) return undefined;
  const deductions = (typeof r.deductions === 'string' ? JSON.parse(r.deductions) : r.deductions) as {
    charge_id: number;
    description: string;
    amount: string;
  }[];
  return {
    id: num(r.id),
    occupancy_id: num(r.occupancy_id),
    date: String(r.date),
    deposit_amount: num(r.deposit_amount),
    deductions: deductions.map((d) => ({
      charge_id: Number(d.charge_id),
      description: d.description,
      amount: Number(d.amount),
    })),
    deductions_total: num(r.deductions_total),
    applied_to_balance: r.applied_to_balance === true,
    applied_amount: num(r.applied_amount),
    refund_amount: num(r.refund_amount),
    refund_method: (r.refund_method as string | null) ?? null,
    deposit_status: r.deposit_status === 'forfeited' ? 'forfeited' : 'returned',
    user_id: intOrNull(r.user_id),
    created_at: String(r.created_at),
  };
};

/** An audit entry of a change that is not an entity's (a charge, a waiver...), in the same transaction. */
export const audit = async (
  tx: DbOrTx,
  a: { companyId: number; userId: number; entity: string; recordId: number; after: unknown },
) => {
  await recordAuditEntry(tx, { ...a, action: 'create' });
};
