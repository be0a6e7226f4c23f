import {
  AppError,
  lateFeePolicySchema,
  type LateFeePolicy,
  type LeaseTerms,
  type LedgerCharge,
  type LedgerExtras,
  type LedgerPayment,
  type LedgerSettlement,
  type LedgerWaiver,
  type PostedRent,
  type RateChange,
} from '@kodi/domain';
import type { Database } from '../../db/client.ts';
import { isoDaySql } from '../../db/dates.ts';

/**
 * A lease's book: its terms (with its rate changes), its completed payments, its charges beyond
 * rent and their waivers, and its deposit settlement, as the rules of @kodi/domain (ledger.ts,
 * rent-cycle.ts) take them. The ledger, the statement, the lease's charges and the daily run read
 * leases through here: one lease, or the leases of a company a page at a time.
 */
export type BookLease = LeaseTerms & {
  id: number;
  tenant_id: number;
  unit_id: number;
  tenant_first_name: string;
  tenant_last_name: string;
  tenant_email: string | null;
  tenant_phone: string | null;
  tenant_country_code: string | null;
  /** issue 29: whether the tenant agreed to messages by WhatsApp */
  tenant_notify_whatsapp: boolean;
  unit_name: string;
  /** what the tenant gives as the account when paying by paybill or mobile money (issue 29) */
  account_reference: string | null;
  late_fee_exempt: boolean;
  late_fee: LateFeePolicy | null;
  escalation_percent: string | null;
  escalation_every_months: number | null;
};

export type LeaseBook = { lease: BookLease; payments: LedgerPayment[]; extras: LedgerExtras };

type Row = Record<string, unknown>;
const str = (v: unknown): string => String(v ?? '');
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

const LEASE_COLUMNS = `o.id, o.tenant_id, o.unit_id, to_char(o.start_date, 'YYYY-MM-DD') AS start_date,
  to_char(o.end_date, 'YYYY-MM-DD') AS end_date, o.rate::text AS rate, o.rent_cycle,
  o.deposit_amount::text AS deposit_amount, o.deposit_status, o.late_fee_exempt, o.late_fee,
  o.escalation_percent::text AS escalation_percent, o.escalation_every_months,
  o.opening_balance::text AS opening_balance, to_char(o.opening_balance_date, 'YYYY-MM-DD') AS opening_balance_date,
  tn.first_name AS tenant_first_name, tn.last_name AS tenant_last_name, tn.email AS tenant_email,
  tn.phone AS tenant_phone, tn.country_code AS tenant_country_code, tn.notify_whatsapp AS tenant_notify_whatsapp,
  un.name AS unit_name,
  o.account_reference`;

const LEASE_FROM = `occupancy o
  JOIN tenants tn ON tn.company_id = o.company_id AND tn.id = o.tenant_id
  JOIN units un ON un.company_id = o.company_id AND un.id = o.unit_id`;

const policyOf = (v: unknown): LateFeePolicy | null => {
  if (v === null || v === undefined) return null;
  const r = lateFeePolicySchema.safeParse(typeof v === 'string' ? JSON.parse(v) : v);
  return r.success ? r.data : null;
};

const presentLease = (r: Row): Omit<BookLease, 'rate_changes'> => ({
  id: Number(r.id),
  tenant_id: Number(r.tenant_id),
  unit_id: Number(r.unit_id),
  start_date: str(r.start_date),
  end_date: strOrNull(r.end_date),
  rate: str(r.rate),
  rent_cycle: str(r.rent_cycle),
  deposit_amount: strOrNull(r.deposit_amount),
  deposit_status: strOrNull(r.deposit_status),
  opening_balance: strOrNull(r.opening_balance),
  opening_balance_date: strOrNull(r.opening_balance_date),
  tenant_first_name: str(r.tenant_first_name),
  tenant_last_name: str(r.tenant_last_name),
  tenant_email: strOrNull(r.tenant_email),
  tenant_phone: strOrNull(r.tenant_phone),
  tenant_country_code: strOrNull(r.tenant_country_code),
  tenant_notify_whatsapp: r.tenant_notify_whatsapp === true,
  unit_name: str(r.unit_name),
  account_reference: strOrNull(r.account_reference),
  late_fee_exempt: r.late_fee_exempt === true,
  late_fee: policyOf(r.late_fee),
  escalation_percent: strOrNull(r.escalation_percent),
  escalation_every_months:
    r.escalation_every_months === null || r.escalation_every_months === undefined
      ? null
      : Number(r.escalation_every_months),
});

