import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  MAX_IMPORT_BYTES,
  ignoreBodySchema,
  localTime,
  matchBodySchema,
  paymentWebhookAnswerSchema,
  paymentWebhookBodySchema,
  statementLineSchema,
  statementLineStatuses,
  statementMappingSchema,
  statementSources,
  statementSummarySchema,
  statementUploadSchema,
  toCents,
  formatCents,
  isReceivedWhen,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { isoDaySql } from '../../db/dates.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { sniffFile } from '../../modules/files/file-rows.ts';
import { withUpload } from '../../modules/files/upload.ts';
import { companyTimezone } from '../../modules/companies/company-settings.ts';
import { openWebhookSecret, verifyWebhookSignature } from '../../modules/companies/payment-webhook.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import {
  pagedList,
  searchCondition,
  searchWords,
  sendTotal,
  sortOrder,
  type OrderKey,
} from '../../crud/paged-list.ts';
import { loadMatchIndex, matchLines } from './matching.ts';
import { checkAllocations, postPayments, voidPayments } from './posting.ts';
import {
  autoPostOf,
  companyCells,
  followHandMatch,
  importStatement,
  lockLine,
  writeLines,
} from './service.ts';
import { recogniseSource } from './statement-file.ts';
import { SecretUnavailableError } from '../../platform/secrets.ts';
import { VOID_REASONS } from '../../modules/receipts/void-payment.ts';

/** `DELETE /statements/{id}`: what it removed and voided. */
const statementDeletedSchema = z.object({
  id: z.int32(),
  lines_removed: z.int32().describe('The statement’s lines removed'),
  payments_voided: z.array(z.int32()).describe('The payments its lines made, voided'),
});

const tags = ['collections'];

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', message, { [field]: message });

const uploadFields = z.object({
  /** none: a mapping makes it custom; else Kodi recognises MTN, Airtel and bank statements by their columns */
  source: z.enum(statementSources, { error: `Choose one of: ${statementSources.join(', ')}.` }).optional(),
  mapping: z.string().max(20_000).optional(),
});

const parseMapping = (text: string | undefined) => {
  if (text === undefined || text.trim() === '') return undefined;
  const message = 'The mapping must be JSON: { "file column": "transaction_id" | "date" | "amount" | ... }.';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('mapping', message);
  }
  const parsed = statementMappingSchema.safeParse(value);
  if (!parsed.success) throw invalid('mapping', message);
  const fields = Object.values(parsed.data);
  if (new Set(fields).size !== fields.length) throw invalid('mapping', 'Map each field to one column.');
  return parsed.data;
};

const pageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(25),
};

const lineSorts = ['id', 'date', 'amount', 'status', 'confidence', 'transaction_id', 'payer_name'] as const;
const lineQuery = z.object({
  ...pageQuery,
  q: z.string().trim().max(200).optional(),
  status: z.enum(statementLineStatuses).optional(),
  statement_id: z.coerce.number().int().positive().max(2147483647).optional(),
  sort: z
    .string()
    .regex(new RegExp(`^-?(${lineSorts.join('|')}|open)$`), `Sort by one of: ${lineSorts.join(', ')}, open.`)
    .default('open'),
});

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A line's columns (of `l`): the lease's tenant and unit names, the payments made (not voided). */
const LINE_COLUMNS = sql`
  l.id, l.statement_id, l.source, l.transaction_id, ${sql.raw(isoDaySql('l.date'))} AS date,
         l.amount::text AS amount, l.direction, l.payer_phone, l.payer_name, l.reference, l.status, l.confidence,
         l.occupancy_id, l.tenant_id, l.ignore_reason, l.match_reason,
         NULLIF(concat_ws(' ', tn.first_name, tn.last_name), '') AS tenant_name, u.name AS unit_name,
         COALESCE((SELECT array_agg(p.payment_id ORDER BY p.payment_id) FROM statement_line_payments p
                    WHERE p.company_id = l.company_id AND p.line_id = l.id AND p.voided_at IS NULL), '{}') AS payment_ids`;
const LINE_JOINS = sql`
    LEFT JOIN occupancy o ON o.company_id = l.company_id AND o.id = l.occupancy_id
    LEFT JOIN tenants tn ON tn.company_id = l.company_id AND tn.id = COALESCE(o.tenant_id, l.tenant_id)
    LEFT JOIN units u ON u.company_id = l.company_id AND u.id = o.unit_id`;
