import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  MAX_IMPORT_BYTES,
  allows,
  importDateFormats,
  importFormats,
  importableEntities,
  type ImportRecord,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { toErrorBody } from '../../plugins/errors.ts';
import { errors, file, json as jsonAnswer, named, XLSX } from '../../plugins/openapi.ts';
import { recordIdParams, sendDownload } from '../../crud/record-route.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { pagedList, sendTotal } from '../../crud/paged-list.ts';
import { commitImport, committable } from './commit.ts';
import { fileRows, sniffFile } from '../../modules/files/file-rows.ts';
import { withUpload } from '../../modules/files/upload.ts';
import { previewImport } from './preview.ts';
import { withLeanHeap } from './lean-heap.ts';
import { csvLine } from '../../platform/csv.ts';
import { templateCsv, templateXlsx } from './template.ts';

const tags = ['imports'];

const errorSchema = z.object({ row: z.number(), field: z.string(), message: z.string() });
const summarySchema = z.object({
  id: z.number(),
  entity: z.string(),
  status: z.enum(['previewed', 'committed', 'expired']),
  file_name: z.string(),
  date_format: z.enum(importDateFormats),
  total_rows: z.number(),
  valid_rows: z.number(),
  invalid_rows: z.number(),
  created: z.number().nullable(),
  updated: z.number().nullable(),
  unchanged: z.number().nullable(),
  skipped_invalid: z.number().nullable(),
  user_id: z.number().nullable(),
  user_name: z.string().nullable(),
  created_at: z.string(),
  committed_at: z.string().nullable(),
  expires_at: z.string(),
});
const recordSchema = summarySchema.extend({
  mapping: z.record(z.string(), z.string().nullable()),
  columns: z.array(z.string()),
  errors: z.array(errorSchema),
  sample: z
    .array(z.record(z.string(), z.unknown()))
    .describe(
      "The first rows as they will be saved; `names`: the referenced records by name, `filled`: the fields given for every row, `new_tenant`: a lease's tenant created with it",
    ),
  warnings: z
    .array(errorSchema)
    .describe('What is saved but worth a look (two tenants with one phone), the first 200'),
  fill: z
    .record(z.string(), z.string())
    .describe('The values given for every row without one (field → text)'),
  missing: z
    .array(z.object({ field: z.string(), label: z.string(), rows: z.number() }))
    .describe('The required fields rows lack, for which one value may be given (`fill`)'),
  back_rent: z
    .object({
      leases: z.number(),
      charges: z.number(),
      total: z.number(),
      rows: z.array(
        z.object({
          row: z.number(),
          external_ref: z.string().nullable(),
          tenant: z.string(),
          unit: z.string(),
          start_date: z.string(),
          charges: z.number(),
          total: z.number(),
        }),
      ),
    })
    .nullable()
    .describe('Leases: the back rent committing the new ones charges, and the first of them'),
});
/** An import as its routes answer it, named in the OpenAPI document. */
const importAnswer = named(recordSchema, 'Import');
const commitSchema = z.object({
  id: z.number(),
  status: z.literal('committed'),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  skipped_invalid: z.number(),
  tenants_created: z.number().optional().describe('Leases: the tenants created with them'),
});

const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(25),
});

const ts = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** An import as answered: its status 'expired' once 24 hours passed without a commit. */
/** An import's columns (of `i`, with its user `u`). */
const importColumns = (full: boolean) => sql`
  i.id, i.entity,
         CASE WHEN i.status = 'previewed' AND i.created_at < now() - interval '24 hours' THEN 'expired'
              ELSE i.status END AS status,
         i.file_name, i.date_format, i.total_rows, i.valid_rows, i.invalid_rows,
         i.created, i.updated, i.unchanged, i.skipped_invalid, i.user_id,
         NULLIF(concat_ws(' ', u.first_name, u.last_name), '') AS user_name,
         ${ts('i.created_at')} AS created_at, ${ts('i.committed_at')} AS committed_at,
         ${ts("(i.created_at + interval '24 hours')")} AS expires_at
         ${full ? sql`, i.mapping, i.columns, i.errors, i.sample, i.back_rent, i.warnings, i.fill, i.missing` : sql``}`;
