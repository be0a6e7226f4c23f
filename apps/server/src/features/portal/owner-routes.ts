import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  addMonths,
  isValidIsoDate,
  ownerPortalPayoutSchema,
  ownerStatementSchema,
  ownerPortalArrearsSchema,
  ownerPortalMeSchema,
  ownerPortalMessages,
  ownerPortalPropertyAnswerSchema,
  type OwnerPortalArrear,
  type OwnerPortalProperty,
  type SessionUser,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams, sendDownload } from '../../crud/record-route.ts';
import { errors, file, json, named, PDF } from '../../plugins/openapi.ts';
import { companyMoney, ownerLanguage } from '../../modules/companies/company.ts';
import { companyLogo, companyToday } from '../../modules/companies/company-settings.ts';
import { listPayouts, ownerStatement } from '../../modules/owner-money/owner-money.ts';
import { ownerStatementPdf } from '../../modules/owner-money/statement-pdf.ts';

const day = z
  .string()
  .refine(isValidIsoDate, 'Use a date as YYYY-MM-DD.')
  .refine((d) => d >= '1900-01-01' && d <= '2199-12-31', 'The date must be from 1900 to 2199.');
const statementQuery = z.object({ from: day.optional(), to: day.optional() });
const payoutsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});
const Statement = named(ownerStatementSchema, 'OwnerStatement');

/** The signed-in owner: its company and its owner record, from the session only. */
const ownerOf = (user: SessionUser) => {
  if (!user.owner_id) throw new AppError('forbidden');
  return { companyId: user.company_id, ownerId: user.owner_id };
};

/**
 * The properties the owner holds a share of on `$2` (the latest set of each property from that day or
 * before, as `GET /properties/{id}/owners` reads it), with this month's money and today's arrears:
 * - rent due: the rent the books posted for the periods due in the month (`lease_rent_posted`, so it
 *   reads the same whichever accounts an owned property's rent is posted to);
 * - collected: completed payments dated in the month (the kept per-property monthly totals);
 * - arrears: what fell due before today and is unpaid (the kept ageing: `lease_balances`,
 *   `lease_debit_days`).
 * $1 company, $2 today, $3 owner, $4 month start, $5 next month's start, $6 one property or null.
 */
const OWNED_SQL = `
  WITH sets AS (
    SELECT DISTINCT ON (s.property_id) s.id, s.property_id FROM property_owner_sets s
     WHERE s.company_id = $1 AND s.effective_from <= $2::date
     ORDER BY s.property_id, s.effective_from DESC, s.id DESC
  ),
  mine AS (
    SELECT st.property_id, sh.share_percent FROM sets st
      JOIN property_owner_shares sh ON sh.company_id = $1 AND sh.set_id = st.id
     WHERE sh.owner_id = $3 AND sh.share_percent > 0 AND ($6::int IS NULL OR st.property_id = $6::int)
  )
  SELECT p.id, p.name, mine.share_percent::text AS share_percent,
    (SELECT count(*) FROM units u WHERE u.company_id = $1 AND u.property_id = p.id)::int AS units,
    (SELECT count(*) FROM units u WHERE u.company_id = $1 AND u.property_id = p.id AND u.status = 'occupied')::int AS occupied_units,
    (SELECT count(*) FROM units u WHERE u.company_id = $1 AND u.property_id = p.id AND u.status = 'available')::int AS vacant_units,
    (SELECT COALESCE(sum(r.amount), 0) FROM lease_rent_posted r
       JOIN occupancy o ON o.company_id = r.company_id AND o.id = r.occupancy_id
      WHERE r.company_id = $1 AND o.property_id = p.id
        AND r.due_date >= $4::date AND r.due_date < $5::date)::text AS rent_due,
    (SELECT COALESCE(sum(m.amount), 0) FROM property_monthly_totals m
      WHERE m.company_id = $1 AND m.property_id = p.id AND m.source = 'payments'
        AND m.month = $4::date AND m.status = 'completed')::text AS collected,
    (SELECT COALESCE(sum(d.open), 0) FROM lease_balances b
       JOIN occupancy o ON o.company_id = b.company_id AND o.id = b.occupancy_id
       JOIN lease_debit_days d ON d.company_id = b.company_id AND d.occupancy_id = b.occupancy_id
      WHERE b.company_id = $1 AND o.property_id = p.id AND b.oldest_due < $2::date
        AND d.day >= b.oldest_due AND d.day < $2::date AND d.open > 0)::text AS arrears
    FROM mine JOIN properties p ON p.company_id = $1 AND p.id = mine.property_id
   ORDER BY p.name, p.id`;

/**
 * The tenants in arrears on the properties given: the tenant's and the unit's names and what fell due
 * before today unpaid. Nothing else of the tenant is read (never its phone or e-mail). $1 company,
 * $2 today, $3 the property ids.
 */
