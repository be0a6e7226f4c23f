import { sql } from 'drizzle-orm';
import {
  AppError,
  formatSerial,
  NO_OCCUPANCY_MESSAGE,
  payments,
  RECEIPT_FIELDS,
  RECEIPT_ISSUED_MESSAGE,
  recordedPaymentStatus,
  toCents,
} from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { TENANT_JOIN, TENANT_NAMES } from '../../crud/sql.ts';
import { VOID_REASONS, voidPayment } from '../../modules/receipts/void-payment.ts';
import { paymentPosted } from '../../modules/books/hooks.ts';

const noOccupancy = () =>
  new AppError('validation_failed', NO_OCCUPANCY_MESSAGE, { occupancy_id: NO_OCCUPANCY_MESSAGE });

type Wanted = {
  values: Record<string, unknown>;
  /** takes the next payment serial (a new payment) */
  serial: boolean;
  /** takes the next receipt number (completed, without one yet) */
  receipt: boolean;
};

/** A PostgreSQL array literal of checked values (ids, dates, booleans): one parameter for many. */
const arrayLiteral = (items: readonly (string | number | boolean | null)[]) =>
  `{${items.map((v) => (v === null ? 'NULL' : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v))).join(',')}}`;

/**
 * In one statement, for one payment or several (one round trip while the company's rows are held):
 * the lease each belongs to (the one sent, checked; else the one whose dates hold the payment date;
 * else the latest) and, for those that have one, their next numbers: each counter moves once by the
 * count taken, payment serials before receipt numbers (the order every writer locks them in), and
 * the numbers are dealt in the payments' order. Answers each payment's lease and numbers, or null
 * when it has no lease (it takes no number).
 */
const leasesAndNumbers = async (
  tx: DbOrTx,
  companyId: number,
  wanted: readonly Wanted[],
): Promise<({ occupancyId: number; serial?: number; receipt?: number } | null)[]> => {
  const column = (f: (w: Wanted) => string | number | boolean | null) => arrayLiteral(wanted.map(f));
  const rows = await execRows<{
    id: number | null;
    serials: number | string | null;
    receipts: number | string | null;
  }>(
    tx,
    sql`WITH input AS (
          SELECT * FROM unnest(${column((w) => Number(w.values.tenant_id))}::int[],
                               ${column((w) => Number(w.values.unit_id))}::int[],
                               ${column((w) => (w.values.occupancy_id ? Number(w.values.occupancy_id) : null))}::int[],
                               ${column((w) => String(w.values.payment_date))}::date[],
                               ${column((w) => w.serial)}::bool[],
                               ${column((w) => w.receipt)}::bool[])
                 WITH ORDINALITY AS x(tenant_id, unit_id, occupancy_id, payment_date, serial, receipt, i)
        ),
        lease AS MATERIALIZED (
          SELECT x.i, x.serial, x.receipt,
                 (SELECT o.id FROM occupancy o
                   WHERE o.company_id = ${companyId} AND o.tenant_id = x.tenant_id AND o.unit_id = x.unit_id
                     AND (x.occupancy_id IS NULL OR o.id = x.occupancy_id)
                   ORDER BY (x.payment_date BETWEEN o.start_date AND COALESCE(o.end_date, 'infinity'::date)) DESC,
                            o.start_date DESC, o.id DESC
                   LIMIT 1) AS id
            FROM input x
        ),
        taken AS (
          SELECT count(*) FILTER (WHERE id IS NOT NULL AND serial)::int AS serials,
                 count(*) FILTER (WHERE id IS NOT NULL AND receipt)::int AS receipts
            FROM lease
        ),
        numbers AS (
          INSERT INTO counters (company_id, name, value)
          SELECT ${companyId}, v.name, v.k
            FROM taken, LATERAL (VALUES (1, 'payment_serial', taken.serials), (2, 'receipt_number', taken.receipts)) AS v(ord, name, k)
           WHERE v.k > 0 ORDER BY v.ord
          ON CONFLICT (company_id, name) DO UPDATE SET value = counters.value + EXCLUDED.value, updated_at = now()
          RETURNING name, value
        )
        SELECT l.id,
               (SELECT value - taken.serials FROM numbers, taken WHERE name = 'payment_serial')
                 + count(*) FILTER (WHERE l.id IS NOT NULL AND l.serial) OVER (ORDER BY l.i) AS serials,
               (SELECT value - taken.receipts FROM numbers, taken WHERE name = 'receipt_number')
                 + count(*) FILTER (WHERE l.id IS NOT NULL AND l.receipt) OVER (ORDER BY l.i) AS receipts
          FROM lease l ORDER BY l.i`,
  );
  return wanted.map((w, i) => {
    const row = rows[i];
    if (!row || row.id === null) return null;
    return {
      occupancyId: Number(row.id),
      ...(w.serial && row.serials !== null ? { serial: Number(row.serials) } : {}),
      ...(w.receipt && row.receipts !== null ? { receipt: Number(row.receipts) } : {}),
    };
  });
};

/** What a payment's save needs: N/A for the blank references, and which numbers it takes. */
const wantedOf = (values: Record<string, unknown>, existing?: Record<string, unknown>): Wanted => {
  const out: Record<string, unknown> = { ...values };
  for (const f of ['reference_number', 'invoice_id']) {
    if (out[f] === undefined || out[f] === null || out[f] === '') out[f] = 'N/A';
  }
  return {
    values: out,
    serial: !existing,
    receipt: out.status === 'completed' && !existing?.receipt_number,
  };
};

