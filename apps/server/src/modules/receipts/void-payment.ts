import { sql } from 'drizzle-orm';
import { AppError, canEdit, isCompanyAdmin, type SessionUser } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { records } from '../../crud/records.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';

/** Why a payment was voided when it was deleted, or when its statement was. */
export const VOID_REASONS = { deleted: 'Deleted', statementDeleted: 'Statement deleted' } as const;

export const VOID_FORBIDDEN_MESSAGE = 'You may void only a payment you recorded today.';

type Found = { status: string; recorded_by: number | null; recorded_today: boolean };

/**
 * The payment locked, with who recorded it (its audit log's create entry: every creation writes one,
 * by its user, or none for the webhook and a statement's automatic matches) and whether it was
 * recorded on the company's day today (in its time zone).
 */
const lockPayment = async (tx: DbOrTx, user: SessionUser, id: number): Promise<Found | undefined> => {
  const rows = await execRows<Found>(
    tx,
    sql`SELECT p.status,
               (SELECT a.user_id FROM audit_entries a
                 WHERE a.company_id = p.company_id AND a.entity = 'payments' AND a.record_id = p.id
                   AND a.action = 'create'
                 ORDER BY a.id LIMIT 1) AS recorded_by,
               (p.created_at AT TIME ZONE z.tz)::date = (now() AT TIME ZONE z.tz)::date AS recorded_today
          FROM payments p
          CROSS JOIN LATERAL (SELECT COALESCE((SELECT s.timezone FROM company_settings s
                                                WHERE s.company_id = p.company_id), 'Africa/Kampala') AS tz) z
         WHERE p.company_id = ${user.company_id} AND p.id = ${id}
         FOR UPDATE OF p`,
  );
  const [row] = rows;
  return row
    ? {
        status: String(row.status),
        recorded_by: row.recorded_by === null ? null : Number(row.recorded_by),
        recorded_today: row.recorded_today === true || String(row.recorded_today) === 't',
      }
    : undefined;
};

/**
 * Voids a completed payment (issue 25): it keeps its record, serial, receipt number and receipt code,
 * and becomes status `void` with when, by whom and why. Written through records.change (the payments'
 * rules, the audit entry and whatever the records' writer does when a payment leaves `completed`: the
 * journal's reversal), in the caller's transaction. Who may: a company admin (or admin); an editor only
 * a payment they recorded themselves today (`checkRole: false`: the caller checked its own rule, as a
 * statement's deletion does). 404 for another company's payment; 409 when it is not completed.
 */
export const voidPayment = async (
  tx: DbOrTx,
  payments: ServerEntity,
  user: SessionUser,
  id: number,
  reason: string,
  options: { checkRole?: boolean } = {},
): Promise<Record<string, unknown>> => {
  const found = await lockPayment(tx, user, id);
  if (!found) throw new AppError('not_found', `${payments.def.singular} not found.`);
  if (options.checkRole !== false && !isCompanyAdmin(user)) {
    const own = canEdit(user) && found.recorded_by === user.id && found.recorded_today;
    if (!own) throw new AppError('forbidden', VOID_FORBIDDEN_MESSAGE);
  }
  if (found.status === 'void') throw new AppError('already_void');
  if (found.status !== 'completed') throw new AppError('not_voidable');
  return records.change(tx, payments, user, id, {
    status: 'void',
    voided_at: new Date().toISOString(),
    voided_by: user.id,
    void_reason: reason.trim().slice(0, 500),
  });
};
