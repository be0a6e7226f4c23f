import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { todayIso } from '@kodi/domain';
import type { AppContext } from '../../app.ts';
import { currentUser } from '../../plugins/guard.ts';
import { companyMoney } from '../../lib/company.ts';

export const DASHBOARD_LIST_SIZE = 5;
export const DASHBOARD_PENDING_SIZE = 10;

const num = <T extends Record<string, unknown>>(rows: T[], fields: (keyof T)[]): T[] =>
  rows.map((r) => {
    const out = { ...r };
    for (const f of fields)
      if (out[f] !== null && out[f] !== undefined)
        (out as Record<string, unknown>)[f as string] = Number(out[f]);
    return out;
  });

/**
 * `GET /dashboard`: the four counts, the four short lists and the pending table in one call,
 * each computed in SQL over indexed columns of the session's company.
 */
export const dashboardRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dashboard',
    {
      config: { access: 'anyRole' },
      schema: { tags: ['dashboard'], summary: 'Counts and short lists for Home' },
    },
    async (request) => {
      const c = currentUser(request).company_id;
      const q = ctx.database.query;
      const month = todayIso().slice(0, 7);
      const monthStart = `${month}-01`;
      const [counts, available, repairs, payments, expenses, pending, money] = await Promise.all([
        q<Record<string, number>>(
          `SELECT
             (SELECT count(*)::int FROM units WHERE company_id = $1 AND status = 'available') AS available_units,
             (SELECT count(*)::int FROM maintenance_requests WHERE company_id = $1 AND status = 'open') AS pending_repairs,
             (SELECT count(*)::int FROM payments WHERE company_id = $1 AND status <> 'pending'
                AND payment_date >= $2::date AND payment_date < ($2::date + interval '1 month')) AS payments_this_month,
             (SELECT count(*)::int FROM payments WHERE company_id = $1 AND status = 'pending') AS incomplete_payments`,
          [c, monthStart],
        ),
        q(
          `SELECT id, name, address, monthly_rate::text AS monthly_rate FROM units
            WHERE company_id = $1 AND status = 'available' ORDER BY name, id LIMIT $2`,
          [c, DASHBOARD_LIST_SIZE],
        ),
        q(
          `SELECT m.id, m.description, u.name AS unit_name, to_char(m.request_date, 'YYYY-MM-DD') AS request_date
             FROM maintenance_requests m LEFT JOIN units u ON u.company_id = m.company_id AND u.id = m.unit_id
            WHERE m.company_id = $1 AND m.status = 'open' ORDER BY m.request_date DESC, m.id DESC LIMIT $2`,
          [c, DASHBOARD_LIST_SIZE],
        ),
        q(
          `SELECT p.id, p.amount_paid::text AS amount_paid, tn.first_name AS tenant_first_name,
                  tn.last_name AS tenant_last_name, to_char(p.payment_date, 'YYYY-MM-DD') AS payment_date
             FROM payments p JOIN tenants tn ON tn.company_id = p.company_id AND tn.id = p.tenant_id
            WHERE p.company_id = $1 AND p.status = 'completed' ORDER BY p.payment_date DESC, p.id DESC LIMIT $2`,
          [c, DASHBOARD_LIST_SIZE],
        ),
        q(
          `SELECT e.id, e.amount::text AS amount, e.category, u.name AS unit_name,
                  to_char(e.expense_date, 'YYYY-MM-DD') AS expense_date
             FROM expenses e LEFT JOIN units u ON u.company_id = e.company_id AND u.id = e.unit_id
            WHERE e.company_id = $1 ORDER BY e.expense_date DESC, e.id DESC LIMIT $2`,
          [c, DASHBOARD_LIST_SIZE],
        ),
        q(
          `SELECT p.id, tn.first_name AS tenant_first_name, tn.last_name AS tenant_last_name, u.name AS unit_name,
                  p.amount_paid::text AS amount_paid, to_char(p.payment_date, 'YYYY-MM-DD') AS due_date,
                  p.payment_details
             FROM payments p
             JOIN tenants tn ON tn.company_id = p.company_id AND tn.id = p.tenant_id
             JOIN units u ON u.company_id = p.company_id AND u.id = p.unit_id
            WHERE p.company_id = $1 AND p.status = 'pending' ORDER BY p.payment_date ASC, p.id ASC LIMIT $2`,
          [c, DASHBOARD_PENDING_SIZE],
        ),
        companyMoney(ctx.database, c),
      ]);
      return {
        counts: counts[0] ?? {},
        available_units: num(available, ['monthly_rate']),
        pending_repairs: repairs,
        recent_payments: num(payments, ['amount_paid']),
        recent_expenses: num(expenses, ['amount']),
        pending_payments: num(pending, ['amount_paid']),
        currency_code: money.currency,
        currency_decimal_places: money.decimals ?? null,
      };
    },
  );
};
