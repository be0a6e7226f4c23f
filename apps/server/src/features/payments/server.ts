import { sql } from 'drizzle-orm';
import { AppError, formatSerial, NO_OCCUPANCY_MESSAGE, payments } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/service.ts';
import { TENANT_UNIT_EXPRESSIONS, TENANT_UNIT_JOINS, TENANT_UNIT_SEARCH } from '../occupancy/server.ts';

/**
 * The next number of a per-company sequence. The counter row stays locked until the transaction ends,
 * so concurrent saves queue, and a rolled-back save gives its number back: no gap, no reuse.
 */
export const nextNumber = async (tx: DbOrTx, companyId: number, name: string): Promise<number> => {
  const rows = await execRows<{ value: string | number }>(
    tx,
    sql`INSERT INTO counters (company_id, name, value) VALUES (${companyId}, ${name}, 1)
        ON CONFLICT (company_id, name) DO UPDATE SET value = counters.value + 1, updated_at = now()
        RETURNING value`,
  );
  return Number(rows[0]?.value);
};

/**
 * The next numbers of several sequences in one statement (locked in the order given, always the
 * same): fewer round trips while the counter rows are held, which is what limits payments per second.
 */
export const nextNumbers = async (
  tx: DbOrTx,
  companyId: number,
  names: readonly string[],
): Promise<Record<string, number>> => {
  const rows = await execRows<{ name: string; value: string | number }>(
    tx,
    sql`INSERT INTO counters (company_id, name, value)
        VALUES ${sql.join(
          names.map((n) => sql`(${companyId}, ${n}, 1)`),
          sql`, `,
        )}
        ON CONFLICT (company_id, name) DO UPDATE SET value = counters.value + 1, updated_at = now()
        RETURNING name, value`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.value)]));
};

const noOccupancy = () =>
  new AppError('validation_failed', NO_OCCUPANCY_MESSAGE, { occupancy_id: NO_OCCUPANCY_MESSAGE });

/** The lease a payment belongs to: the one sent (checked), else the one whose dates hold the payment date, else the latest. */
const findOccupancy = async (tx: DbOrTx, companyId: number, v: Record<string, unknown>): Promise<number> => {
  const byId = v.occupancy_id ? sql`AND id = ${Number(v.occupancy_id)}` : sql``;
  const rows = await execRows<{ id: number }>(
    tx,
    sql`SELECT id FROM occupancy
         WHERE company_id = ${companyId} AND tenant_id = ${Number(v.tenant_id)} AND unit_id = ${Number(v.unit_id)} ${byId}
         ORDER BY (${String(v.payment_date)}::date BETWEEN start_date AND COALESCE(end_date, 'infinity'::date)) DESC,
                  start_date DESC, id DESC
         LIMIT 1`,
  );
  if (!rows[0]) throw noOccupancy();
  return Number(rows[0].id);
};

export const paymentsServer: ServerEntity = {
  def: payments,
  sql: {
    table: 'payments',
    joins: TENANT_UNIT_JOINS,
    expressions: TENANT_UNIT_EXPRESSIONS,
    searchVia: TENANT_UNIT_SEARCH,
  },
  prepare: async ({ tx, user, values, existing }) => {
    const out: Record<string, unknown> = { ...values };
    out.occupancy_id = await findOccupancy(tx, user.company_id, values);
    for (const f of ['reference_number', 'invoice_id']) {
      if (out[f] === undefined || out[f] === null || out[f] === '') out[f] = 'N/A';
    }
    const names = [
      ...(existing ? [] : ['payment_serial']),
      ...(out.status === 'completed' && !existing?.receipt_number ? ['receipt_number'] : []),
    ];
    if (names.length > 0) {
      const next = await nextNumbers(tx, user.company_id, names);
      if (next.payment_serial) out.payment_serial = formatSerial('PAY', next.payment_serial);
      if (next.receipt_number) out.receipt_number = formatSerial('RCT', next.receipt_number);
    }
    return out;
  },
};
