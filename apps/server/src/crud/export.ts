import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { AppError, type EntityDefinition, type SessionUser } from '@kodi/domain';
import { entityKey } from '@kodi/domain/i18n/entity-texts';
import type { AppContext } from '../context.ts';
import { execRows, type Db } from '../db/client.ts';
import { currentUser } from '../plugins/guard.ts';
import { requestWords } from '../plugins/i18n.ts';
import { entityNames, file, PDF, XLSX } from '../plugins/openapi.ts';
import { companyMoney } from '../modules/companies/company.ts';
import { pdfWriter, xlsxWriter, type TabularColumn, type TabularWriter } from './tabular.ts';
import { listOrder, listWhere, phoneSearch } from './list.ts';
import { ensureProperty, propertyQuery } from '../modules/properties/property.ts';
import type { ServerEntity } from './server-entity.ts';
import { fromClause, presentRow, selectFields, selectList } from './sql.ts';

/**
 * Rows fetched per round trip. Small batches die young: 500 rows at a time, 200,000 payments peaked
 * at ~210 MB of server memory, 2,000 at ~300 MB (V8 promotes what survives a scavenge), for the
 * same ~6 s.
 */
export const EXPORT_BATCH = 500;

/**
 * `q` and `filter` of lists and exports. PostgreSQL text cannot hold U+0000 (nor can a filter's JSON
 * decode to it): refused by the schema, before an export has started its download.
 */
const withoutNul = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000') && !/\\u0000/i.test(v), 'Invalid character.');
export const searchQuery = withoutNul(200).optional();
export const filterQuery = withoutNul(500).optional();

export const exportQuerySchema = z.object({
  fmt: z.enum(['xlsx', 'pdf'], { error: "fmt must be 'xlsx' or 'pdf'." }),
  headers: z.string().max(4000).optional(),
  q: searchQuery,
  sort: z.string().max(60).optional(),
  filter: filterQuery,
});

/**
 * The visible column labels (as the web shows them, in English) mapped to fields through the
 * definition; each with the catalogue keys the web reads its heading and options by (issue 30:
 * `entity.<name>.column.<field>` for a column labelled otherwise than its field, else
 * `entity.<name>.field.<field>`; `entity.<name>.option.<field>.<value>`).
 */
export const exportColumns = (def: EntityDefinition, headers: string | undefined): TabularColumn[] => {
  const n = def.name;
  const optionsOf = (field: EntityDefinition['fields'][number] | undefined) =>
    field?.options ? { options: field.options, optionText: `entity.${n}.option.${field.name}` } : {};
  const byLabel = (label: string): TabularColumn | undefined => {
    const col = def.columns.find((c) => c.label === label);
    const field =
      def.fields.find((f) => f.name === (col?.field ?? '')) ??
      (col ? undefined : def.fields.find((f) => f.label === label));
    if (col) {
      const kind = col.kind ?? field?.kind ?? 'text';
      return {
        key: col.field,
        label,
        kind: kind === 'reference' ? 'text' : kind,
        text: `entity.${field && field.label === label ? entityKey.field(n, col.field) : entityKey.column(n, col.field)}`,
        ...optionsOf(field),
      };
    }
    if (field && field.kind !== 'image' && field.kind !== 'file') {
      return {
        key: field.name,
        label,
        kind: field.kind === 'reference' ? 'integer' : field.kind,
        text: `entity.${entityKey.field(n, field.name)}`,
        ...optionsOf(field),
      };
    }
    return undefined;
  };
  if (!headers) return def.columns.map((c) => byLabel(c.label)).filter((c): c is TabularColumn => !!c);
  let labels: unknown;
  try {
    labels = JSON.parse(headers);
  } catch {
    throw new AppError('validation_failed', 'headers must be a JSON list of column names.', {
      headers: 'Invalid JSON.',
    });
  }
  if (
    !Array.isArray(labels) ||
    labels.length === 0 ||
    labels.length > 60 ||
    !labels.every((l) => typeof l === 'string')
  ) {
    throw new AppError('validation_failed', 'headers must be a JSON list of column names.', {
      headers: 'Invalid list.',
    });
  }
  const visible = (labels as string[]).filter((l) => l !== 'Actions');
  // Only 'Actions': nothing to export (a table without columns cannot be drawn).
  if (visible.length === 0) {
    throw new AppError('validation_failed', 'headers must be a JSON list of column names.', {
      headers: 'Invalid list.',
    });
  }
  return visible.map((label) => {
    const col = byLabel(label);
    if (!col)
      throw new AppError('validation_failed', `Unknown column: ${label}.`, {
        headers: `Unknown column: ${label}.`,
      });
    return col;
  });
};