/** The parts of the books of these leases, each by lease id. */
const loadParts = async (database: Database, companyId: number, ids: number[], through: string) => {
  const q = <T extends Row>(text: string) => database.query<T>(text, [companyId, ids, through]);
  const [rates, payments, charges, waivers, settlements, posted, states] = await Promise.all([
    q(`SELECT occupancy_id, to_char(effective_date, 'YYYY-MM-DD') AS effective_date, rate::text AS rate
         FROM rate_changes WHERE company_id = $1 AND occupancy_id = ANY($2::int[]) AND $3::date IS NOT NULL
        ORDER BY occupancy_id, effective_date`),
    q(`SELECT id, occupancy_id, ${isoDaySql('payment_date')} AS payment_date, amount_paid::text AS amount_paid,
              receipt_number, payment_serial, payment_method
         FROM payments
        WHERE company_id = $1 AND occupancy_id = ANY($2::int[]) AND status = 'completed' AND payment_date <= $3::date
        ORDER BY occupancy_id, payment_date, id`),
    q(`SELECT id, occupancy_id, to_char(date, 'YYYY-MM-DD') AS date, kind, category, description,
              amount::text AS amount, to_char(rent_due_date, 'YYYY-MM-DD') AS rent_due_date
         FROM charges WHERE company_id = $1 AND occupancy_id = ANY($2::int[]) AND date <= $3::date
        ORDER BY occupancy_id, date, id`),
    q(`SELECT id, occupancy_id, charge_id, to_char(date, 'YYYY-MM-DD') AS date, amount::text AS amount, reason
         FROM charge_waivers WHERE company_id = $1 AND occupancy_id = ANY($2::int[]) AND date <= $3::date
        ORDER BY occupancy_id, date, id`),
    q(`SELECT occupancy_id, to_char(date, 'YYYY-MM-DD') AS date, applied_amount::text AS applied_amount,
              refund_amount::text AS refund_amount, refund_method
         FROM deposit_settlements WHERE company_id = $1 AND occupancy_id = ANY($2::int[]) AND date <= $3::date`),
    // what the books posted (issue 25): the rent of each period (all of it: the rules look ahead of
    // `through`, and what is posted is posted through its own day) and the opening balance
    q(`SELECT occupancy_id, to_char(due_date, 'YYYY-MM-DD') AS due_date, amount::text AS amount
         FROM lease_rent_posted WHERE company_id = $1 AND occupancy_id = ANY($2::int[]) AND $3::date IS NOT NULL
        ORDER BY occupancy_id, due_date`),
    q(`SELECT occupancy_id, to_char(through, 'YYYY-MM-DD') AS through, to_char(opening_date, 'YYYY-MM-DD') AS opening_date,
              opening_amount::text AS opening_amount
         FROM lease_rent_state WHERE company_id = $1 AND occupancy_id = ANY($2::int[]) AND $3::date IS NOT NULL`),
  ]);
  const group = <T>(rows: Row[], map: (r: Row) => T) => {
    const out = new Map<number, T[]>();
    for (const r of rows) {
      const id = Number(r.occupancy_id);
      const list = out.get(id);
      if (list) list.push(map(r));
      else out.set(id, [map(r)]);
    }
    return out;
  };
  const rent = group(posted, (r) => ({ due_date: str(r.due_date), amount: str(r.amount) }));
  const postedRent = new Map<number, PostedRent>(
    states.map((r) => [
      Number(r.occupancy_id),
      {
        through: str(r.through),
        rent: rent.get(Number(r.occupancy_id)) ?? [],
        opening:
          r.opening_date === null || r.opening_date === undefined
            ? null
            : { date: str(r.opening_date), amount: str(r.opening_amount) },
      },
    ]),
  );
  return {
    posted: postedRent,
    rates: group<RateChange>(rates, (r) => ({ effective_date: str(r.effective_date), rate: str(r.rate) })),
    payments: group<LedgerPayment>(payments, (r) => ({
      id: Number(r.id),
      payment_date: str(r.payment_date),
      amount_paid: str(r.amount_paid),
      status: 'completed',
      receipt_number: strOrNull(r.receipt_number),
      payment_serial: strOrNull(r.payment_serial),
      payment_method: strOrNull(r.payment_method),
    })),
    charges: group<LedgerCharge>(charges, (r) => ({
      id: Number(r.id),
      date: str(r.date),
      kind: r.kind === 'late_fee' ? 'late_fee' : 'charge',
      category: strOrNull(r.category),
      description: str(r.description),
      amount: str(r.amount),
      rent_due_date: strOrNull(r.rent_due_date),
    })),
    waivers: group<LedgerWaiver>(waivers, (r) => ({
      id: Number(r.id),
      charge_id: Number(r.charge_id),
      date: str(r.date),
      amount: str(r.amount),
      reason: strOrNull(r.reason),
    })),
    settlements: group<LedgerSettlement>(settlements, (r) => ({
      date: str(r.date),
      applied_amount: str(r.applied_amount),
      refund_amount: str(r.refund_amount),
      refund_method: strOrNull(r.refund_method),
    })),
  };
};

