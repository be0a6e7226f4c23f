import { sql } from 'drizzle-orm';
import { AppError, formatSerial, NO_OCCUPANCY_MESSAGE, payments } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { TENANT_JOIN, TENANT_NAMES } from '../../crud/sql.ts';
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

export const paymentsServer: ServerEntity = {
  def: payments,
  sql: {
    table: 'payments',
    joins: TENANT_JOIN,
    expressions: TENANT_NAMES,
  },
  writes: ['payment_serial', 'receipt_number'],
  posted: paymentPosted,
  prepare: async ({ tx, user, values, existing }) => {
    const w = wantedOf(values, existing);
    const [found] = await leasesAndNumbers(tx, user.company_id, [w]);
    const out = withLease(w, found);
    if (out instanceof AppError) throw out;
    return out;
  },
  prepareMany: async ({ tx, companyId, values }) => {
    const wanted = values.map((v) => wantedOf(v));
    const found = await leasesAndNumbers(tx, companyId, wanted);
    return wanted.map((w, i) => withLease(w, found[i]));
  },
  // the same lease lookup, taking no number (no counter is written when none is taken)
  checkMany: async ({ tx, companyId, values }) => {
    const found = await leasesAndNumbers(
      tx,
      companyId,
      values.map((v) => ({ values: v, serial: false, receipt: false })),
    );
    return values.map((_, i) => (found[i] ? undefined : noOccupancy()));
  },
};
