import { sql } from 'drizzle-orm';
import { AppError, formatCents, toCents, type SessionUser } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { records as recordWriter } from '../../crud/records.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { voidPayment } from '../../modules/receipts/void-payment.ts';

/** Who posts: a session's user, or nobody (the webhook, or a statement's automatic matches). */
export type Poster = Pick<SessionUser, 'company_id'> & { id: number | null };

/** A line to post: its transaction, date and source, and where its money goes. */
export type Posting = {
  lineId: number;
  source: string;
  transaction_id: string;
  date: string;
  payer: string | null;
  allocations: readonly { occupancy_id: number; amount: string }[];
};

/** A bank's money came by transfer; everything else (mobile-money statements, the webhook) by mobile money. */
export const methodOf = (source: string) => (source === 'bank' ? 'banktransfer' : 'mobilemoney');

/**
 * Creates one completed payment per allocation, the way the payments route does (the payments'
 * server part from the wiring: the lease checked, a serial and a receipt number from the company's
 * counters, the audit entries), and links them to their lines. One statement for the leases' tenants
 * and units, one for the payments of all the lines given.
 */
export const postPayments = async (
  tx: DbOrTx,
  payments: ServerEntity,
  poster: Poster,
  postings: readonly Posting[],
): Promise<Map<number, number[]>> => {
  const out = new Map<number, number[]>();
  const all = postings.flatMap((p) => p.allocations.map((a) => ({ p, a })));
  if (all.length === 0 || !payments.prepareMany) return out;
  const ids = [...new Set(all.map(({ a }) => a.occupancy_id))];
  const leases = await execRows<{ id: number; tenant_id: number; unit_id: number }>(
    tx,
    sql`SELECT id, tenant_id, unit_id FROM occupancy
         WHERE company_id = ${poster.company_id} AND id = ANY(${`{${ids.join(',')}}`}::int[])`,
  );
  const byId = new Map(leases.map((l) => [Number(l.id), l]));
  const values = all.map(({ p, a }) => {
    const lease = byId.get(a.occupancy_id);
    if (!lease) throw new AppError('validation_failed', 'No such lease.', { allocations: 'No such lease.' });
    return {
      tenant_id: Number(lease.tenant_id),
      unit_id: Number(lease.unit_id),
      occupancy_id: a.occupancy_id,
      payment_date: p.date,
      amount_paid: a.amount,
      payment_method: methodOf(p.source),
      status: 'completed',
      effective_start_date: p.date,
      effective_end_date: p.date,
      reference_number: p.transaction_id.slice(0, 100),
      invoice_id: 'N/A',
      payment_details:
        `Received by ${p.source === 'webhook' ? 'the payment webhook' : 'statement'}: transaction ${p.transaction_id}${p.payer ? ` from ${p.payer}` : ''}.`.slice(
          0,
          2000,
        ),
    } as Record<string, unknown>;
  });
  // the payments' rules (their leases and numbers), one INSERT and their audit entries
  const made = await recordWriter.createMany(
    tx,
    payments,
    values.map((v) => ({ user: poster, values: v })),
  );
  const records = made.map((r) => {
    if (r instanceof AppError) throw r;
    return r;
  });
  await tx.execute(
    sql`INSERT INTO statement_line_payments (company_id, line_id, payment_id, amount)
        SELECT ${poster.company_id}, x.line_id, x.payment_id, x.amount
          FROM jsonb_to_recordset(${JSON.stringify(
            records.map((r, i) => ({
              line_id: all[i]?.p.lineId,
              payment_id: Number(r.id),
              amount: all[i]?.a.amount,
            })),
          )}::jsonb) AS x(line_id int, payment_id int, amount numeric)`,
  );
  records.forEach((r, i) => {
    const line = all[i]?.p.lineId;
    if (line === undefined) return;
    out.set(line, [...(out.get(line) ?? []), Number(r.id)]);
  });
  return out;
};

/** 1200000.5 → '1,200,000.50' (from the exact text, never a float). */
const grouped = (cents: bigint) => formatCents(cents).replace(/\B(?=(\d{3})+(?!\d))(?=\d*\.)/g, ',');

/** The allocations of a match by hand: they must add up to the line's amount, to the cent. */
export const checkAllocations = (lineAmount: string, allocations: readonly { amount: number }[]) => {
  const total = allocations.reduce((s, a) => s + toCents(a.amount), 0n);
  if (total !== toCents(lineAmount)) {
    const message = `The allocations add up to ${grouped(total)}; the line is ${grouped(toCents(lineAmount))}.`;
    throw new AppError('validation_failed', message, { allocations: message });
  }
  const ids = allocations.map((a) => (a as { occupancy_id?: number }).occupancy_id);
  if (new Set(ids).size !== ids.length) {
    const message = 'Each lease once.';
    throw new AppError('validation_failed', message, { allocations: message });
  }
};

/**
 * Voids the payments lines made (an unmatch, a statement's deletion): each completed one is voided
 * (modules/receipts/void-payment.ts: status `void` with the reason, its numbers and receipt code kept,
 * its audit entry, through the records' writer) and the links are kept with the time they were
 * voided. Nothing is deleted. Answers the payments voided.
 */
export const voidPayments = async (
  tx: DbOrTx,
  payments: ServerEntity,
  user: SessionUser,
  lineIds: readonly number[],
  reason: string,
): Promise<number[]> => {
  if (lineIds.length === 0) return [];
  const lines = `{${lineIds.join(',')}}`;
  const rows = await execRows<{ id: number; status: string }>(
    tx,
    sql`SELECT p.id, p.status
          FROM statement_line_payments l JOIN payments p ON p.company_id = l.company_id AND p.id = l.payment_id
         WHERE l.company_id = ${user.company_id} AND l.line_id = ANY(${lines}::int[]) AND l.voided_at IS NULL
         ORDER BY p.id FOR UPDATE OF p`,
  );
  const voided: number[] = [];
  for (const p of rows) {
    // a payment voided already (by hand), or never completed, has nothing to void
    if (p.status !== 'completed') continue;
    await voidPayment(tx, payments, user, Number(p.id), reason, { checkRole: false });
    voided.push(Number(p.id));
  }
  await tx.execute(
    sql`UPDATE statement_line_payments SET voided_at = now(), updated_at = now()
         WHERE company_id = ${user.company_id} AND line_id = ANY(${lines}::int[]) AND voided_at IS NULL`,
  );
  return voided;
};