const ARREARS_SQL = `
  SELECT o.property_id, p.name AS property_name, o.unit_name, o.tenant_name, a.amount::text AS amount
    FROM lease_balances b
    JOIN occupancy o ON o.company_id = b.company_id AND o.id = b.occupancy_id
    JOIN properties p ON p.company_id = o.company_id AND p.id = o.property_id
    CROSS JOIN LATERAL (
      SELECT COALESCE(sum(d.open), 0) AS amount FROM lease_debit_days d
       WHERE d.company_id = b.company_id AND d.occupancy_id = b.occupancy_id
         AND d.day >= b.oldest_due AND d.day < $2::date AND d.open > 0) a
   WHERE b.company_id = $1 AND b.oldest_due IS NOT NULL AND b.oldest_due < $2::date
     AND o.property_id = ANY($3::int[]) AND a.amount > 0
   ORDER BY a.amount DESC, o.tenant_name, o.id
   LIMIT 500`;

type OwnedRow = Omit<
  OwnerPortalProperty,
  'share_percent' | 'rent_due' | 'collected' | 'arrears' | 'collected_percent'
> & {
  share_percent: string;
  rent_due: string;
  collected: string;
  arrears: string;
};

const presentProperty = (r: OwnedRow): OwnerPortalProperty => {
  const rentDue = Number(r.rent_due);
  const collected = Number(r.collected);
  return {
    id: Number(r.id),
    name: r.name,
    share_percent: Number(r.share_percent),
    units: Number(r.units),
    occupied_units: Number(r.occupied_units),
    vacant_units: Number(r.vacant_units),
    rent_due: rentDue,
    collected,
    collected_percent: rentDue > 0 ? Math.round((collected / rentDue) * 100) : null,
    arrears: Number(r.arrears),
  };
};

/** The month of the company's day: its first day and the next month's. */
const monthOf = (today: string) => {
  const from = `${today.slice(0, 7)}-01`;
  return { month: from.slice(0, 7), from, next: addMonths(from, 1) };
};

const ownedProperties = async (
  database: Database,
  companyId: number,
  ownerId: number,
  today: string,
  propertyId: number | null = null,
): Promise<OwnerPortalProperty[]> => {
  const { from, next } = monthOf(today);
  const rows = await database.query<OwnedRow>(OWNED_SQL, [companyId, today, ownerId, from, next, propertyId]);
  return rows.map(presentProperty);
};

const arrearsOn = async (
  database: Database,
  companyId: number,
  today: string,
  propertyIds: number[],
): Promise<OwnerPortalArrear[]> => {
  if (propertyIds.length === 0) return [];
  const rows = await database.query<Record<string, unknown>>(ARREARS_SQL, [companyId, today, propertyIds]);
  return rows.map((r) => ({
    property_id: Number(r.property_id),
    property_name: String(r.property_name),
    unit_name: (r.unit_name as string | null) ?? null,
    tenant_name: String(r.tenant_name ?? ''),
    amount: Number(r.amount),
  }));
};

const sum = (rows: OwnerPortalProperty[], key: 'rent_due' | 'collected' | 'arrears') =>
  Math.round(rows.reduce((s, r) => s + r[key] * 100, 0)) / 100;

/**
 * What an owner sees in the owner portal (issue 27), each route scoped from the session to the owner's
 * record and the properties it holds a share of today: another owner's property (in the same company
 * or not) is a 404. Tenants appear by name and amount only.
 *
 * Its statements and payouts are the agency's books' (modules/owner-money), read for the session's
 * owner only: `GET /owner-portal/statement` (and `.pdf`), the staff statement's shape and figures;
 * `GET /owner-portal/payouts`, its payouts newest first, without staff's notes.
 */
