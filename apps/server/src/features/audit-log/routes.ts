import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  auditAction,
  auditChanges,
  auditLogEntrySchema,
  auditLogTexts,
  auditSummary,
  isValidIsoDate,
  type AuditActionName,
  type AuditLogEntry,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, file, json, named, PDF, XLSX } from '../../plugins/openapi.ts';
import { forEachBatch, searchQuery, sendTabular } from '../../crud/export.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { companyTimezone } from '../../modules/companies/company-settings.ts';
import { pdfWriter, xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';

const Entry = named(auditLogEntrySchema, 'AuditLogEntry');

/** The log's sorts: a field, `-` first for descending. */
const SORTS = {
  at: 'a.created_at',
  action: 'a.action',
  entity: 'a.entity',
  record_id: 'a.record_id',
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

/** The entries' WHERE: always the session's company; the days in the company's time zone. */
const whereOf = (companyId: number, f: Filters, timezone: string): SQL => {
  const parts: SQL[] = [sql`a.company_id = ${companyId}`];
  if (f.user_id !== undefined) parts.push(sql`a.user_id = ${f.user_id}`);
  if (f.entity) parts.push(sql`a.entity = ${f.entity}`);
  if (f.action) parts.push(sql`a.action = ${f.action}`);
  if (f.from) parts.push(sql`a.created_at >= (${f.from}::date)::timestamp AT TIME ZONE ${timezone}`);
  if (f.to) parts.push(sql`a.created_at < (${f.to}::date + 1)::timestamp AT TIME ZONE ${timezone}`);
  const q = f.q?.trim().toLowerCase();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(
      sql`(a.search_text LIKE ${like} OR a.user_id IN (SELECT id FROM users WHERE lower(email) LIKE ${like}))`,
    );
  }
  return sql.join(parts, sql` AND `);
};

const orderOf = (sort: string | undefined): SQL => {
  const s = sort ?? '-at';
  const dir = s.startsWith('-') ? 'DESC' : 'ASC';
  const column = SORTS[s.replace(/^-/, '') as keyof typeof SORTS];
  return sql.raw(`${column} ${dir}, a.id ${dir}`);
};

const COLUMNS =
  sql.raw(`a.id, to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
  a.user_id, u.email AS user_email, a.action, a.entity, a.record_id, a.summary, a.before, a.after`);

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

const present = (r: Row): AuditLogEntry => {
  const base = {
    action: r.action,
    entity: r.entity,
    record_id: Number(r.record_id),
    summary: r.summary,
  };
  return {
    id: Number(r.id),
    at: r.at,
    user_id: r.user_id === null ? null : Number(r.user_id),
    user_email: r.user_email,
    ...base,
    summary: auditSummary(base),
    changes: auditChanges(parsed(r.before), parsed(r.after)),
  };
};

const EXPORT_COLUMNS: TabularColumn[] = [
  { key: 'at', label: 'At', kind: 'text' },
  { key: 'user_email', label: 'User', kind: 'text' },
  { key: 'action', label: 'Action', kind: 'enum', options: auditAction },
  { key: 'entity', label: 'Entity', kind: 'text' },
  { key: 'record_id', label: 'Record', kind: 'integer' },
  { key: 'summary', label: 'Summary', kind: 'text' },
  { key: 'changes', label: 'Changes', kind: 'text' },
];

/** The changes as one cell: `field: before → after; …` (long values cut). */
const changesText = (e: AuditLogEntry) =>
  e.changes
    .map((c) => `${c.field}: ${(c.before ?? '—').slice(0, 80)} → ${(c.after ?? '—').slice(0, 80)}`)
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
      const rows = await execRows<Row & { kodi_total: number | string }>(
        database.db,
        sql`SELECT ${COLUMNS}, count(*) OVER () AS kodi_total
              FROM audit_entries a LEFT JOIN users u ON u.id = a.user_id
             WHERE ${where} ORDER BY ${orderOf(q.sort)}
             LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
      );
      let total = Number(rows[0]?.kodi_total ?? 0);
      if (rows.length === 0 && q.page > 1) {
        const [counted] = await execRows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM audit_entries a WHERE ${where}`,
        );
        total = Number(counted?.n ?? 0);
      }
      void reply.header('X-Total-Count', String(total));
      return rows.map(({ kodi_total: _t, ...row }) => present(row));
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
      const title = auditLogTexts.title;
      const writer =
        fmt === 'xlsx' ? xlsxWriter(title, EXPORT_COLUMNS, money) : pdfWriter(title, EXPORT_COLUMNS, money);
      const query = sql`SELECT ${COLUMNS} FROM audit_entries a LEFT JOIN users u ON u.id = a.user_id
                         WHERE ${where} ORDER BY ${orderOf(f.sort)}`;
      return sendTabular(reply, request, `audit-log.${fmt}`, writer, (w) =>
        forEachBatch(database.db, query, (rows) =>
          w.write(
            rows.map((row) => {
              const e = present(row as Row);
              return { ...e, changes: changesText(e) };
            }),
          ),
        ),
      );
    },
  );
};
