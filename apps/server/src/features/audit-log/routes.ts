import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  auditAction,
  auditChanges,
  auditDetails,
  auditLogEntrySchema,
  auditTitle,
  auditLogTexts,
  auditSummary,
  isValidIsoDate,
  type AuditActionName,
  type AuditLogEntry,
  type AuditWords,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { auditWords, exportWords, requestLanguage } from '../../plugins/i18n.ts';
import { errors, file, json, named, PDF, XLSX } from '../../plugins/openapi.ts';
import { forEachBatch, searchQuery, sendTabular } from '../../crud/export.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { companyTimezone } from '../../modules/companies/company-settings.ts';
import { pdfWriter, xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';
import {
  pagedList,
  searchCondition,
  searchWords,
  sendTotal,
  sortOrder,
  type OrderKey,
} from '../../crud/paged-list.ts';

const Entry = named(auditLogEntrySchema, 'AuditLogEntry');

/** The log's sorts: a field, `-` first for descending. */
const SORTS = {
  at: 't.created_at',
  action: 't.action',
  entity: 't.entity',
  record_id: 't.record_id',
} as const;

const day = z
  .string()
  .max(10)
  .refine((s) => isValidIsoDate(s), 'Invalid date format (YYYY-MM-DD).')
  .optional();

const filtersSchema = z.object({
  q: searchQuery,
  user_id: z.coerce.number().int().positive().max(2147483647).optional(),
  entity: z
    .string()
    .max(50)
    .regex(/^[a-z_]+$/, 'Unknown entity.')
    .optional(),
  action: z.enum(auditAction.values).optional(),
  from: day,
  to: day,
  sort: z
    .string()
    .max(30)
    .refine((s) => s.replace(/^-/, '') in SORTS, 'Unknown sort field.')
    .optional(),
});
type Filters = z.infer<typeof filtersSchema>;

const listQuery = filtersSchema.extend({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(25),
});

const exportQuery = filtersSchema.extend({
  fmt: z.enum(['xlsx', 'pdf'], { error: "fmt must be 'xlsx' or 'pdf'." }),
});

/** The entries' WHERE over `t`: always the session's company; the days in the company's time zone. */
const whereOf = (companyId: number, f: Filters, timezone: string): { sql: SQL; filtered: boolean } => {
  const parts: SQL[] = [sql`t.company_id = ${companyId}`];
  if (f.user_id !== undefined) parts.push(sql`t.user_id = ${f.user_id}`);
  if (f.entity) parts.push(sql`t.entity = ${f.entity}`);
  if (f.action) parts.push(sql`t.action = ${f.action}`);
  if (f.from) parts.push(sql`t.created_at >= (${f.from}::date)::timestamp AT TIME ZONE ${timezone}`);
  if (f.to) parts.push(sql`t.created_at < (${f.to}::date + 1)::timestamp AT TIME ZONE ${timezone}`);
  const q = searchWords(f.q);
  if (q) {
    // its own text, or its user's e-mail: each through its trigram index (a BitmapOr)
    parts.push(
      sql`(${searchCondition(q)} OR t.user_id = ANY (ARRAY(SELECT u.id FROM users u WHERE ${searchCondition(q, 'u')})))`,
    );
  }
  return { sql: sql.join(parts, sql` AND `), filtered: parts.length > 1 };
};

const orderOf = (sort: string | undefined): OrderKey[] => sortOrder(sort ?? '-at', SORTS, []);

/** The ORDER BY of the export: the list's order. */
const orderSql = (sort: string | undefined): SQL =>
  sql.raw(
    orderOf(sort)
      .map((k) => `${k.expr} ${k.desc ? 'DESC' : 'ASC'}`)
      .join(', '),
  );

const COLUMNS =
  sql.raw(`t.id, to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
  t.user_id, u.email AS user_email, t.action, t.entity, t.record_id, t.summary, t.before, t.after`);

type Row = {
  id: number | string;
  at: string;
  user_id: number | string | null;
  user_email: string | null;
  action: AuditActionName;
  entity: string;
  record_id: number | string;
  summary: string;
  before: unknown;
  after: unknown;
};

const parsed = (v: unknown): unknown => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

/** An entry as the reader reads it: its title and changed fields in the reader's language (issue 30). */
const present = (r: Row, words: AuditWords): AuditLogEntry => {
  const base = {
    action: r.action,
    entity: r.entity,
    record_id: Number(r.record_id),
    summary: r.summary,
  };
  const before = parsed(r.before);
  const after = parsed(r.after);
  return {
    id: Number(r.id),
    at: r.at,
    user_id: r.user_id === null ? null : Number(r.user_id),
    user_email: r.user_email,
    ...base,
    summary: auditSummary(base),
    title: auditTitle({ action: r.action, entity: r.entity, before, after }, words),
    details: auditDetails({ entity: r.entity, before, after }, words),
    changes: auditChanges(before, after),
  };
};

const EXPORT_COLUMNS: TabularColumn[] = [
  { key: 'at', label: 'At', kind: 'text', text: 'audit.at' },
  { key: 'user_email', label: 'User', kind: 'text', text: 'audit.user' },
  { key: 'title', label: 'What happened', kind: 'text', text: 'audit.whatHappened' },
  { key: 'entity', label: 'Entity', kind: 'text', text: 'audit.entity' },
  { key: 'record_id', label: 'Record', kind: 'integer', text: 'audit.record' },
  { key: 'summary', label: 'Summary', kind: 'text', text: 'audit.summary' },
  { key: 'changes', label: 'Changes', kind: 'text', text: 'audit.changes' },
];

/** The changes as one cell: `Label: before → after; …` (long ones cut). */
const changesText = (e: AuditLogEntry) =>
  e.details
    .map((line) => (line.length > 200 ? `${line.slice(0, 199)}…` : line))
    .join('; ')
    .slice(0, 2000);

/**
 * The company's audit log (issue 20): read-only, for admins and company admins. Paged, sorted,
 * filtered and searched in SQL; exported row by row. No route changes or deletes an entry.
 */
export const auditLogRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const tags = ['audit-log'];

  r.get(
    '/audit-log',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'listAuditLog',
        tags,
        summary:
          "The company's audit log, newest first: changes of its records, sign-ins, access and settings changes, imports, statement matches, webhook deliveries",
        querystring: listQuery,
        response: {
          200: json(z.array(Entry), 'A page of entries (X-Total-Count: how many in all)'),
          ...errors(400, 403),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const q = request.query;
      const where = whereOf(user.company_id, q, await companyTimezone(database, user.company_id));
      const page = await pagedList<Row>(
        database,
        {
          table: 'audit_entries',
          key: ['company_id', 'id'],
          where: [where.sql],
          filtered: where.filtered,
          searched: searchWords(q.q) !== undefined,
          order: orderOf(q.sort),
          columns: COLUMNS,
          joins: sql.raw('LEFT JOIN users u ON u.id = t.user_id'),
        },
        q,
      );
      sendTotal(reply, page);
      const words = auditWords(requestLanguage(request));
      return page.rows.map((row) => present(row, words));
    },
  );

  r.get(
    '/audit-log/export',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'exportAuditLog',
        tags,
        summary: 'The audit log (same filters, q and sort) as a spreadsheet or a PDF, streamed',
        querystring: exportQuery,
        response: {
          200: file('The audit log as a spreadsheet or a PDF (named in Content-Disposition)', XLSX, PDF),
          ...errors(400, 403),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { fmt, ...f } = request.query;
      const where = whereOf(user.company_id, f, await companyTimezone(database, user.company_id));
      const money = await companyMoney(database, user.company_id);
      const language = requestLanguage(request);
      const exported = exportWords(language);
      const title = exported.td('audit.title', auditLogTexts.title);
      const writer = (fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, EXPORT_COLUMNS, money, exported);
      const query = sql`SELECT ${COLUMNS} FROM audit_entries t LEFT JOIN users u ON u.id = t.user_id
                         WHERE ${where.sql} ORDER BY ${orderSql(f.sort)}`;
      const words = auditWords(language);
      return sendTabular(reply, request, `audit-log.${fmt}`, writer, (w) =>
        forEachBatch(database.db, query, (rows) =>
          w.write(
            rows.map((row) => {
              const e = present(row as Row, words);
              return { ...e, changes: changesText(e) };
            }),
          ),
        ),
      );
    },
  );
};