/**
 * Reads the rows of a query through a server-side cursor, a batch at a time, inside one
 * read-only transaction: memory stays flat whatever the table's size.
 */
export const forEachBatch = async (
  db: Db,
  query: ReturnType<typeof sql>,
  onBatch: (rows: Record<string, unknown>[]) => Promise<void>,
  batch = EXPORT_BATCH,
) => {
  await db.transaction(async (tx) => {
    // every row is read: plan for the whole result (hash joins), not for the first 10% (nested loops)
    await tx.execute(sql`SET LOCAL cursor_tuple_fraction = 1.0`);
    await tx.execute(sql`DECLARE kodi_export NO SCROLL CURSOR FOR ${query}`);
    for (;;) {
      const rows = await execRows<Record<string, unknown>>(
        tx,
        sql.raw(`FETCH FORWARD ${batch} FROM kodi_export`),
      );
      if (rows.length === 0) break;
      await onBatch(rows);
      if (rows.length < batch) break;
    }
    await tx.execute(sql`CLOSE kodi_export`);
  });
};

/** Starts the download: headers now, then rows as they come; a failure mid-way cuts the stream. */
export const sendTabular = (
  reply: import('fastify').FastifyReply,
  request: import('fastify').FastifyRequest,
  filename: string,
  writer: TabularWriter,
  produce: (w: TabularWriter) => Promise<void>,
) => {
  const type = filename.endsWith('.pdf')
    ? 'application/pdf'
    : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  void produce(writer)
    .then(() => writer.end())
    .catch((err: unknown) => {
      request.log.error({ err }, 'export failed');
      writer.stream.destroy(err instanceof Error ? err : new Error('export failed'));
    });
  return reply
    .type(type)
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('X-Suggested-Filename', filename)
    .header('Cache-Control', 'no-store')
    .send(writer.stream);
};

export const registerExportRoute = (app: FastifyInstance, ctx: AppContext, e: ServerEntity) => {
  const { def } = e;
  app.withTypeProvider<ZodTypeProvider>().get(
    `/${def.name}/export`,
    {
      config: { access: def.access.read },
      schema: {
        operationId: `export${entityNames(def).plural}`,
        tags: [def.name],
        summary: `Export the ${def.name} list (same q, sort and filter${def.byProperty ? ', property_id' : ''}) to xlsx or pdf, in the columns asked for`,
        querystring: def.byProperty ? exportQuerySchema.extend(propertyQuery.shape) : exportQuerySchema,
        response: {
          200: file('The list as a spreadsheet or a PDF (named in Content-Disposition)', XLSX, PDF),
        },
      },
    },
    async (request, reply) => {
      const user: SessionUser = currentUser(request);
      const { fmt, headers, ...list } = request.query as z.infer<typeof exportQuerySchema> & {
        property_id?: number | undefined;
      };
      const columns = exportColumns(def, headers);
      if (list.property_id !== undefined)
        await ensureProperty(ctx.database.db, user.company_id, list.property_id);
      const { where } = listWhere(e, user, list, await phoneSearch(ctx.database, e, user, list));
      const order = listOrder(e, list.sort);
      const money = await companyMoney(ctx.database, user.company_id);
      const words = requestWords(request);
      const title = words.td(`entity.${entityKey.page(def.name, 'title')}`, def.ui.title);
      const writer = (fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, columns, money, words);
      const select =
        selectFields(
          def,
          e.sql,
          columns.map((c) => c.key),
        ) ?? selectList(def, e.sql, { list: true });
      const query = sql`SELECT ${select} FROM ${fromClause(e.sql)} WHERE ${where} ORDER BY ${order}`;
      return sendTabular(reply, request, `${def.name}.${fmt}`, writer, (w) =>
        forEachBatch(ctx.database.db, query, (rows) => w.write(rows.map((r) => presentRow(def, r)))),
      );
    },
  );
};
