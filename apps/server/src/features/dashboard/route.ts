import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, DEFAULT_CURRENCY, dashboardSchema, todayIso, type Dashboard } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { isoDaySql } from '../../db/dates.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { propertyQuery } from '../../modules/properties/property.ts';

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

type JsonRows = Record<string, unknown>[] | string | null;
type DashboardRow = {
  available_units: number;
  pending_repairs: number;
  payments_this_month: number | string;
  incomplete_payments: number | string;
  available: JsonRows;
  repairs: JsonRows;
  payments: JsonRows;
  expenses: JsonRows;
  pending: JsonRows;
  currency: string | null;
  decimals: number | null;
  property_found?: boolean;
};

/**
 * Everything of the dashboard in one statement (one round trip, one snapshot), prepared once per
 * connection. The counts come from `status_counts` and `monthly_totals` (kept by triggers), the short
 * lists from indexes that hold their order; the company's currency comes along. $1 company, $2 month
 * start.
 *
 * Of one property ($3): the same from its rows (`property_id` is kept on each row, db/derived.ts),
 * counted from `(company_id, property_id, ...)` indexes (a property holds a small share of the
 * company's rows), its payments this month from `property_monthly_totals`, and whether the property
 * is the company's at all.
 */
const dashboardSql = (byProperty: boolean) => {
  const of = (alias: string) => (byProperty ? ` AND ${alias}.property_id = $3` : '');
  const count = (table: string, status: string) =>
    byProperty
      ? `(SELECT count(*)::int FROM ${table} x WHERE x.company_id = $1 AND x.property_id = $3 AND x.status = '${status}')`
      : `(SELECT COALESCE(sum(n), 0)::int FROM status_counts
      WHERE company_id = $1 AND table_name = '${table}' AND status = '${status}')`;
  const monthly = byProperty
    ? `property_monthly_totals WHERE company_id = $1 AND property_id = $3 AND`
    : `monthly_totals WHERE company_id = $1 AND`;
  return `
  SELECT
    ${count('units', 'available')} AS available_units,
    ${count('maintenance_requests', 'open')} AS pending_repairs,
    (SELECT COALESCE(sum(n), 0)::int FROM ${monthly} source = 'payments' AND month = $2::date AND status NOT IN ('pending', 'void')) AS payments_this_month,
    ${count('payments', 'pending')} AS incomplete_payments,
    (SELECT json_agg(x) FROM (
       SELECT u.id, u.name, u.address, u.monthly_rate FROM units u
        WHERE u.company_id = $1 AND u.status = 'available'${of('u')} ORDER BY u.name, u.id LIMIT ${DASHBOARD_LIST_SIZE}) x) AS available,
    (SELECT json_agg(x) FROM (
       SELECT m.id, m.description, m.unit_name, to_char(m.request_date, 'YYYY-MM-DD') AS request_date
         FROM maintenance_requests m
        WHERE m.company_id = $1 AND m.status = 'open'${of('m')}
        ORDER BY m.request_date DESC, m.id DESC LIMIT ${DASHBOARD_LIST_SIZE}) x) AS repairs,
    (SELECT json_agg(x) FROM (
       SELECT p.id, p.amount_paid, tn.first_name AS tenant_first_name, tn.last_name AS tenant_last_name,
              ${isoDaySql('p.payment_date')} AS payment_date
         FROM payments p JOIN tenants tn ON tn.company_id = p.company_id AND tn.id = p.tenant_id
        WHERE p.company_id = $1 AND p.status = 'completed'${of('p')}
        ORDER BY p.payment_date DESC, p.id DESC LIMIT ${DASHBOARD_LIST_SIZE}) x) AS payments,
    (SELECT json_agg(x) FROM (
       SELECT e.id, e.amount, e.category, e.unit_name, to_char(e.expense_date, 'YYYY-MM-DD') AS expense_date
         FROM expenses e
        WHERE e.company_id = $1${of('e')} ORDER BY e.expense_date DESC, e.id DESC LIMIT ${DASHBOARD_LIST_SIZE}) x) AS expenses,
    (SELECT json_agg(x) FROM (
       SELECT p.id, tn.first_name AS tenant_first_name, tn.last_name AS tenant_last_name, p.unit_name,
              p.amount_paid, ${isoDaySql('p.payment_date')} AS due_date, p.payment_details
         FROM payments p JOIN tenants tn ON tn.company_id = p.company_id AND tn.id = p.tenant_id
        WHERE p.company_id = $1 AND p.status = 'pending'${of('p')}
        ORDER BY p.payment_date ASC, p.id ASC LIMIT ${DASHBOARD_PENDING_SIZE}) x) AS pending,
    (SELECT trim(c.currency_code) FROM companies c WHERE c.id = $1) AS currency,
    (SELECT cur.decimal_places FROM companies c JOIN currencies cur ON cur.currency_code = c.currency_code
      WHERE c.id = $1) AS decimals${
        byProperty
          ? `,
    EXISTS (SELECT 1 FROM properties WHERE company_id = $1 AND id = $3) AS property_found`
          : ''
      }`;
};

const DASHBOARD_SQL = dashboardSql(false);
const PROPERTY_DASHBOARD_SQL = dashboardSql(true);

const list = <T extends Record<string, unknown>>(v: T[] | string | null): T[] =>
  typeof v === 'string' ? (JSON.parse(v) as T[]) : (v ?? []);

/** The dashboard of a company, or of one of its properties, as `GET /dashboard` answers it. */
export const dashboard = async (
  database: Database,
  companyId: number,
  monthStart: string,
  propertyId?: number,
): Promise<Dashboard> => {
  const r = (
    propertyId === undefined
      ? await database.prepared<DashboardRow>(DASHBOARD_SQL, [companyId, monthStart])
      : await database.prepared<DashboardRow>(PROPERTY_DASHBOARD_SQL, [companyId, monthStart, propertyId])
  )[0];
  if (propertyId !== undefined && !r?.property_found) throw new AppError('not_found', 'Property not found.');
  // the lists' rows are as the statement's json_agg made them: the answer's schema checks them
  return {
    counts: {
      available_units: Number(r?.available_units ?? 0),
      pending_repairs: Number(r?.pending_repairs ?? 0),
      payments_this_month: Number(r?.payments_this_month ?? 0),
      incomplete_payments: Number(r?.incomplete_payments ?? 0),
    },
    available_units: num(list(r?.available ?? null), ['monthly_rate']),
    pending_repairs: list(r?.repairs ?? null),
    recent_payments: num(list(r?.payments ?? null), ['amount_paid']),
    recent_expenses: num(list(r?.expenses ?? null), ['amount']),
    pending_payments: num(list(r?.pending ?? null), ['amount_paid']),
    currency_code: r?.currency || DEFAULT_CURRENCY,
    currency_decimal_places: r?.decimals === null || r?.decimals === undefined ? null : Number(r.decimals),
  } as Dashboard;
};

/**
 * `GET /dashboard`: the four counts, the four short lists and the pending table in one call,
 * each computed in SQL over indexed columns of the session's company.
 */
export const dashboardRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dashboard',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getDashboard',
        tags: ['dashboard'],
        summary: 'Counts and short lists for Home (of one property with property_id)',
        querystring: propertyQuery,
        response: {
          200: json(named(dashboardSchema, 'Dashboard'), "Home's counts and lists"),
          ...errors(404),
        },
      },
    },
    async (request) =>
      dashboard(
        ctx.database,
        currentUser(request).company_id,
        `${todayIso().slice(0, 7)}-01`,
        request.query.property_id,
      ),
  );
};
