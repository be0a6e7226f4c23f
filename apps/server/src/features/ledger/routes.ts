import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sql, type SQL } from 'drizzle-orm';
import {
  AppError,
  agingBuckets,
  arrearsColumns,
  arrearsRowSchema,
  centsToNumber,
  formatDate,
  isValidIsoDate,
  ledgerAnswer,
  ledgerAnswerSchema,
  type AgingBucket,
  type ArrearsSummary,
} from '@kodi/domain';
import { arrearsRemindRoute } from './remind.ts';
import { arrearsSummaryByAgeSchema } from './answers.ts';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams, sendDownload } from '../../crud/record-route.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { companyToday } from '../../modules/companies/company-settings.ts';
import { pdfWriter, xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';
import { requestWords } from '../../plugins/i18n.ts';
import { forEachBatch, sendTabular } from '../../crud/export.ts';
import { listQuerySchema } from '../../crud/routes.ts';
import { ensureProperty, propertyIdQuery } from '../../modules/properties/property.ts';
import {
  arrearsQuery,
  arrearsSummaryQuery,
  keptArrearsQuery,
  keptArrearsSummaryQuery,
  presentArrearsRow,
} from './arrears-sql.ts';
import { leaseLedger } from '../../modules/leases/ledger-data.ts';
import { leaseStatementPdf } from '../../modules/leases/statement-pdf.ts';
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

/** `bucket=days_31_60`: only the leases with something owed in that age bucket (the dashboard's links). */
const bucketQuery = z
  .enum(agingBuckets, { error: `bucket must be one of ${agingBuckets.join(', ')}.` })
  .optional();

const arrearsListQuery = listQuerySchema
  .omit({ filter: true })
  .extend({ as_of: asOfSchema, property_id: propertyIdQuery, bucket: bucketQuery });

const arrearsSummaryParams = asOfQuery.extend({ property_id: propertyIdQuery });

type ArrearsArgs = Parameters<typeof arrearsQuery>[0];
/** Where a day's arrears rows come from: what the books keep (today) or computed for the day. */
type ArrearsSource = (args: ArrearsArgs) => SQL;
const keptArrears =
  (today: string): ArrearsSource =>
  (args) =>
    keptArrearsQuery({ ...args, asOf: today });

/**
 * The arrears rows of `arrearsQuery`, of one age bucket when asked: its statement read as a table
 * (rows in its order), those with something in the bucket kept, counted (`bucket_total`) and paged. The bucket's sort
 * is the default (most owed in it first), so that its amounts are computed before the page.
 */
const arrearsRows = (source: ArrearsSource, args: ArrearsArgs, bucket: AgingBucket | undefined): SQL => {
  if (!bucket) return source(args);
  const { page, ...all } = args;
  const limit = page ? sql`LIMIT ${page.limit} OFFSET ${page.offset}` : sql``;
  return sql`SELECT count(*) OVER ()::int AS bucket_total, a.*
    FROM (${source({ ...all, sort: args.sort || `-${bucket}` })}) a
   WHERE a.occupancy_id IS NOT NULL AND a.${sql.raw(bucket)}::bigint > 0 ${limit}`;
};

/** The sums (in cents, as text) of the balances and buckets of every lease in arrears. */
const arrearsTotalsQuery = (
  source: ArrearsSource,
  args: ArrearsArgs,
): SQL => sql`SELECT count(*)::int AS leases,
    COALESCE(sum(a.balance::bigint), 0)::text AS balance,
    ${sql.raw(agingBuckets.map((b) => `COALESCE(sum(a.${b}::bigint), 0)::text AS ${b}`).join(', '))}
  FROM (${source(args)}) a WHERE a.occupancy_id IS NOT NULL`;

const centsText = (v: unknown) => centsToNumber(BigInt(String(v ?? '0')));

/**
 * The rows of an arrears statement with their tenant's phone and e-mail: a probe of the tenant's key
 * per row, in the select list, so that the rows keep the statement's order.
 */
const withContacts = (companyId: number, query: SQL): SQL => sql`SELECT a.*,
    (SELECT tn.phone FROM tenants tn WHERE tn.company_id = ${companyId} AND tn.id = a.tenant_id) AS tenant_phone,
    (SELECT tn.email FROM tenants tn WHERE tn.company_id = ${companyId} AND tn.id = a.tenant_id) AS tenant_email
  FROM (${query}) a`;

const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** A row as `GET /arrears` answers it, with its contacts. */
const presentRow = (row: Record<string, unknown>) => ({
  ...presentArrearsRow(row),
  tenant_phone: strOrNull(row.tenant_phone),
  tenant_email: strOrNull(row.tenant_email),
});

const arrearsExportQuery = z.object({
  fmt: z.enum(['xlsx', 'pdf'], { error: "fmt must be 'xlsx' or 'pdf'." }),
  headers: z.string().max(4000).optional(),
  q: z.string().max(200).optional(),
  sort: z.string().max(60).optional(),
  as_of: asOfSchema,
  property_id: propertyIdQuery,
  bucket: bucketQuery,
});

const invalidHeaders = (message: string) =>
  new AppError('validation_failed', 'headers must be a JSON list of column names.', { headers: message });

/** The visible column labels of the Arrears page mapped to its columns (all when none are given). */
export const arrearsExportColumns = (headers: string | undefined): TabularColumn[] => {
  const all = arrearsColumns.map((c) => ({
    key: c.field,
    label: c.label,
    kind: c.kind ?? 'text',
    text: `arrears.column.${c.field}`,
  }));
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
const arrearsSource = async (
  database: AppContext['database'],
  companyId: number,
  asOfGiven: string | undefined,
): Promise<ArrearsSource> => {
  const today = await companyToday(database, companyId);
  return asOfGiven === undefined || asOfGiven === today ? keptArrears(today) : arrearsQuery;
};

/**
 * The ledger of a lease (`GET /occupancy/{id}/ledger`, any role), its statement PDF, and the arrears
 * report (`GET /arrears`, its export and summary; admins and editors). All scoped to the company.
 */
export const ledgerRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  arrearsRemindRoute(app, ctx);

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
      const { filename, doc } = await leaseStatementPdf(database, user.company_id, request.params.id, asOf);
      return sendDownload(reply.header('Cache-Control', 'no-store'), 'application/pdf', filename, doc);
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
      const { page, page_size, q, sort, property_id, bucket } = request.query;
      const as_of = request.query.as_of ?? (await companyToday(database, user.company_id));
      const rows = await execRows<Record<string, unknown>>(
        database.db,
        withContacts(
          user.company_id,
          arrearsRows(
            await arrearsSource(database, user.company_id, request.query.as_of),
            {
              companyId: user.company_id,
              asOf: as_of,
              propertyId: property_id,
              q,
              sort,
              page: { limit: page_size, offset: (page - 1) * page_size },
            },
            bucket,
          ),
        ),
      );
      if (property_id !== undefined && !rows.some((row) => row.occupancy_id !== null))
        await ensureProperty(database.db, user.company_id, property_id);
      void reply.header('X-Total-Count', String(Number(rows[0]?.[bucket ? 'bucket_total' : 'total'] ?? 0)));
      return rows.filter((row) => row.occupancy_id !== null).map(presentRow);
    },
  );

  r.get(
    '/arrears/summary',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'getArrearsSummary',
        tags: ['arrears'],
        summary:
          'The total overdue and the number of leases in arrears (the dashboard card); with by_age=true, their balances by age',
        querystring: arrearsSummaryParams.extend({ by_age: z.enum(['true', 'false']).optional() }),
        response: {
          200: json(
            named(arrearsSummaryByAgeSchema, 'ArrearsSummary'),
            'The total and the count (and by age)',
          ),
        },
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
      const summary: ArrearsSummary = {
        total: centsToNumber(BigInt(rows[0]?.total_cents ?? '0')),
        leases: Number(rows[0]?.leases ?? 0),
      };
      if (request.query.by_age !== 'true') return summary;
      const totals = (
        await execRows<Record<string, unknown>>(
          database.db,
          arrearsTotalsQuery(as_of === today ? keptArrears(today) : arrearsQuery, {
            companyId: user.company_id,
            asOf: as_of,
            propertyId: property_id,
          }),
        )
      )[0];
      return {
        ...summary,
        by_age: {
          balance: centsText(totals?.balance),
          ...(Object.fromEntries(agingBuckets.map((b) => [b, centsText(totals?.[b])])) as Record<
            AgingBucket,
            number
          >),
        },
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
      const { fmt, headers, q, sort, property_id, bucket } = request.query;
      const as_of = request.query.as_of ?? (await companyToday(database, user.company_id));
      const columns = arrearsExportColumns(headers);
      if (property_id !== undefined) await ensureProperty(database.db, user.company_id, property_id);
      const query = withContacts(
        user.company_id,
        arrearsRows(
          await arrearsSource(database, user.company_id, request.query.as_of),
          { companyId: user.company_id, asOf: as_of, propertyId: property_id, q, sort },
          bucket,
        ),
      );
      const money = await companyMoney(database, user.company_id);
      const words = requestWords(request);
      const title = words.td('doc.export.arrearsTitle', `Arrears on ${as_of}`, {
        date: formatDate(as_of, words.language),
      });
      const writer = (fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, columns, money, words);
      // the totals row after the rows (issue 26): the sums of what was written, in cents
      const sums = new Map<string, bigint>();
      let count = 0;
      const summed = ['balance', ...agingBuckets] as const;
      return sendTabular(reply, request, `arrears.${fmt}`, writer, async (w) => {
        await forEachBatch(database.db, query, async (rows) => {
          const present = rows.filter((row) => row.occupancy_id !== null);
          count += present.length;
          for (const row of present)
            for (const f of summed) sums.set(f, (sums.get(f) ?? 0n) + BigInt(String(row[f] ?? '0')));
          await w.write(present.map(presentRow));
        });
        await w.write([
          {
            tenant_name: words.td(
              'arrears.total',
              `Total (${count.toLocaleString('en-US')} ${count === 1 ? 'lease' : 'leases'})`,
              { count },
            ),
            ...Object.fromEntries(summed.map((f) => [f, centsToNumber(sums.get(f) ?? 0n)])),
          },
        ]);
      });
    },
  );
};
