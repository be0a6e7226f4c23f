import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  arrearsColumns,
  arrearsRowSchema,
  arrearsSummarySchema,
  centsToNumber,
  isValidIsoDate,
  ledgerAnswer,
  ledgerAnswerSchema,
  type ArrearsSummary,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams, sendDownload } from '../../crud/record-route.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { companyLogo, companyToday } from '../../modules/companies/company-settings.ts';
import { pdfWriter, xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';
import { forEachBatch, sendTabular } from '../../crud/export.ts';
import { listQuerySchema } from '../../crud/routes.ts';
import { ensureProperty, propertyIdQuery } from '../../modules/properties/property.ts';
import {
  arrearsQuery,
  arrearsSummaryQuery,
  keptArrearsQuery,
  keptArrearsSummaryQuery,
  presentArrearsRow,
  type ArrearsQuery,
} from './arrears-sql.ts';
import { leaseLedger } from '../../modules/leases/ledger-data.ts';
import { statementPdf } from '../../modules/leases/statement-pdf.ts';
import { errors, file, json, named, PDF, XLSX } from '../../plugins/openapi.ts';

/**
 * `as_of=YYYY-MM-DD`: the day the ledger or the arrears are computed for (default: today in the
 * company's time zone, company settings).
 */
const asOfSchema = z
  .string()
  .refine(isValidIsoDate, 'Use a date as YYYY-MM-DD.')
  // a ledger has a line per period: a bounded day keeps a daily lease's ledger bounded too
  .refine((d) => d >= '1900-01-01' && d <= '2199-12-31', 'The date must be from 1900 to 2199.')
  .optional();

const idParams = recordIdParams;
const asOfQuery = z.object({ as_of: asOfSchema });

const arrearsListQuery = listQuerySchema
  .omit({ filter: true })
  .extend({ as_of: asOfSchema, property_id: propertyIdQuery });

const arrearsSummaryParams = asOfQuery.extend({ property_id: propertyIdQuery });

const arrearsExportQuery = z.object({
  fmt: z.enum(['xlsx', 'pdf'], { error: "fmt must be 'xlsx' or 'pdf'." }),
  headers: z.string().max(4000).optional(),
  q: z.string().max(200).optional(),
  sort: z.string().max(60).optional(),
  as_of: asOfSchema,
  property_id: propertyIdQuery,
});

const invalidHeaders = (message: string) =>
  new AppError('validation_failed', 'headers must be a JSON list of column names.', { headers: message });

/** The visible column labels of the Arrears page mapped to its columns (all when none are given). */
export const arrearsExportColumns = (headers: string | undefined): TabularColumn[] => {
  const all = arrearsColumns.map((c) => ({ key: c.field, label: c.label, kind: c.kind ?? 'text' }));
  if (!headers) return all;
  let labels: unknown;
  try {
    labels = JSON.parse(headers);
  } catch {
    throw invalidHeaders('Invalid JSON.');
  }
  if (!Array.isArray(labels) || labels.length > 60 || !labels.every((l) => typeof l === 'string')) {
    throw invalidHeaders('Invalid list.');
  }
  const visible = (labels as string[]).filter((l) => l !== 'Actions');
  if (visible.length === 0) throw invalidHeaders('Invalid list.');
  return visible.map((label) => {
    const col = all.find((c) => c.label === label);
    if (!col)
      throw new AppError('validation_failed', `Unknown column: ${label}.`, {
        headers: `Unknown column: ${label}.`,
      });
    return col;
  });
};

/**
 * The arrears of a day: today's (the default) read from what the books keep per lease, an index
 * read at any size; another day's computed for that day (`arrearsQuery`), since what is kept is
 * the ageing of what is posted now (docs/decisions.md, "Kept ageing").
 */
const arrearsOf = async (
  database: AppContext['database'],
  q: ArrearsQuery & { asOfGiven: string | undefined },
) => {
  const { asOfGiven, ...query } = q;
  const today = await companyToday(database, q.companyId);
  return asOfGiven === undefined || asOfGiven === today
    ? keptArrearsQuery({ ...query, asOf: today })
    : arrearsQuery(query);
};

/**
 * The ledger of a lease (`GET /occupancy/{id}/ledger`, any role), its statement PDF, and the arrears
 * report (`GET /arrears`, its export and summary; admins and editors). All scoped to the company.
 */
export const ledgerRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  r.get(
    '/occupancy/:id/ledger',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getLeaseLedger',
        tags: ['occupancy'],
        summary:
          'Rent, late fees, charges, waivers, payments, deposit and its settlement of a lease with the running balance (as_of: default today in the company’s time zone)',
        params: idParams,
        querystring: asOfQuery,
        response: {
          200: json(named(ledgerAnswerSchema, 'Ledger'), 'The entries, oldest first, and the balance'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const asOf = request.query.as_of ?? (await companyToday(database, user.company_id));
      const { ledger } = await leaseLedger(database, user.company_id, request.params.id, asOf);
      return ledgerAnswer(request.params.id, asOf, ledger);
    },
  );

  r.get(
    '/occupancy/:id/statement.pdf',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getLeaseStatement',
        tags: ['occupancy'],
        summary: 'The tenant statement of a lease, as a PDF',
        params: idParams,
        querystring: asOfQuery,
        response: { 200: file('The statement (named in Content-Disposition)', PDF), ...errors(404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const asOf = request.query.as_of ?? (await companyToday(database, user.company_id));
      const { lease, ledger } = await leaseLedger(database, user.company_id, request.params.id, asOf);
      const company = await companyMoney(database, user.company_id);
      const logo = await companyLogo(database, user.company_id);
      const filename = `statement_${lease.id}.pdf`;
      return sendDownload(
        reply.header('Cache-Control', 'no-store'),
        'application/pdf',
        filename,
        statementPdf(lease, ledger, asOf, company, logo),
      );
    },
  );

  r.get(
    '/arrears',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'listArrears',
        tags: ['arrears'],
        summary:
          'Leases with an overdue balance, aged in buckets (X-Total-Count has the total; of one property with property_id)',
        querystring: arrearsListQuery,
        response: {
          200: json(
            z.array(named(arrearsRowSchema, 'ArrearsRow')),
            'A page of leases, largest balance first',
          ),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { page, page_size, q, sort, property_id } = request.query;
      const as_of = request.query.as_of ?? (await companyToday(database, user.company_id));
      const rows = await execRows<Record<string, unknown>>(
        database.db,
        await arrearsOf(database, {
          companyId: user.company_id,
          asOf: as_of,
          asOfGiven: request.query.as_of,
          propertyId: property_id,
          q,
          sort,
          page: { limit: page_size, offset: (page - 1) * page_size },
        }),
      );
      if (property_id !== undefined && !rows.some((row) => row.occupancy_id !== null))
        await ensureProperty(database.db, user.company_id, property_id);
      void reply.header('X-Total-Count', String(Number(rows[0]?.total ?? 0)));
      return rows.filter((row) => row.occupancy_id !== null).map(presentArrearsRow);
    },
  );

  r.get(
    '/arrears/summary',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'getArrearsSummary',
        tags: ['arrears'],
        summary: 'The total overdue and the number of leases in arrears (the dashboard card)',
        querystring: arrearsSummaryParams,
        response: { 200: json(named(arrearsSummarySchema, 'ArrearsSummary'), 'The total and the count') },
      },
    },
    async (request): Promise<ArrearsSummary> => {
      const user = currentUser(request);
      const { property_id } = request.query;
      const today = await companyToday(database, user.company_id);
      const as_of = request.query.as_of ?? today;
      const rows = await execRows<{ leases: number; total_cents: string }>(
        database.db,
        as_of === today
          ? keptArrearsSummaryQuery(user.company_id, as_of, property_id)
          : arrearsSummaryQuery(user.company_id, as_of, property_id),
      );
      if (property_id !== undefined && Number(rows[0]?.leases ?? 0) === 0)
        await ensureProperty(database.db, user.company_id, property_id);
      return {
        total: centsToNumber(BigInt(rows[0]?.total_cents ?? '0')),
        leases: Number(rows[0]?.leases ?? 0),
      };
    },
  );

  r.get(
    '/arrears/export',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'exportArrears',
        tags: ['arrears'],
        summary: 'The arrears report (same q, sort and property_id) as xlsx or pdf, in the columns asked for',
        querystring: arrearsExportQuery,
        response: { 200: file('The report (named in Content-Disposition)', XLSX, PDF) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { fmt, headers, q, sort, property_id } = request.query;
      const as_of = request.query.as_of ?? (await companyToday(database, user.company_id));
      const columns = arrearsExportColumns(headers);
      if (property_id !== undefined) await ensureProperty(database.db, user.company_id, property_id);
      const query = await arrearsOf(database, {
        companyId: user.company_id,
        asOf: as_of,
        asOfGiven: request.query.as_of,
        propertyId: property_id,
        q,
        sort,
      });
      const money = await companyMoney(database, user.company_id);
      const title = `Arrears on ${as_of}`;
      const writer = fmt === 'xlsx' ? xlsxWriter(title, columns, money) : pdfWriter(title, columns, money);
      return sendTabular(reply, request, `arrears.${fmt}`, writer, (w) =>
        forEachBatch(database.db, query, (rows) =>
          w.write(rows.filter((row) => row.occupancy_id !== null).map(presentArrearsRow)),
        ),
      );
    },
  );
};