const IMPORT_JOINS = sql`LEFT JOIN users u ON u.id = i.user_id`;
const importSelect = (full: boolean) => sql`SELECT ${importColumns(full)} FROM imports i ${IMPORT_JOINS}`;

const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

const present = (r: Record<string, unknown>): ImportRecord => {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    ...(r as ImportRecord),
    id: Number(r.id),
    total_rows: Number(r.total_rows),
    valid_rows: Number(r.valid_rows),
    invalid_rows: Number(r.invalid_rows),
    created: n(r.created),
    updated: n(r.updated),
    unchanged: n(r.unchanged),
    skipped_invalid: n(r.skipped_invalid),
    user_id: n(r.user_id),
    ...('mapping' in r
      ? {
          mapping: json(r.mapping) as ImportRecord['mapping'],
          columns: json(r.columns) as string[],
          errors: json(r.errors) as ImportRecord['errors'],
          sample: json(r.sample) as ImportRecord['sample'],
          back_rent: (json(r.back_rent) ?? null) as ImportRecord['back_rent'],
          warnings: (json(r.warnings) ?? []) as ImportRecord['warnings'],
          fill: (json(r.fill) ?? {}) as ImportRecord['fill'],
          missing: (json(r.missing) ?? []) as ImportRecord['missing'],
        }
      : {}),
  };
};

export const getImport = async (db: DbOrTx, companyId: number, id: number): Promise<ImportRecord> => {
  const [row] = await execRows<Record<string, unknown>>(
    db,
    sql`${importSelect(true)} WHERE i.company_id = ${companyId} AND i.id = ${id}`,
  );
  if (!row) throw new AppError('not_found', 'Import not found.');
  return present(row);
};

/** The staging rows of imports that expired without a commit, for every company (cheap: a partial index). */
const removeExpired = (db: DbOrTx) =>
  db.execute(
    sql`DELETE FROM import_rows r USING imports i
         WHERE i.status = 'previewed' AND i.created_at < now() - interval '24 hours'
           AND r.company_id = i.company_id AND r.import_id = i.id`,
  );

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', message, { [field]: message });

/** The form fields of an upload, as sent (files are read on their own). */
const uploadFields = (entities: readonly string[]) =>
  z.object({
    entity: z.enum(entities as [string, ...string[]], { error: `Choose one of: ${entities.join(', ')}.` }),
    date_format: z
      .enum(importDateFormats, { error: `Choose one of: ${importDateFormats.join(', ')}.` })
      .default('YYYY-MM-DD'),
    mapping: z.string().max(100_000).optional(),
    fill: z.string().max(20_000).optional(),
    replaces: z.coerce.number().int().positive().max(2147483647).optional(),
  });

const mappingSchema = z.record(z.string().max(500), z.string().max(100).nullable());
const fillSchema = z.record(z.string().max(100), z.string().max(500));

const parseFill = (text: string | undefined) => {
  if (text === undefined || text.trim() === '') return undefined;
  const message = 'The values for every row must be JSON: { "field": "value" }.';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('fill', message);
  }
  const parsed = fillSchema.safeParse(value);
  if (!parsed.success) throw invalid('fill', message);
  return parsed.data;
};

const parseMapping = (text: string | undefined) => {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('mapping', 'The mapping must be JSON: { "file column": "field" }.');
  }
  const parsed = mappingSchema.safeParse(value);
  if (!parsed.success) throw invalid('mapping', 'The mapping must be JSON: { "file column": "field" }.');
  return parsed.data;
};

/**
 * Import (`/imports`, admins and editors): upload a CSV or xlsx file of one importable entity and
 * preview it (nothing saved), commit it (everything valid in one transaction), list the company's
 * imports, download the rejected rows and a template. The entities' server parts come from the
 * wiring (crud/registry.ts), so that the import applies each entity's own rules without importing
 * its feature.
 */