const LINE_SELECT = sql`SELECT ${LINE_COLUMNS} FROM statement_lines l ${LINE_JOINS}`;

const presentLine = (r: Record<string, unknown>) => {
  const raw = r.payment_ids;
  const ids = (
    Array.isArray(raw)
      ? raw
      : typeof raw === 'string'
        ? raw.replace(/[{}]/g, '').split(',').filter(Boolean)
        : []
  ).map(Number);
  return {
    id: Number(r.id),
    statement_id: num(r.statement_id),
    source: String(r.source),
    transaction_id: String(r.transaction_id),
    date: String(r.date),
    amount: Number(r.amount),
    direction: r.direction as 'in' | 'out',
    payer_phone: (r.payer_phone as string | null) ?? null,
    payer_name: (r.payer_name as string | null) ?? null,
    reference: (r.reference as string | null) ?? null,
    status: r.status as (typeof statementLineStatuses)[number],
    confidence: Number(r.confidence),
    occupancy_id: num(r.occupancy_id),
    tenant_id: num(r.tenant_id),
    tenant_name: (r.tenant_name as string | null) ?? null,
    unit_name: (r.unit_name as string | null) ?? null,
    payment_id: ids[0] ?? null,
    payment_ids: ids,
    ignore_reason: (r.ignore_reason as string | null) ?? null,
    match_reason: (r.match_reason as string | null) ?? null,
  };
};

/** Open lines first (unmatched, then suggested), then the newest; or a field, then the id. */
const sortOf = (sort: string): OrderKey[] => {
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  if (field === 'open')
    return [
      {
        expr: `CASE t.status WHEN 'unmatched' THEN 0 WHEN 'suggested' THEN 1 WHEN 'matched' THEN 2 ELSE 3 END`,
        desc,
      },
      { expr: 't.date', desc: true },
      { expr: 't.id', desc: true },
    ];
  return sortOrder(sort, Object.fromEntries(lineSorts.map((f) => [f, `t.${f}`])), []);
};

const rawBodies = new WeakMap<FastifyRequest, string>();

/**
 * Money in (issue 18): statements uploaded and their lines matched to leases (admins and editors;
 * unmatching is for admins), and the payment webhook (signed, no session). Payments are made by the
 * payments' own server part, given by the wiring, so they take their serial, receipt number and
 * audit entries as the payments route gives them.
 */