/** The values saved: the lease and the numbers found, or the refusal of a payment without a lease. */
const withLease = (
  w: Wanted,
  found: { occupancyId: number; serial?: number; receipt?: number } | null | undefined,
): Record<string, unknown> | AppError => {
  if (!found) return noOccupancy();
  return {
    ...w.values,
    occupancy_id: found.occupancyId,
    ...(found.serial ? { payment_serial: formatSerial('PAY', found.serial) } : {}),
    ...(found.receipt ? { receipt_number: formatSerial('RCT', found.receipt) } : {}),
  };
};

/** The fields a void writes (modules/receipts/void-payment.ts): only it sets them, never a form. */
const VOID_FIELDS = ['voided_at', 'voided_by', 'void_reason'] as const;

const same = (field: string, a: unknown, b: unknown): boolean => {
  const blank = (v: unknown) => v === undefined || v === null || v === '';
  if (blank(a) || blank(b)) return blank(a) && blank(b);
  if (field === 'amount_paid') return toCents(String(a)) === toCents(String(b));
  return String(a) === String(b);
};

/**
 * Receipts never change (issue 25). A new payment is recorded pending, completed or failed. A
 * completed payment's receipt fields (RECEIPT_FIELDS) keep their values, whatever path writes it
 * (PUT, an import, a batch): 409 `receipt_issued`; its other fields may change. The one way out of
 * `completed` is the void (status `void` with its reason, which only the void writes: a body's
 * read-only fields are dropped). A voided payment's receipt fields never change again. Pending and
 * failed payments stay editable, and completing one is allowed.
 */
const receiptRules = (values: Record<string, unknown>, existing?: Record<string, unknown>) => {
  const voiding = typeof values.void_reason === 'string' && values.void_reason !== '';
  if (!existing) {
    if (!(recordedPaymentStatus as readonly unknown[]).includes(values.status ?? 'completed')) {
      const message = 'A payment is recorded as pending, completed or failed.';
      throw new AppError('validation_failed', message, { status: message });
    }
    return values;
  }
  const was = String(existing.status);
  if (was !== 'completed' && was !== 'void') {
    if (values.status === 'void') {
      const message = 'Only a completed payment can be voided.';
      throw new AppError('not_voidable', message);
    }
    return values;
  }
  const out: Record<string, unknown> = { ...values };
  // a field left out of the values keeps its value (the lease is never looked for again)
  for (const f of RECEIPT_FIELDS) if (out[f] === undefined) out[f] = existing[f];
  const changed = RECEIPT_FIELDS.filter((f) => !same(f, out[f], existing[f]));
  const isVoid =
    was === 'completed' &&
    voiding &&
    changed.length === 1 &&
    changed[0] === 'status' &&
    out.status === 'void';
  if (changed.length > 0 && !isVoid) {
    if (was === 'void') throw new AppError('already_void');
    throw new AppError('receipt_issued', RECEIPT_ISSUED_MESSAGE);
  }
  if (!isVoid) for (const f of VOID_FIELDS) delete out[f];
  return out;
};

export const paymentsServer: ServerEntity = {
  def: payments,
  sql: {
    table: 'payments',
    joins: TENANT_JOIN,
    expressions: {
      ...TENANT_NAMES,
      voided_at: `to_char(t.voided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      voided_by_name: `(SELECT NULLIF(concat_ws(' ', vu.first_name, vu.last_name), '') FROM users vu WHERE vu.id = t.voided_by)`,
    },
  },
  // voided payments are kept; their list is `status=void`
  hiddenStatus: 'void',
  // a completed payment is voided instead ('Deleted'), a voided one stays; pending and failed ones go
  insteadOfDelete: async ({ tx, user, id, existing }) => {
    if (existing.status === 'void') throw new AppError('already_void');
    if (existing.status !== 'completed') return false;
    await voidPayment(tx, paymentsServer, user, id, VOID_REASONS.deleted);
    return true;
  },
  writes: ['payment_serial', 'receipt_number', ...VOID_FIELDS],
  posted: paymentPosted,
  prepare: async ({ tx, user, values, existing }) => {
    const w = wantedOf(receiptRules(values, existing), existing);
    const [found] = await leasesAndNumbers(tx, user.company_id, [w]);
    const out = withLease(w, found);
    if (out instanceof AppError) throw out;
    return out;
  },
  prepareMany: async ({ tx, companyId, values }) => {
    const checked = values.map((v) => {
      try {
        return receiptRules(v);
      } catch (err) {
        if (err instanceof AppError) return err;
        throw err;
      }
    });
    const kept = checked.flatMap((c) => (c instanceof AppError ? [] : [c]));
    const wanted = kept.map((v) => wantedOf(v));
    const found = await leasesAndNumbers(tx, companyId, wanted);
    let n = 0;
    return checked.map((c) => {
      if (c instanceof AppError) return c;
      const i = n++;
      const w = wanted[i];
      if (!w) throw new Error('payments: a prepared payment is missing');
      return withLease(w, found[i]);
    });
  },
  // the same lease lookup, taking no number (no counter is written when none is taken)
  checkMany: async ({ tx, companyId, values }) => {
    const found = await leasesAndNumbers(
      tx,
      companyId,
      values.map((v) => ({ values: v, serial: false, receipt: false })),
    );
    return values.map((v, i) => {
      try {
        receiptRules(v);
      } catch (err) {
        if (err instanceof AppError) return err;
        throw err;
      }
      return found[i] ? undefined : noOccupancy();
    });
  },
};