export const ownerPortalRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const access = { access: 'owner' as const };

  r.get(
    '/owner-portal/me',
    {
      config: access,
      schema: {
        operationId: 'getOwnerPortalMe',
        tags: ['owner-portal'],
        summary:
          'The owner, its company and its properties: units let and vacant, its share, this month’s rent due and collected, arrears',
        response: { 200: json(named(ownerPortalMeSchema, 'OwnerPortalMe'), 'The owner and its properties') },
      },
    },
    async (request) => {
      const { companyId, ownerId } = ownerOf(currentUser(request));
      const owner = await database.query<{ id: number; name: string }>(
        'SELECT id, display_name AS name FROM owners WHERE company_id = $1 AND id = $2',
        [companyId, ownerId],
      );
      if (!owner[0]) throw new AppError('not_found');
      const today = await companyToday(database, companyId);
      const company = await companyMoney(database, companyId);
      const properties = await ownedProperties(database, companyId, ownerId, today);
      return {
        owner: { id: Number(owner[0].id), name: owner[0].name },
        company: { name: company.name, currency: company.currency, decimals: company.decimals ?? null },
        as_of: today,
        month: monthOf(today).month,
        properties,
        totals: {
          rent_due: sum(properties, 'rent_due'),
          collected: sum(properties, 'collected'),
          arrears: sum(properties, 'arrears'),
        },
      };
    },
  );

  r.get(
    '/owner-portal/arrears',
    {
      config: access,
      schema: {
        operationId: 'listOwnerPortalArrears',
        tags: ['owner-portal'],
        summary: 'The tenants in arrears on the owner’s properties: names and amounts only, largest first',
        response: {
          200: json(named(ownerPortalArrearsSchema, 'OwnerPortalArrears'), 'The tenants in arrears'),
        },
      },
    },
    async (request) => {
      const { companyId, ownerId } = ownerOf(currentUser(request));
      const today = await companyToday(database, companyId);
      const properties = await ownedProperties(database, companyId, ownerId, today);
      return {
        as_of: today,
        rows: await arrearsOn(
          database,
          companyId,
          today,
          properties.map((p) => p.id),
        ),
      };
    },
  );

  r.get(
    '/owner-portal/properties/:id',
    {
      config: access,
      schema: {
        operationId: 'getOwnerPortalProperty',
        tags: ['owner-portal'],
        summary: 'One of the owner’s properties with its tenants in arrears (another’s property: 404)',
        params: recordIdParams,
        response: {
          200: json(named(ownerPortalPropertyAnswerSchema, 'OwnerPortalProperty'), 'The property'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const { companyId, ownerId } = ownerOf(currentUser(request));
      const today = await companyToday(database, companyId);
      const [property] = await ownedProperties(database, companyId, ownerId, today, request.params.id);
      if (!property) throw new AppError('not_found', ownerPortalMessages.propertyNotFound);
      return {
        as_of: today,
        month: monthOf(today).month,
        property,
        arrears: await arrearsOn(database, companyId, today, [property.id]),
      };
    },
  );

  /** A statement's period, as the staff's: `to` today by default, `from` the first of its month. */
  const period = async (companyId: number, q: { from?: string | undefined; to?: string | undefined }) => {
    const to = q.to ?? (await companyToday(database, companyId));
    const from = q.from ?? `${to.slice(0, 7)}-01`;
    if (from > to)
      throw new AppError('validation_failed', 'The start must be on or before the end.', {
        from: 'On or before the end.',
      });
    return { from, to };
  };

  r.get(
    '/owner-portal/statement',
    {
      config: access,
      schema: {
        operationId: 'getOwnerPortalStatement',
        tags: ['owner-portal'],
        summary:
          "The owner's statement from `from` (default: the first of `to`'s month) through `to` (default: today), per property",
        querystring: statementQuery,
        response: { 200: json(Statement, 'The statement'), ...errors(400) },
      },
    },
    async (request) => {
      const { companyId, ownerId } = ownerOf(currentUser(request));
      const { from, to } = await period(companyId, request.query);
      return ownerStatement(database.db, companyId, ownerId, from, to);
    },
  );

  r.get(
    '/owner-portal/statement.pdf',
    {
      config: access,
      schema: {
        operationId: 'getOwnerPortalStatementPdf',
        tags: ['owner-portal'],
        summary: "The owner's statement (as `/owner-portal/statement`) as a PDF",
        querystring: statementQuery,
        response: { 200: file('The statement (named in Content-Disposition)', PDF), ...errors(400) },
      },
    },
    async (request, reply) => {
      const { companyId, ownerId } = ownerOf(currentUser(request));
      const { from, to } = await period(companyId, request.query);
      const statement = await ownerStatement(database.db, companyId, ownerId, from, to);
      const company = await companyMoney(database, companyId);
      const logo = await companyLogo(database, companyId);
      return sendDownload(
        reply.header('Cache-Control', 'no-store'),
        'application/pdf',
        `owner_statement_${from}_${to}.pdf`,
        ownerStatementPdf(statement, company, logo, await ownerLanguage(database, companyId, ownerId)),
      );
    },
  );

  r.get(
    '/owner-portal/payouts',
    {
      config: access,
      schema: {
        operationId: 'listOwnerPortalPayouts',
        tags: ['owner-portal'],
        summary: "The owner's payouts, newest first (X-Total-Count: how many in all)",
        querystring: payoutsQuery,
        response: {
          200: json(z.array(named(ownerPortalPayoutSchema, 'OwnerPortalPayout')), 'A page of payouts'),
        },
      },
    },
    async (request, reply) => {
      const { companyId, ownerId } = ownerOf(currentUser(request));
      const page = await listPayouts(database.db, companyId, { owner_id: ownerId, ...request.query });
      void reply.header('X-Total-Count', String(page.total));
      return page.rows.map(({ id, date, amount, method, reference }) => ({
        id,
        date,
        amount,
        method,
        reference,
      }));
    },
  );
};
