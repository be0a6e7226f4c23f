import { AppError, buildLedger, type LeaseTerms, type Ledger, type LedgerPayment } from '@kodi/domain';
import type { Database } from '../../db/client.ts';

/** A lease as the ledger and the statement need it: money as exact NUMERIC text, dates as YYYY-MM-DD. */
export type LeaseForLedger = LeaseTerms & {
  id: number;
  tenant_first_name: string;
  tenant_last_name: string;
  unit_name: string;
};

/** The lease of the company (another company's, or none: 404). */
export const loadLease = async (
  database: Database,
  companyId: number,
  id: number,
): Promise<LeaseForLedger> => {
  const rows = await database.query<Record<string, unknown>>(
    `SELECT o.id, to_char(o.start_date, 'YYYY-MM-DD') AS start_date, to_char(o.end_date, 'YYYY-MM-DD') AS end_date,
            o.rate::text AS rate, o.rent_cycle, o.deposit_amount::text AS deposit_amount, o.deposit_status,
            tn.first_name AS tenant_first_name, tn.last_name AS tenant_last_name, un.name AS unit_name
       FROM occupancy o
       JOIN tenants tn ON tn.company_id = o.company_id AND tn.id = o.tenant_id
       JOIN units un ON un.company_id = o.company_id AND un.id = o.unit_id
      WHERE o.company_id = $1 AND o.id = $2`,
    [companyId, id],
  );
  const r = rows[0];
  if (!r) throw new AppError('not_found', 'Occupancy record not found.');
  return {
    id: Number(r.id),
    start_date: String(r.start_date),
    end_date: (r.end_date as string | null) ?? null,
    rate: String(r.rate),
    rent_cycle: String(r.rent_cycle),
    deposit_amount: (r.deposit_amount as string | null) ?? null,
    deposit_status: (r.deposit_status as string | null) ?? null,
    tenant_first_name: String(r.tenant_first_name ?? ''),
    tenant_last_name: String(r.tenant_last_name ?? ''),
    unit_name: String(r.unit_name ?? ''),
  };
};

/** The completed payments of a lease dated on or before `asOf`, oldest first. */
export const loadPayments = (
  database: Database,
  companyId: number,
  occupancyId: number,
  asOf: string,
): Promise<LedgerPayment[]> =>
  database
    .query<Record<string, unknown>>(
      `SELECT id, to_char(payment_date, 'YYYY-MM-DD') AS payment_date, amount_paid::text AS amount_paid, status,
              receipt_number, payment_serial, payment_method
         FROM payments
        WHERE company_id = $1 AND occupancy_id = $2 AND status = 'completed' AND payment_date <= $3::date
        ORDER BY payment_date, id`,
      [companyId, occupancyId, asOf],
    )
    .then((rows) =>
      rows.map((r) => ({
        id: Number(r.id),
        payment_date: String(r.payment_date),
        amount_paid: String(r.amount_paid),
        status: String(r.status),
        receipt_number: (r.receipt_number as string | null) ?? null,
        payment_serial: (r.payment_serial as string | null) ?? null,
        payment_method: (r.payment_method as string | null) ?? null,
      })),
    );

/** The lease and its ledger on `asOf`. */
export const leaseLedger = async (
  database: Database,
  companyId: number,
  id: number,
  asOf: string,
): Promise<{ lease: LeaseForLedger; ledger: Ledger }> => {
  const lease = await loadLease(database, companyId, id);
  const payments = await loadPayments(database, companyId, id, asOf);
  return { lease, ledger: buildLedger(lease, payments, asOf) };
};
