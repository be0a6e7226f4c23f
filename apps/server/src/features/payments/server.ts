import { sql } from 'drizzle-orm';
import { AppError, formatSerial, NO_OCCUPANCY_MESSAGE, payments } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/service.ts';
import { TENANT_UNIT_EXPRESSIONS, TENANT_UNIT_JOINS, TENANT_UNIT_SEARCH } from '../occupancy/server.ts';

const noOccupancy = () =>
  new AppError('validation_failed', NO_OCCUPANCY_MESSAGE, { occupancy_id: NO_OCCUPANCY_MESSAGE });

/**
 * In one statement (one round trip while the company's rows are held): the lease a payment belongs
 * to (the one sent, checked; else the one whose dates hold the payment date; else the latest) and,
 * only when there is one, the next numbers of the sequences named (locked in the order given).
 */
const leaseAndNumbers = async (
  tx: DbOrTx,
  companyId: number,
  v: Record<string, unknown>,
  names: readonly string[],
): Promise<{ occupancyId: number; numbers: Record<string, number> }> => {
  const byId = v.occupancy_id ? sql`AND id = ${Number(v.occupancy_id)}` : sql``;
  const numbers =
    names.length > 0
      ? sql`, numbers AS (
          INSERT INTO counters (company_id, name, value)
          SELECT ${companyId}, n, 1 FROM unnest(${`{${names.join(',')}}`}::text[]) WITH ORDINALITY AS x(n, i)
           WHERE EXISTS (SELECT 1 FROM lease) ORDER BY i
          ON CONFLICT (company_id, name) DO UPDATE SET value = counters.value + 1, updated_at = now()
          RETURNING name, value)`
      : sql``;
  const rows = await execRows<{
    id: number | null;
    numbers: Record<string, number | string> | string | null;
  }>(
    tx,
    sql`WITH lease AS (
          SELECT id FROM occupancy
           WHERE company_id = ${companyId} AND tenant_id = ${Number(v.tenant_id)} AND unit_id = ${Number(v.unit_id)} ${byId}
           ORDER BY (${String(v.payment_date)}::date BETWEEN start_date AND COALESCE(end_date, 'infinity'::date)) DESC,
                    start_date DESC, id DESC
           LIMIT 1
        )${numbers}
        SELECT (SELECT id FROM lease) AS id,
               ${names.length > 0 ? sql`(SELECT json_object_agg(name, value) FROM numbers)` : sql`NULL::json`} AS numbers`,
  );
  const row = rows[0];
  if (!row || row.id === null) throw noOccupancy();
  const raw =
    typeof row.numbers === 'string' ? (JSON.parse(row.numbers) as Record<string, number>) : row.numbers;
  return {
    occupancyId: Number(row.id),
    numbers: Object.fromEntries(Object.entries(raw ?? {}).map(([k, n]) => [k, Number(n)])),
  };
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
    for (const f of ['reference_number', 'invoice_id']) {
      if (out[f] === undefined || out[f] === null || out[f] === '') out[f] = 'N/A';
    }
    const names = [
      ...(existing ? [] : ['payment_serial']),
      ...(out.status === 'completed' && !existing?.receipt_number ? ['receipt_number'] : []),
    ];
    const { occupancyId, numbers } = await leaseAndNumbers(tx, user.company_id, values, names);
    out.occupancy_id = occupancyId;
    if (numbers.payment_serial) out.payment_serial = formatSerial('PAY', numbers.payment_serial);
    if (numbers.receipt_number) out.receipt_number = formatSerial('RCT', numbers.receipt_number);
    return out;
  },
};