export const importRoutes = async (
  app: FastifyInstance,
  ctx: AppContext,
  serverEntities: readonly ServerEntity[],
) => {
  const importable = importableEntities(serverEntities.map((e) => e.def)).map((d) => d.name);
  const byName = new Map(
    serverEntities.filter((e) => importable.includes(e.def.name)).map((e) => [e.def.name, e]),
  );
  const { database } = ctx;
  const { db } = database;
  const fieldsSchema = uploadFields(importable);

  // multipart only here: an upload is streamed to a temporary file as it arrives, within its limits
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, fieldSize: 200_000, parts: 12 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/imports',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'previewImport',
        tags,
        summary:
          'Upload a CSV or xlsx file (multipart: entity, file, mapping, date_format, fill) and preview its import; nothing is saved',
        consumes: ['multipart/form-data'],
        response: {
          201: jsonAnswer(importAnswer, 'The import, previewed: counts, mapping, first errors and sample'),
          ...errors(400, 413),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      return withUpload(request, 'kodi-import', 'The file is larger than 20 MB.', async (upload) => {
        const { fields: sent, fileName, path: tmp } = upload;
        const fields = fieldsSchema.safeParse(sent);
        if (!fields.success) {
          const issue = fields.error.issues[0];
          throw invalid(String(issue?.path[0] ?? 'entity'), issue?.message ?? 'Invalid value.');
        }
        if (fileName === undefined) throw invalid('file', 'Choose a CSV or xlsx file.');
        const { entity, date_format, replaces } = fields.data;
        const e = byName.get(entity);
        if (!e) throw invalid('entity', `Choose one of: ${importable.join(', ')}.`);
        if (!allows(e.def.access.create, user)) throw new AppError('forbidden');
        const mapping = parseMapping(fields.data.mapping);
        const fill = parseFill(fields.data.fill);
        const kind = await sniffFile(tmp);
        const rows = fileRows(tmp, kind);
        try {
          // the header first, outside the transaction: an xlsx workbook's shared strings and styles
          // are read (and a bomb refused) before a connection is taken
          const head = await rows.next();
          await removeExpired(db);
          const id = await withLeanHeap(() =>
            db.transaction(async (tx) => {
              if (replaces !== undefined)
                await tx.execute(
                  sql`DELETE FROM imports WHERE company_id = ${user.company_id} AND id = ${replaces} AND status = 'previewed'`,
                );
              return previewImport(tx, {
                user,
                entity: e,
                rows,
                header: head.done ? undefined : head.value.cells,
                fileName,
                dateFormat: date_format,
                mapping,
                fill,
                tenants: byName.get('tenants'),
              });
            }),
          );
          return reply.code(201).send(await getImport(db, user.company_id, id));
        } finally {
          await rows.return(undefined);
        }
      });
    },
  );

  r.get(
    '/imports',
    {
      config: { access: 'canEdit' },
      schema: {
        tags,
        operationId: 'listImports',
        summary: "The company's imports, newest first (X-Total-Count has the total)",
        querystring: listQuery,
        response: { 200: jsonAnswer(z.array(named(summarySchema, 'ImportSummary')), 'A page of imports') },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const page = await pagedList(
        ctx.database,
        {
          table: 'imports',
          key: ['company_id', 'id'],
          where: [sql`t.company_id = ${user.company_id}`],
          filtered: false,
          order: [{ expr: 't.id', desc: true }],
          columns: importColumns(false),
          joins: sql`JOIN imports i ON i.company_id = t.company_id AND i.id = t.id ${IMPORT_JOINS}`,
        },
        request.query,
      );
      sendTotal(reply, page);
      return page.rows.map(present);
    },
  );

  r.get(
    '/imports/template',
    {
      config: { access: 'canEdit' },
      schema: {
        tags,
        operationId: 'getImportTemplate',
        summary: "An entity's import template: its columns' headers and one example row",
        querystring: z.object({
          entity: z.enum(importable as [string, ...string[]], {
            error: `Choose one of: ${importable.join(', ')}.`,
          }),
          fmt: z.enum(importFormats, { error: "fmt must be 'csv' or 'xlsx'." }).default('csv'),
        }),
        response: { 200: file('The template file', 'text/csv', XLSX) },
      },
    },
    async (request, reply) => {
      const { entity, fmt } = request.query;
      const def = byName.get(entity)?.def;
      if (!def) throw invalid('entity', `Choose one of: ${importable.join(', ')}.`);
      const name = `${entity}_template.${fmt}`;
      return fmt === 'csv'
        ? sendDownload(reply, 'text/csv; charset=utf-8', name, templateCsv(def))
        : sendDownload(
            reply,
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            name,
            await templateXlsx(def),
          );
    },
  );

  r.get(
    '/imports/:id',
    {
      config: { access: 'canEdit' },
      schema: {
        tags,
        operationId: 'getImport',
        summary: 'One import, with its mapping, first errors and sample',
        params: recordIdParams,
        response: { 200: jsonAnswer(importAnswer, 'The import'), ...errors(404) },
      },
    },
    async (request) => getImport(db, currentUser(request).company_id, request.params.id),
  );

  r.get(
    '/imports/:id/errors.csv',
    {
      config: { access: 'canEdit' },
      schema: {
        tags,
        summary:
          "An import's rejected rows as they were in the file, with a column 'error' holding their messages",
        operationId: 'getImportErrors',
        params: recordIdParams,
        response: { 200: file('The rejected rows', 'text/csv'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      const record = await getImport(db, user.company_id, id);
      const out = new PassThrough();
      void sendDownload(reply, 'text/csv; charset=utf-8', `import_${id}_errors.csv`, out);
      void (async () => {
        try {
          out.write(`\uFEFF${csvLine([...record.columns, 'error'])}`);
          let last = 0;
          for (;;) {
            const rows = await execRows<{ row_no: number; data: unknown; messages: string | null }>(
              db,
              sql`SELECT row_no, data, messages FROM import_rows
                   WHERE company_id = ${user.company_id} AND import_id = ${id} AND NOT valid AND row_no > ${last}
                   ORDER BY row_no LIMIT 1000`,
            );
            if (rows.length === 0) break;
            last = Number(rows[rows.length - 1]?.row_no);
            const text = rows
              .map((row) => csvLine([...((json(row.data) as string[] | null) ?? []), row.messages ?? '']))
              .join('');
            if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
          }
          out.end();
        } catch (err) {
          out.destroy(err instanceof Error ? err : new Error(String(err)));
        }
      })();
      return reply;
    },
  );

  r.post(
    '/imports/:id/commit',
    {
      config: { access: 'canEdit' },
      schema: {
        tags,
        summary:
          'Save every valid row in one transaction (Accept: application/x-ndjson streams { processed, total } lines before the result); a second commit is 409',
        operationId: 'commitImport',
        params: recordIdParams,
        response: {
          200: jsonAnswer(named(commitSchema, 'ImportCommitted'), 'What was saved'),
          ...errors(404, 409),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      const progress = String(request.headers.accept ?? '').includes('application/x-ndjson');
      if (!progress) return withLeanHeap(() => commitImport(database, user, byName, id));
      // refused before anything is streamed: 404, 409 committed or expired answer as usual
      const head = await committable(db, user.company_id, id);
      const out = new PassThrough();
      // a stream is sent as it is: the 200 schema describes the JSON answer, and the stream's last line
      void (reply as unknown as FastifyReply)
        .code(200)
        .type('application/x-ndjson')
        .header('Cache-Control', 'no-store')
        .send(out);
      out.write(`${JSON.stringify({ processed: 0, total: Number(head.valid_rows) })}\n`);
      withLeanHeap(() =>
        commitImport(database, user, byName, id, (processed, total) =>
          out.write(`${JSON.stringify({ processed, total })}\n`),
        ),
      ).then(
        (result) => out.end(`${JSON.stringify(result)}\n`),
        (err: unknown) => {
          const { body, log } = toErrorBody(err);
          if (log) request.log.error({ err }, 'import commit failed');
          out.end(`${JSON.stringify(body)}\n`);
        },
      );
      return reply;
    },
  );
};
