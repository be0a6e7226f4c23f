import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  DEFAULT_CURRENCY,
  addDays,
  addMonths,
  dashboardSchema,
  type Dashboard,
  type DashboardMoney,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { isoDaySql } from '../../db/dates.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { propertyQuery } from '../../modules/properties/property.ts';
import { companyToday } from '../../modules/companies/company-settings.ts';

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

/**
 * This month's money (issue 26, 'Money first'): collected (completed payments dated in the month, from
 * the kept monthly totals) against the rent due (what the books credited to Rental income for the
 * month: rent posted for the periods due in it, with their adjustments; read from the accounts' kept
 * month totals, `account_month_totals`, by account, month, property and source), and the units let
 * and vacant. $1 company, $2 month start, $3 next month's start, $4 property or null. Each property's
 * row reads its own index range: the company's properties are few.
 */
const MONEY_SQL = `
  WITH income AS (
    SELECT id FROM ledger_accounts WHERE company_id = $1 AND role = 'rental_income'
  ),
  owners_rent AS (
    SELECT id FROM ledger_accounts WHERE company_id = $1 AND role = 'owner_rent_due'
  ),
  funds AS (
    SELECT id FROM ledger_accounts WHERE company_id = $1 AND role = 'owner_funds'
  ),
  agency AS (
    SELECT t.property_id,
           COALESCE(sum(t.credit - t.debit) FILTER (WHERE t.account_id IN (SELECT id FROM owners_rent)
                                                      AND t.source IN ('rent', 'rent_adjustment')), 0) AS rent_due,
           COALESCE(sum(t.credit - t.debit) FILTER (WHERE t.account_id IN (SELECT id FROM funds)
                                                      AND t.source IN ('payment', 'payment_void')), 0) AS collected
      FROM account_month_totals t
     WHERE t.company_id = $1 AND t.account_id IN (SELECT id FROM owners_rent UNION ALL SELECT id FROM funds)
       AND t.month >= $2::date AND t.month < $3::date AND ($4::int IS NULL OR t.property_id = $4::int)
     GROUP BY t.property_id
  ),
  props AS (
    SELECT p.id, p.name FROM properties p
     WHERE p.company_id = $1 AND ($4::int IS NULL OR p.id = $4::int)
     ORDER BY p.name, p.id LIMIT 200
  ),
  per AS (
    SELECT pr.id AS property_id, pr.name,
      (SELECT COALESCE(sum(m.amount), 0) FROM property_monthly_totals m
        WHERE m.company_id = $1 AND m.property_id = pr.id AND m.source = 'payments'
          AND m.month = $2::date AND m.status = 'completed')::text AS collected,
      ((SELECT COALESCE(sum(t.credit - t.debit), 0) FROM account_month_totals t
        WHERE t.company_id = $1 AND t.property_id = pr.id AND t.account_id IN (SELECT id FROM income)
          AND t.month >= $2::date AND t.month < $3::date)
        + COALESCE((SELECT a.rent_due FROM agency a WHERE a.property_id = pr.id), 0))::text AS rent_due,
      COALESCE((SELECT a.collected FROM agency a WHERE a.property_id = pr.id), 0)::text AS owners_collected,
      (SELECT count(*) FROM units u WHERE u.company_id = $1 AND u.property_id = pr.id AND u.status = 'occupied')::int AS let_units,
      (SELECT count(*) FROM units u WHERE u.company_id = $1 AND u.property_id = pr.id AND u.status = 'available')::int AS vacant_units
    FROM props pr
  )
  SELECT
    CASE WHEN $4::int IS NULL THEN
      (SELECT COALESCE(sum(amount), 0) FROM monthly_totals WHERE company_id = $1 AND source = 'payments'
          AND month = $2::date AND status = 'completed')::text
    ELSE (SELECT COALESCE(sum(collected::numeric), 0)::text FROM per) END AS collected,
    CASE WHEN $4::int IS NULL THEN
      ((SELECT COALESCE(sum(t.credit - t.debit), 0) FROM account_month_totals t
        WHERE t.company_id = $1 AND t.account_id IN (SELECT id FROM income)
          AND t.month >= $2::date AND t.month < $3::date)
        + (SELECT COALESCE(sum(rent_due), 0) FROM agency))::text
    ELSE (SELECT COALESCE(sum(rent_due::numeric), 0)::text FROM per) END AS rent_due,
    (SELECT COALESCE(sum(collected), 0) FROM agency)::text AS owners_collected,
    CASE WHEN $4::int IS NULL THEN
      (SELECT COALESCE(sum(n), 0) FROM status_counts WHERE company_id = $1 AND table_name = 'units' AND status = 'occupied')::int
    ELSE (SELECT COALESCE(sum(let_units), 0)::int FROM per) END AS let_units,
    CASE WHEN $4::int IS NULL THEN
      (SELECT COALESCE(sum(n), 0) FROM status_counts WHERE company_id = $1 AND table_name = 'units' AND status = 'available')::int
    ELSE (SELECT COALESCE(sum(vacant_units), 0)::int FROM per) END AS vacant_units,
    (SELECT json_agg(per ORDER BY per.name, per.property_id) FROM per) AS properties`;