export const collectionsRoutes = async (app: FastifyInstance, ctx: AppContext, payments: ServerEntity) => {
  const { database } = ctx;
  const { db } = database;
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, fieldSize: 20_000, parts: 6 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/statements',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'uploadStatement',
        tags,
        summary:
          'Upload a mobile-money or bank statement (multipart: file, source, mapping; no source: recognised by its columns): its lines kept once and matched to leases',
        consumes: ['multipart/form-data'],
        response: {
          201: json(named(statementUploadSchema, 'StatementUpload'), 'What the statement came to'),
          ...errors(400, 413),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      return withUpload(request, 'kodi-statement', 'The file is larger than 20 MB.', async (upload) => {
        const fields = uploadFields.safeParse(upload.fields);
        if (!fields.success) {
          const issue = fields.error.issues[0];
          throw invalid(String(issue?.path[0] ?? 'source'), issue?.message ?? 'Invalid value.');
        }
        if (upload.fileName === undefined) throw invalid('file', 'Choose a CSV or xlsx file.');
        const mapping = parseMapping(fields.data.mapping);
        if (fields.data.source === 'custom' && !mapping)
          throw invalid('mapping', 'A custom statement needs a mapping of its columns.');
        const kind = await sniffFile(upload.path);
        const source = fields.data.source ?? (mapping ? 'custom' : await recogniseSource(upload.path, kind));
        const answer = await importStatement(
          database,
          payments,
          user,
          { path: upload.path, kind, name: upload.fileName },
          source,
          mapping,
        );
        return reply.code(201).send(answer);
      });
    },
  );

  r.get(
    '/statements',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'listStatements',
        tags,
        summary: "The company's statements, newest first, with their totals (X-Total-Count has the total)",
        querystring: z.object(pageQuery),
        response: {
          200: json(z.array(named(statementSummarySchema, 'StatementSummary')), 'A page of statements'),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const page = await pagedList(
        database,
        {
          table: 'statements',
          key: ['company_id', 'id'],
          where: [sql`t.company_id = ${user.company_id}`],
          filtered: false,
          order: [{ expr: 't.id', desc: true }],
          columns: sql`s.id, s.source, s.file_name, s.lines, s.new_lines, s.duplicate_lines,
                   NULLIF(concat_ws(' ', u.first_name, u.last_name), '') AS user_name,
                   to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
                   COALESCE((SELECT sum(l.amount) FROM statement_lines l
                              WHERE l.company_id = s.company_id AND l.statement_id = s.id AND l.direction = 'in'), 0)::text AS received,
                   COALESCE((SELECT sum(l.amount) FROM statement_lines l
                              WHERE l.company_id = s.company_id AND l.statement_id = s.id AND l.status = 'matched'), 0)::text AS matched,
                   COALESCE((SELECT sum(p.amount_paid) FROM statement_lines l
                              JOIN statement_line_payments lp ON lp.company_id = l.company_id AND lp.line_id = l.id
                              JOIN payments p ON p.company_id = lp.company_id AND p.id = lp.payment_id
                             WHERE l.company_id = s.company_id AND l.statement_id = s.id AND p.status = 'completed'), 0)::text AS posted,
                   (SELECT count(*) FROM statement_lines l WHERE l.company_id = s.company_id AND l.statement_id = s.id
                       AND l.status IN ('unmatched', 'suggested'))::int AS open_lines
                   `,
          joins: sql`JOIN statements s ON s.company_id = t.company_id AND s.id = t.id
                     LEFT JOIN users u ON u.id = s.user_id`,
        },
        request.query,
      );
      sendTotal(reply, page);
      return page.rows.map((s) => ({
        id: Number(s.id),
        source: s.source as (typeof statementSources)[number],
        file_name: String(s.file_name),
        lines: Number(s.lines),
        new_lines: Number(s.new_lines),
        duplicate_lines: Number(s.duplicate_lines),
        user_name: (s.user_name as string | null) ?? null,
        created_at: String(s.created_at),
        received: Number(s.received),
        matched: Number(s.matched),
        posted: Number(s.posted),
        open_lines: Number(s.open_lines),
      }));
    },
  );

  r.delete(
    '/statements/:id',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'deleteStatement',
        tags,
        summary:
          'Undo a statement (company admins): the payments its lines made are voided, its lines and the statement removed, so its file can be uploaded again',
        params: recordIdParams,
        response: {
          200: json(named(statementDeletedSchema, 'StatementDeleted'), 'What the deletion voided'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const id = request.params.id;
      return db.transaction(async (tx) => {
        const [statement] = await execRows<{ id: number; source: string; file_name: string }>(
          tx,
          sql`SELECT id, source, file_name FROM statements
               WHERE company_id = ${user.company_id} AND id = ${id} FOR UPDATE`,
        );
        if (!statement) throw new AppError('not_found', 'Statement not found.');
        const lines = await execRows<{ id: number }>(
          tx,
          sql`SELECT id FROM statement_lines WHERE company_id = ${user.company_id} AND statement_id = ${id}
               ORDER BY id FOR UPDATE`,
        );
        const lineIds = lines.map((l) => Number(l.id));
        const voided = await voidPayments(tx, payments, user, lineIds, VOID_REASONS.statementDeleted);
        if (lineIds.length > 0) {
          const ids = `{${lineIds.join(',')}}`;
          await tx.execute(
            sql`DELETE FROM statement_line_payments
                 WHERE company_id = ${user.company_id} AND line_id = ANY(${ids}::int[])`,
          );
          await tx.execute(
            sql`DELETE FROM statement_lines WHERE company_id = ${user.company_id} AND statement_id = ${id}`,
          );
        }
        await tx.execute(sql`DELETE FROM statements WHERE company_id = ${user.company_id} AND id = ${id}`);
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'delete',
          entity: 'statements',
          recordId: id,
          before: { source: statement.source, file_name: statement.file_name, lines: lineIds.length },
          after: { payments_voided: voided },
          summary:
            `${statement.file_name}: ${lineIds.length} lines removed, ${voided.length} payments voided`.slice(
              0,
              300,
            ),
        });
        return { id, lines_removed: lineIds.length, payments_voided: voided };
      });
    },
  );

  r.get(
    '/statement-lines',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'listStatementLines',
        tags,
        summary:
          'Money received (statement lines and webhook payments): open lines first by default; filters status, statement_id, q (X-Total-Count has the total)',
        querystring: lineQuery,
        response: { 200: json(z.array(named(statementLineSchema, 'StatementLine')), 'A page of lines') },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { q, status, statement_id, sort } = request.query;
      const where: SQL[] = [sql`t.company_id = ${user.company_id}`];
      if (status) where.push(sql`t.status = ${status}`);
      if (statement_id) where.push(sql`t.statement_id = ${statement_id}`);
      const words = searchWords(q);
      if (words) where.push(searchCondition(words));
      const page = await pagedList(
        database,
        {
          table: 'statement_lines',
          key: ['company_id', 'id'],
          where,
          filtered: where.length > 1,
          searched: words !== undefined,
          order: sortOf(sort),
          columns: LINE_COLUMNS,
          joins: sql`JOIN statement_lines l ON l.company_id = t.company_id AND l.id = t.id ${LINE_JOINS}`,
        },
        request.query,
      );
      sendTotal(reply, page);
      return page.rows.map(presentLine);
    },
  );

  const readLine = async (companyId: number, id: number) => {
    const [row] = await execRows<Record<string, unknown>>(
      db,
      sql`${LINE_SELECT} WHERE l.company_id = ${companyId} AND l.id = ${id}`,
    );
    if (!row) throw new AppError('not_found', 'Statement line not found.');
    return presentLine(row);
  };
  const Line = named(statementLineSchema, 'StatementLine');

  r.get(
    '/statement-lines/:id',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'getStatementLine',
        tags,
        summary: 'One line of money received',
        params: recordIdParams,
        response: { 200: json(Line, 'The line'), ...errors(404) },
      },
    },
    async (request) => readLine(currentUser(request).company_id, request.params.id),
  );

  r.post(
    '/statement-lines/:id/match',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'matchStatementLine',
        tags,
        summary:
          'Match a line to one lease or split it across several: one completed payment per allocation (they must add up to the line)',
        params: recordIdParams,
        body: matchBodySchema,
        response: { 200: json(Line, 'The line, matched, with its payments'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { allocations } = request.body;
      await db.transaction(async (tx) => {
        const line = await lockLine(tx, user.company_id, request.params.id);
        if (line.status === 'matched') throw new AppError('conflict', 'This line is matched already.');
        if (line.status === 'ignored') throw new AppError('conflict', 'This line is ignored.');
        // a line stored before dates were checked (year 275760, shown as 9999-12-31) makes no payment
        if (!isReceivedWhen(line.date))
          throw new AppError(
            'conflict',
            `This line's date (${line.date}) cannot be a day money came in: ignore the line.`,
          );
        checkAllocations(line.amount, allocations);
        await postPayments(tx, payments, user, [
          {
            lineId: line.id,
            source: line.source,
            transaction_id: line.transaction_id,
            date: line.date,
            payer: line.payer_name ?? line.payer_phone,
            allocations: allocations.map((a) => ({
              occupancy_id: a.occupancy_id,
              amount: formatCents(toCents(a.amount)),
            })),
          },
        ]);
        const [first] = allocations;
        await tx.execute(
          sql`UPDATE statement_lines SET status = 'matched', confidence = 100, ignore_reason = NULL,
                     occupancy_id = ${allocations.length === 1 && first ? first.occupancy_id : null},
                     tenant_id = CASE WHEN ${allocations.length === 1} THEN
                       (SELECT tenant_id FROM occupancy WHERE company_id = ${user.company_id} AND id = ${first?.occupancy_id ?? 0})
                       ELSE tenant_id END,
                     match_reason = ${'Matched by hand'},
                     version = version + 1, updated_at = now()
               WHERE company_id = ${user.company_id} AND id = ${line.id}`,
        );
        // matched to one lease: later lines of its phone (or reference) go to it (issue 26)
        if (allocations.length === 1 && first)
          await followHandMatch(tx, payments, user, line, first.occupancy_id);
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'match',
          entity: 'statement_lines',
          recordId: line.id,
          before: { status: line.status },
          after: { status: 'matched', allocations },
          summary: `${line.source} ${line.transaction_id}: ${line.amount} on ${line.date}${line.payer_name || line.payer_phone ? ` from ${line.payer_name ?? line.payer_phone}` : ''}`,
        });
      });
      return readLine(user.company_id, request.params.id);
    },
  );

  r.post(
    '/statement-lines/:id/ignore',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'ignoreStatementLine',
        tags,
        summary: 'Ignore a line that is not rent (with a reason); a matched line is unmatched first',
        params: recordIdParams,
        body: ignoreBodySchema,
        response: { 200: json(Line, 'The line, ignored'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await db.transaction(async (tx) => {
        const line = await lockLine(tx, user.company_id, request.params.id);
        if (line.status === 'matched') throw new AppError('conflict', 'Unmatch this line first.');
        await tx.execute(
          sql`UPDATE statement_lines SET status = 'ignored', ignore_reason = ${request.body.reason},
                     occupancy_id = NULL, tenant_id = NULL, confidence = 0,
                     version = version + 1, updated_at = now()
               WHERE company_id = ${user.company_id} AND id = ${line.id}`,
        );
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'ignore',
          entity: 'statement_lines',
          recordId: line.id,
          before: { status: line.status },
          after: { status: 'ignored', ignore_reason: request.body.reason },
          summary: `${line.source} ${line.transaction_id}: ${line.amount} on ${line.date}${line.payer_name || line.payer_phone ? ` from ${line.payer_name ?? line.payer_phone}` : ''}`,
        });
      });
      return readLine(user.company_id, request.params.id);
    },
  );

  r.post(
    '/statement-lines/:id/unmatch',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'unmatchStatementLine',
        tags,
        summary:
          'Unmatch a line (admins): the payments it made are voided (status void, kept with their numbers and an audit entry)',
        params: recordIdParams,
        response: { 200: json(Line, 'The line, open again'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await db.transaction(async (tx) => {
        const line = await lockLine(tx, user.company_id, request.params.id);
        if (line.status !== 'matched' && line.status !== 'ignored')
          throw new AppError('conflict', 'This line is not matched.');
        if (line.status === 'matched')
          await voidPayments(tx, payments, user, [line.id], 'Its statement line was unmatched.');
        await tx.execute(
          sql`UPDATE statement_lines
                 SET status = CASE WHEN occupancy_id IS NOT NULL OR tenant_id IS NOT NULL THEN 'suggested' ELSE 'unmatched' END,
                     ignore_reason = NULL, version = version + 1, updated_at = now()
               WHERE company_id = ${user.company_id} AND id = ${line.id}`,
        );
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'unmatch',
          entity: 'statement_lines',
          recordId: line.id,
          before: { status: line.status },
          after: { status: 'open', payments_voided: line.status === 'matched' },
          summary: `${line.source} ${line.transaction_id}: ${line.amount} on ${line.date}${line.payer_name || line.payer_phone ? ` from ${line.payer_name ?? line.payer_phone}` : ''}`,
        });
      });
      return readLine(user.company_id, request.params.id);
    },
  );

  // ------------------------------------------------------------ the payment webhook
  await app.register(async (hook) => {
    // the body's exact text is what is signed: kept as received, then parsed
    hook.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = String(body);
      rawBodies.set(request, text);
      try {
        done(null, JSON.parse(text) as unknown);
      } catch {
        done(new AppError('bad_request', 'The body is not JSON.'), undefined);
      }
    });
    const w = hook.withTypeProvider<ZodTypeProvider>();
    // a secret the server's keys cannot open (SECRET_KEY changed alone): 503, the caller retries later
    const openSecretOf = (companyId: number, stored: string) => {
      try {
        return openWebhookSecret(ctx.secrets, stored, companyId);
      } catch (err) {
        if (err instanceof SecretUnavailableError)
          throw new AppError(
            'secret_unavailable',
            'This webhook cannot check signatures at the moment. Try again later.',
          );
        throw err;
      }
    };
    const params = z.object({ company_key: z.string().regex(/^[0-9a-f]{32}$/, 'Unknown webhook.') });
    w.post(
      '/webhooks/payments/:company_key',
      {
        config: { access: 'public', sessionless: true },
        schema: {
          operationId: 'receivePaymentWebhook',
          tags,
          summary:
            'A payment received, from a mobile-money aggregator (signed: X-Kodi-Signature t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">); no session, no CSRF',
          security: [],
          params,
          headers: z.object({ 'x-kodi-signature': z.string().max(500).optional() }),
          body: paymentWebhookBodySchema,
          response: {
            200: json(
              named(paymentWebhookAnswerSchema, 'PaymentWebhookAnswer'),
              'Kept (or kept before: duplicate)',
            ),
            ...errors(401, 422, 503),
          },
        },
        // the signature before the body's rules: an unsigned caller learns nothing
        preValidation: async (request) => {
          const key = (request.params as { company_key?: string }).company_key ?? '';
          const [hookRow] = await database.query<{ company_id: number; secret: string }>(
            'SELECT company_id, secret FROM payment_webhooks WHERE company_key = $1',
            [key],
          );
          const header = request.headers['x-kodi-signature'];
          const signature = Array.isArray(header) ? header[0] : header;
          const body = rawBodies.get(request) ?? '';
          // an unknown key is checked against a made-up secret: the same work and the same answer
          const secret = hookRow
            ? openSecretOf(Number(hookRow.company_id), hookRow.secret)
            : 'no-such-webhook';
          const ok = verifyWebhookSignature(signature, body, secret, Date.now());
          if (!hookRow || !ok) throw new AppError('bad_signature');
          (request as FastifyRequest & { webhookCompany?: number }).webhookCompany = Number(
            hookRow.company_id,
          );
        },
      },
      async (request) => {
        const companyId = (request as FastifyRequest & { webhookCompany?: number }).webhookCompany;
        if (!companyId) throw new AppError('bad_signature');
        const body = request.body;
        const cells = await companyCells(db, companyId);
        if (body.currency !== cells.currency.code)
          throw new AppError(
            'wrong_currency',
            `The payment is in ${body.currency}; the company's currency is ${cells.currency.code}.`,
          );
        const [known] = await execRows<{ id: number; status: string }>(
          db,
          sql`SELECT id, status FROM statement_lines
               WHERE company_id = ${companyId} AND source = 'webhook' AND transaction_id = ${body.transaction_id}`,
        );
        if (known) return { id: Number(known.id), status: known.status as 'matched', duplicate: true };
        // (the body's rule took a date, or a date and time from 2000 on and at most a day ahead):
        // a date, or a time without an offset, is the company's own day; a time with one is read in its zone
        const date = /(Z|[+-]\d{2}:\d{2})$/i.test(body.paid_at)
          ? localTime(await companyTimezone(database, companyId), new Date(body.paid_at)).date
          : body.paid_at.slice(0, 10);
        const line = {
          transaction_id: body.transaction_id,
          date,
          amount: body.amount,
          direction: 'in' as const,
          payer_phone: body.payer_phone ?? null,
          payer_name: body.payer_name ?? null,
          reference: body.reference ?? null,
          source: 'webhook',
        };
        const index = await loadMatchIndex(db, companyId);
        const autoPost = await autoPostOf(db, companyId);
        const [match] = await matchLines(
          database,
          companyId,
          index,
          [{ date, amount: toCents(body.amount), payer_phone: line.payer_phone, reference: line.reference }],
          autoPost,
        );
        const [id] = await db.transaction(async (tx) => {
          const written = await writeLines(tx, payments, { company_id: companyId, id: null }, null, [
            { ...line, match: match ?? null },
          ]);
          const lineId = written[0];
          // the delivery in the audit log, with the line it made (a duplicate made none)
          if (lineId !== null && lineId !== undefined)
            await recordAuditEntry(tx, {
              companyId,
              userId: null,
              action: 'webhook',
              entity: 'statement_lines',
              recordId: lineId,
              after: { ...line, currency: body.currency, status: match?.status ?? 'unmatched' },
              summary: `Payment webhook ${body.transaction_id}: ${body.amount} ${body.currency}${
                line.payer_name || line.payer_phone ? ` from ${line.payer_name ?? line.payer_phone}` : ''
              }`,
            });
          return written;
        });
        if (id === null || id === undefined) {
          // the same transaction arrived meanwhile
          const [row] = await execRows<{ id: number; status: string }>(
            db,
            sql`SELECT id, status FROM statement_lines
                 WHERE company_id = ${companyId} AND source = 'webhook' AND transaction_id = ${body.transaction_id}`,
          );
          return { id: Number(row?.id), status: (row?.status ?? 'unmatched') as 'matched', duplicate: true };
        }
        return { id, status: match?.status ?? 'unmatched', duplicate: false };
      },
    );
  });
};
