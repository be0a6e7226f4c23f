import { sql } from 'drizzle-orm';
import {
  AppError,
  formatCents,
  localTime,
  paymentProviderLabels,
  receiptUrl,
  toCents,
  type PaymentRequest,
  type PaymentRequestBody,
  type PaymentProviderName,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { companyTimezone } from '../../modules/companies/company-settings.ts';
import { companyCallingCode, toE164 } from '../../modules/companies/phones.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import { companyCells, writeLines } from './service.ts';
import type { ProviderOutcome } from './provider-clients.ts';
import { callbackUrlsOf, enabledClient } from './providers.ts';

/** A payment request as stored. */
type RequestRow = {
  company_id: number;
  id: number;
  occupancy_id: number;
  provider: PaymentProviderName;
  amount: string;
  phone: string;
  status: PaymentRequest['status'];
  reason: string | null;
  provider_request_id: string | null;
  transaction_id: string | null;
  received_amount: string | null;
  flagged: boolean;
  payment_id: number | null;
  created_at: string;
};

const COLUMNS = sql.raw(
  `r.company_id, r.id, r.occupancy_id, r.provider, r.amount::text AS amount, r.phone, r.status, r.reason,
   r.provider_request_id, r.transaction_id, r.received_amount::text AS received_amount, r.flagged, r.payment_id,
   to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`,
);

/** A request as the API answers it: with its payment's receipt when completed. */
export const readPaymentRequest = async (
  ctx: AppContext,
  db: DbOrTx,
  companyId: number,
  id: number,
  occupancyId?: number,
): Promise<PaymentRequest> => {
  const [r] = await execRows<RequestRow & { receipt_number: string | null; receipt_code: string | null }>(
    db,
    sql`SELECT ${COLUMNS}, p.receipt_number, p.receipt_code
          FROM payment_requests r
          LEFT JOIN payments p ON p.company_id = r.company_id AND p.id = r.payment_id
         WHERE r.company_id = ${companyId} AND r.id = ${id}
           ${occupancyId === undefined ? sql`` : sql`AND r.occupancy_id = ${occupancyId}`}`,
  );
  if (!r) throw new AppError('not_found');
  return {
    id: Number(r.id),
    occupancy_id: Number(r.occupancy_id),
    provider: r.provider,
    amount: formatCents(toCents(r.amount)),
    phone: r.phone,
    status: r.status,
    reason: r.reason,
    transaction_id: r.transaction_id,
    received_amount: r.received_amount === null ? null : formatCents(toCents(r.received_amount)),
    flagged: !!r.flagged,
    payment_id: r.payment_id === null ? null : Number(r.payment_id),
    receipt_number: r.receipt_number,
    receipt_url: r.receipt_code ? receiptUrl(ctx.config.publicUrl, r.receipt_code) : null,
    created_at: r.created_at,
  };
};

/**
 * Starts a prompt on the payer's phone for a lease: the request kept pending, then sent to the
 * provider (its id of the request kept). A provider that refuses: the request failed with its words,
 * and 502 provider_unavailable.
 */
export const startPaymentRequest = async (
  ctx: AppContext,
  who: { companyId: number; userId: number | null },
  occupancyId: number,
  body: PaymentRequestBody,
): Promise<PaymentRequest> => {
  const { db } = ctx.database;
  const [lease] = await execRows<{ id: number; account_reference: string | null }>(
    db,
    sql`SELECT id, account_reference FROM occupancy WHERE company_id = ${who.companyId} AND id = ${occupancyId}`,
  );
  if (!lease) throw new AppError('not_found');
  const { client, row } = await enabledClient(ctx, db, who.companyId, body.provider);
  const e164 = toE164(body.phone, await companyCallingCode(db, who.companyId));
  if (!e164) {
    const message = 'This is not a phone number.';
    throw new AppError('validation_failed', message, { phone: message });
  }
  const amount = formatCents(toCents(body.amount));
  const [made] = await execRows<{ id: number }>(
    db,
    sql`INSERT INTO payment_requests (company_id, occupancy_id, provider, amount, phone, requested_by)
        VALUES (${who.companyId}, ${occupancyId}, ${body.provider}, ${amount}, ${e164}, ${who.userId})
        RETURNING id`,
  );
  const id = Number(made?.id);
  const urls = callbackUrlsOf(ctx.config.publicUrl, body.provider, row.callback_key);
  try {
    const providerId = await client.start({
      amount,
      msisdn: e164.replace(/^\+/, ''),
      reference: lease.account_reference ?? `L${occupancyId}`,
      currency: (await companyCells(db, who.companyId)).currency.code,
      callbackUrl: urls.stk ?? urls.callback ?? '',
    });
    await db.execute(
      sql`UPDATE payment_requests SET provider_request_id = ${providerId}, updated_at = now()
           WHERE company_id = ${who.companyId} AND id = ${id}`,
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'The provider refused the request.';
    await db.execute(
      sql`UPDATE payment_requests SET status = 'failed', reason = ${reason.slice(0, 500)}, updated_at = now()
           WHERE company_id = ${who.companyId} AND id = ${id}`,
    );
    throw err;
  }
  await recordAuditEntry(db, {
    companyId: who.companyId,
    userId: who.userId,
    action: 'create',
    entity: 'payment_requests',
    recordId: id,
    after: { occupancy_id: occupancyId, provider: body.provider, amount, phone: e164 },
    summary: `${paymentProviderLabels[body.provider]} prompt for ${amount} to ${e164}`,
  });
  return readPaymentRequest(ctx, db, who.companyId, id);
};

/**
 * Ends a pending request as the provider says it ended (believed only from the provider's own
 * answer: its status query, or a callback the status query confirmed). Completed: the money is posted
 * once on the lease as a matched Collections line (source: the provider; the provider's transaction
 * id its key: the same transaction twice, or a request completed twice, is one payment), through the
 * payments' server part like any payment (its books entry, its receipt); an amount other than the
 * request's is posted as received and the request flagged. A request that ended already is left.
 */
export const settlePaymentRequest = async (
  ctx: AppContext,
  payments: ServerEntity,
  companyId: number,
  id: number,
  outcome: ProviderOutcome,
): Promise<void> => {
  const { db } = ctx.database;
  const zone = await companyTimezone(ctx.database, companyId);
  await db.transaction(async (tx) => {
    const [r] = await execRows<RequestRow & { tenant_id: number; account_reference: string | null }>(
      tx,
      sql`SELECT ${COLUMNS}, o.tenant_id, o.account_reference FROM payment_requests r
            JOIN occupancy o ON o.company_id = r.company_id AND o.id = r.occupancy_id
           WHERE r.company_id = ${companyId} AND r.id = ${id} FOR UPDATE OF r`,
    );
    if (!r || r.status !== 'pending') return;
    if (outcome.status === 'pending') {
      await tx.execute(
        sql`UPDATE payment_requests SET checked_at = now() WHERE company_id = ${companyId} AND id = ${id}`,
      );
      return;
    }
    if (outcome.status !== 'completed') {
      await tx.execute(
        sql`UPDATE payment_requests SET status = ${outcome.status}, reason = ${(outcome.reason ?? '').slice(0, 500) || null},
                   checked_at = now(), updated_at = now(), version = version + 1
             WHERE company_id = ${companyId} AND id = ${id}`,
      );
      return;
    }
    const received = formatCents(toCents(outcome.amount ?? r.amount));
    const flagged = toCents(received) !== toCents(r.amount);
    const transactionId = (outcome.transaction_id ?? r.provider_request_id ?? `request-${id}`).slice(0, 100);
    const date = localTime(zone, new Date()).date;
    const [lineId] = await writeLines(tx, payments, { company_id: companyId, id: null }, null, [
      {
        source: r.provider,
        transaction_id: transactionId,
        date,
        amount: Number(received),
        direction: 'in',
        payer_phone: r.phone,
        payer_name: null,
        reference: r.account_reference,
        match: {
          status: 'matched',
          confidence: 100,
          occupancy_id: Number(r.occupancy_id),
          tenant_id: Number(r.tenant_id),
          certain: true,
          reason: `${paymentProviderLabels[r.provider]} prompt #${id}`,
        },
      },
    ]);
    // the same transaction kept already (a statement, the C2B confirmation): its payment
    const [paid] = await execRows<{ payment_id: number }>(
      tx,
      sql`SELECT lp.payment_id FROM statement_lines l
            JOIN statement_line_payments lp ON lp.company_id = l.company_id AND lp.line_id = l.id
           WHERE l.company_id = ${companyId} AND l.source = ${r.provider} AND l.transaction_id = ${transactionId}
           ORDER BY lp.payment_id LIMIT 1`,
    );
    const reason = flagged
      ? `Received ${received}; ${r.amount} was requested.`
      : lineId === null
        ? 'This transaction was received before.'
        : null;
    await tx.execute(
      sql`UPDATE payment_requests SET status = 'completed', transaction_id = ${transactionId},
                 received_amount = ${received}, flagged = ${flagged}, reason = ${reason},
                 payment_id = ${paid ? Number(paid.payment_id) : null}, checked_at = now(), updated_at = now(),
                 version = version + 1
           WHERE company_id = ${companyId} AND id = ${id}`,
    );
  });
};

/** Asks the provider where a pending request is, and ends it as the provider says. */
export const checkPaymentRequest = async (
  ctx: AppContext,
  payments: ServerEntity,
  companyId: number,
  id: number,
  callback?: ProviderOutcome,
): Promise<void> => {
  const { db } = ctx.database;
  const [r] = await execRows<{
    provider: PaymentProviderName;
    provider_request_id: string | null;
    status: string;
  }>(
    db,
    sql`SELECT provider, provider_request_id, status FROM payment_requests WHERE company_id = ${companyId} AND id = ${id}`,
  );
  if (!r || r.status !== 'pending' || !r.provider_request_id) return;
  const { client } = await enabledClient(ctx, db, companyId, r.provider);
  const told = await client.status(r.provider_request_id);
  // a callback is believed only as far as the provider's own answer goes: its status must agree;
  // the money's id and amount come from the callback when the status query does not say them
  const outcome: ProviderOutcome =
    callback && told.status === callback.status
      ? {
          status: told.status,
          reason: told.reason ?? callback.reason,
          transaction_id: told.transaction_id ?? callback.transaction_id,
          amount: told.amount ?? callback.amount,
        }
      : told;
  await settlePaymentRequest(ctx, payments, companyId, id, outcome);
};

/** The pending requests that waited longer than `seconds` for their callback (the checker's work). */
export const overdueRequests = async (
  db: DbOrTx,
  seconds: number,
  now = new Date(),
): Promise<{ company_id: number; id: number }[]> =>
  (
    await execRows<{ company_id: number; id: number }>(
      db,
      sql`SELECT company_id, id FROM payment_requests
           WHERE status = 'pending' AND provider_request_id IS NOT NULL
             AND created_at <= ${new Date(now.getTime() - seconds * 1000).toISOString()}::timestamptz
             AND (checked_at IS NULL OR checked_at <= ${new Date(now.getTime() - 30_000).toISOString()}::timestamptz)
           ORDER BY created_at LIMIT 100`,
    )
  ).map((r) => ({ company_id: Number(r.company_id), id: Number(r.id) }));