type Figures = {
  collected: string | number;
  rent_due: string | number;
  owners_collected?: string | number;
  let_units: number;
  vacant_units: number;
};

type MoneyRow = Figures & { properties: (Figures & { property_id: number; name: string })[] | string | null };

/** Collected as a whole percentage of the rent due (null when nothing is due). */
const figures = (r: Figures) => {
  const collected = Number(r.collected);
  const rentDue = Number(r.rent_due);
  return {
    collected,
    owners_collected: Number(r.owners_collected ?? 0),
    rent_due: rentDue,
    collected_percent: rentDue > 0 ? Math.round((collected / rentDue) * 100) : null,
    let_units: Number(r.let_units),
    vacant_units: Number(r.vacant_units),
  };
};

/** `money` of `GET /dashboard`: the month of `today` (the company's day). */
export const dashboardMoney = async (
  database: Database,
  companyId: number,
  today: string,
  propertyId?: number,
): Promise<DashboardMoney> => {
  const from = `${today.slice(0, 7)}-01`;
  const next = addMonths(from, 1);
  const r = (await database.prepared<MoneyRow>(MONEY_SQL, [companyId, from, next, propertyId ?? null]))[0];
  return {
    month: from.slice(0, 7),
    from,
    to: addDays(next, -1),
    ...figures(r ?? { collected: 0, rent_due: 0, let_units: 0, vacant_units: 0 }),
    properties: list(r?.properties ?? null).map((p) => ({
      property_id: Number(p.property_id),
      name: p.name,
      ...figures(p),
    })),
  };
};

const percent = () => z.int().nullable().describe('collected ÷ rent due, rounded; null when nothing is due');

/** What came in and what is let, of the company or of one property (issue 26, 'Money first'). */
const moneyFigures = {
  collected: z.number().describe("completed payments dated in the month (the owners' collections included)"),
  owners_collected: z
    .number()
    .optional()
    .describe(
      "of collected, what was collected on properties with owners: their money, not the company's income",
    ),
  rent_due: z
    .number()
    .describe('rent due for the month (the books): credited to Rental income, and to Rent due to owners'),
  collected_percent: percent(),
  let_units: z.int(),
  vacant_units: z.int(),
};

/** `GET /dashboard`'s `money` (the web reads its type, `DashboardMoney` of @kodi/domain). */
const dashboardMoneySchema = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  from: z.iso.date(),
  to: z.iso.date(),
  ...moneyFigures,
  properties: z.array(z.object({ property_id: z.int(), name: z.string(), ...moneyFigures })),
}) satisfies z.ZodType<DashboardMoney>;

const dashboardAnswerSchema = dashboardSchema.extend({ money: dashboardMoneySchema.optional() });

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
          200: json(named(dashboardAnswerSchema, 'Dashboard'), "Home's counts and lists"),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const companyId = currentUser(request).company_id;
      const today = await companyToday(ctx.database, companyId);
      const { property_id } = request.query;
      const [base, money] = await Promise.all([
        dashboard(ctx.database, companyId, `${today.slice(0, 7)}-01`, property_id),
        dashboardMoney(ctx.database, companyId, today, property_id),
      ]);
      return { ...base, money };
    },
  );
};