const assemble = (
  leases: Omit<BookLease, 'rate_changes'>[],
  parts: Awaited<ReturnType<typeof loadParts>>,
): LeaseBook[] =>
  leases.map((l) => ({
    lease: { ...l, rate_changes: parts.rates.get(l.id) ?? [] },
    payments: parts.payments.get(l.id) ?? [],
    extras: {
      charges: parts.charges.get(l.id) ?? [],
      waivers: parts.waivers.get(l.id) ?? [],
      settlement: parts.settlements.get(l.id)?.[0] ?? null,
      posted: parts.posted.get(l.id) ?? null,
    },
  }));

/** The book of one lease of the company as of `through` (another company's lease, or none: 404). */
export const loadLeaseBook = async (
  database: Database,
  companyId: number,
  id: number,
  through: string,
): Promise<LeaseBook> => {
  const rows = await database.query<Row>(
    `SELECT ${LEASE_COLUMNS} FROM ${LEASE_FROM} WHERE o.company_id = $1 AND o.id = $2`,
    [companyId, id],
  );
  const r = rows[0];
  if (!r) throw new AppError('not_found', 'Occupancy record not found.');
  const lease = presentLease(r);
  return assemble([lease], await loadParts(database, companyId, [lease.id], through))[0] as LeaseBook;
};

/**
 * A page of the company's leases that have started by `startedBy`, after lease id `after`, in id
 * order, with their books as of `through`; `where` narrows them further (SQL over `o`, built from
 * code only).
 */
export const loadLeaseBooks = async (
  database: Database,
  companyId: number,
  opts: { after: number; limit: number; startedBy: string; through: string; where?: string },
): Promise<LeaseBook[]> => {
  const rows = await database.query<Row>(
    `SELECT ${LEASE_COLUMNS} FROM ${LEASE_FROM}
      WHERE o.company_id = $1 AND o.id > $2 AND o.start_date <= $3::date ${opts.where ? `AND (${opts.where})` : ''}
      ORDER BY o.id LIMIT $4`,
    [companyId, opts.after, opts.startedBy, opts.limit],
  );
  if (rows.length === 0) return [];
  const leases = rows.map(presentLease);
  return assemble(
    leases,
    await loadParts(
      database,
      companyId,
      leases.map((l) => l.id),
      opts.through,
    ),
  );
};
