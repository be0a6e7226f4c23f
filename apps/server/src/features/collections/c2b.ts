import { sql } from 'drizzle-orm';
import { formatCents, toCents } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import { writeLines } from './service.ts';

/**
 * Daraja's C2B calls (its documented payload: TransactionType, TransID, TransTime YYYYMMDDHHmmss,
 * TransAmount, BusinessShortCode, BillRefNumber (the account number the payer typed), MSISDN,
 * FirstName, MiddleName, LastName …).
 */
export type C2bPayload = {
  TransID: string;
  TransTime?: string;
  TransAmount: string | number;
  BillRefNumber?: string;
  MSISDN?: string | number;
  FirstName?: string;
  MiddleName?: string;
  LastName?: string;
};

/** Daraja's answers to its validation call: accepted, or rejected as an invalid account number. */
export const C2B_ACCEPTED = { ResultCode: '0', ResultDesc: 'Accepted' } as const;
export const C2B_INVALID_ACCOUNT = { ResultCode: 'C2B00012', ResultDesc: 'Rejected' } as const;

/** The lease of an account number (upper-case, as account numbers are kept), if any. */
export const leaseOfAccount = async (db: DbOrTx, companyId: number, account: string | undefined) => {
  const ref = (account ?? '').trim().toUpperCase().replace(/\s+/g, '');
  if (!ref) return undefined;
  const [lease] = await execRows<{ id: number; tenant_id: number }>(
    db,
    sql`SELECT id, tenant_id FROM occupancy WHERE company_id = ${companyId} AND account_reference = ${ref}`,
  );
  return lease ? { id: Number(lease.id), tenantId: Number(lease.tenant_id) } : undefined;
};

/** Daraja's TransTime (Kenya's time) as a day; a missing or odd one: today in Kenya. */
const dayOf = (transTime: string | undefined) =>
  transTime && /^\d{8}/.test(transTime)
    ? `${transTime.slice(0, 4)}-${transTime.slice(4, 6)}-${transTime.slice(6, 8)}`
    : new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);

/**
 * A C2B confirmation: kept once as a Collections line of source `mpesa` (its TransID the key: the
 * same transaction twice is one line and one payment). The account number of a lease: matched and
 * posted at once through the payments' server part (the books, the receipt); any other: an unmatched
 * line for the staff. Answers whether it was new and the lease it went to.
 */
export const confirmC2b = async (
  ctx: AppContext,
  payments: ServerEntity,
  companyId: number,
  p: C2bPayload,
): Promise<{ duplicate: boolean; occupancyId: number | null }> => {
  const { db } = ctx.database;
  const lease = await leaseOfAccount(db, companyId, p.BillRefNumber);
  const amount = formatCents(toCents(String(p.TransAmount)));
  const name = [p.FirstName, p.MiddleName, p.LastName].filter(Boolean).join(' ') || null;
  const line = {
    source: 'mpesa',
    transaction_id: String(p.TransID).slice(0, 100),
    date: dayOf(p.TransTime),
    amount: Number(amount),
    direction: 'in' as const,
    payer_phone: p.MSISDN === undefined ? null : String(p.MSISDN).slice(0, 50),
    payer_name: name,
    reference: p.BillRefNumber ?? null,
  };
  const id = await db.transaction(async (tx) => {
    const [lineId] = await writeLines(tx, payments, { company_id: companyId, id: null }, null, [
      {
        ...line,
        match: lease
          ? {
              status: 'matched',
              confidence: 100,
              occupancy_id: lease.id,
              tenant_id: lease.tenantId,
              certain: true,
              reason: `M-Pesa account number ${line.reference ?? ''}`,
            }
          : null,
      },
    ]);
    if (lineId !== null && lineId !== undefined)
      await recordAuditEntry(tx, {
        companyId,
        userId: null,
        action: 'webhook',
        entity: 'statement_lines',
        recordId: lineId,
        after: { ...line, status: lease ? 'matched' : 'unmatched' },
        summary: `M-Pesa ${line.transaction_id}: ${amount} for account ${line.reference ?? '—'}${name ? ` from ${name}` : ''}`,
      });
    return lineId ?? null;
  });
  return { duplicate: id === null, occupancyId: lease?.id ?? null };
};
