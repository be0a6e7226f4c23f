import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  LANGUAGES,
  resolveLanguage,
  buildLedger,
  formatCents,
  formatDate,
  formatMoney,
  messageChannel,
  messageKind,
  messageProvidersSchema,
  messageReason,
  messageSchema,
  messageStatus,
  messageTemplateBody,
  messageTemplateSchema,
  messageTemplateUpdateBody,
  rentCharges,
  templatePreviewBody,
  templatePreviewSchema,
  templateWarnings,
  testMessageBody,
  toCents,
  type TemplateValues,
  howToPayLines,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { howToPayWords } from '../../plugins/i18n.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { searchQuery } from '../../crud/export.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { companyToday, loadSettings } from '../../modules/companies/company-settings.ts';
import { loadLeaseBook } from '../../modules/leases/lease-book.ts';
import {
  TEMPLATE_COLUMNS,
  templateColumns,
  createTemplate,
  deleteTemplate,
  ensureTemplates,
  renderMessage,
  updateTemplate,
  type TemplateRow,
} from '../../modules/messaging/message-templates.ts';
import { smsProvider } from '../../platform/sms.ts';
import { pagedList, searchCondition, searchWords, sendTotal, sortOrder } from '../../crud/paged-list.ts';
import { empty, errors, json, named } from '../../plugins/openapi.ts';
import { outbox } from '../../modules/messaging/outbox.ts';
import { readWhatsappRow } from '../../modules/messaging/whatsapp.ts';

const Message = named(messageSchema, 'Message');
const MessageTemplate = named(messageTemplateSchema, 'MessageTemplate');
const TemplatePreview = named(templatePreviewSchema, 'MessageTemplatePreview');
const MessageProviders = named(messageProvidersSchema, 'MessageProviders');

/** The log's sorts: a field, `-` first for descending. */
const MESSAGE_SORTS = [
  'id',
  'created_at',
  'status',
  'channel',
  'kind',
  'tenant_name',
  'to',
  'attempts',
] as const;

const MESSAGE_SORT_COLUMNS = Object.fromEntries(
  MESSAGE_SORTS.map((f) => [f, f === 'to' ? 't."to"' : `t.${f}`]),
);

const messagesQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(25),
  q: searchQuery,
  sort: z
    .string()
    .max(30)
    .refine((s) => (MESSAGE_SORTS as readonly string[]).includes(s.replace(/^-/, '')), 'Unknown sort field.')
    .optional(),
  status: z
    .enum(messageStatus.values as readonly ['queued', 'sending', 'sent', 'failed', 'skipped'])
    .optional(),
  channel: z.enum(messageChannel.values).optional(),
  kind: z.enum(messageKind.values).optional(),
  tenant_id: z.coerce.number().int().positive().max(2147483647).optional(),
});

/**
 * The log never shows what would let its reader sign in as a tenant: a one-time sign-in code's digits
 * and an invitation link's token are hidden (the tenant's own message carries them).
 */
const shownBody = (m: string) => `CASE ${m}.kind
    WHEN 'sign_in_code' THEN regexp_replace(${m}.body, '[0-9]{6}', '••••••', 'g')
    WHEN 'invitation' THEN regexp_replace(${m}.body, 'token=[^[:space:]]+', 'token=…', 'g')
    ELSE ${m}.body END AS body`;

/** A message's columns, of the row `m` (the list's `t`). */
const messageColumns = (
  m: string,
) => `${m}.id, to_char(${m}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at, ${m}.kind,
  ${m}.channel, ${m}."to", ${m}.tenant_id, ${m}.tenant_name, ${m}.subject, ${shownBody(m)}, ${m}.status, ${m}.attempts, ${m}.error,
  to_char(${m}.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS sent_at, ${m}.delivery_status, ${m}.external_id`;
const MESSAGE_COLUMNS = messageColumns('m');

const presentTemplate = (r: TemplateRow) => ({
  ...r,
  id: Number(r.id),
  version: Number(r.version),
  warnings: templateWarnings(r),
});
const presentMessage = (r: Record<string, unknown>) => ({
  ...r,
  id: Number(r.id),
  tenant_id: r.tenant_id === null ? null : Number(r.tenant_id),
  attempts: Number(r.attempts),
  reason: messageReason({
    status: String(r.status),
    error: r.error === null ? null : String(r.error),
    channel: String(r.channel),
    kind: String(r.kind),
  }),
});

const notFound = (what: string) => new AppError('not_found', `${what} not found.`);

/**
 * The messages' routes (issue 17): the log (`GET /messages`, paged, searched, sorted and filtered in
 * SQL), a failed or skipped message sent again, what the server can send through, and the company's
 * templates (read by any role, changed by admins and company admins) with a preview on a lease.
 */
export const messageRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database;

  r.get(
    '/messages',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'listMessages',
        tags: ['messages'],
        summary: 'The message log: reminders and receipts sent, queued, failed or skipped (newest first)',
        querystring: messagesQuery,
        response: { 200: json(z.array(Message), 'A page of messages (X-Total-Count: how many in all)') },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const q = request.query;
      const where: SQL[] = [sql`t.company_id = ${user.company_id}`];
      if (q.status) where.push(sql`t.status = ${q.status}`);
      if (q.channel) where.push(sql`t.channel = ${q.channel}`);
      if (q.kind) where.push(sql`t.kind = ${q.kind}`);
      if (q.tenant_id) where.push(sql`t.tenant_id = ${q.tenant_id}`);
      const words = searchWords(q.q);
      if (words) where.push(searchCondition(words));
      const page = await pagedList(
        db,
        {
          table: 'messages',
          key: ['company_id', 'id'],
          where,
          filtered: where.length > 1,
          // NULLs (no address, no tenant) last going down, first going up
          order: sortOrder(q.sort, MESSAGE_SORT_COLUMNS, [{ expr: 't.id', desc: true }], (desc) =>
            desc ? 'last' : 'first',
          ),
          columns: sql.raw(messageColumns('t')),
        },
        q,
      );
      sendTotal(reply, page);
      return page.rows.map(presentMessage) as z.infer<typeof messageSchema>[];
    },
  );

  r.post(
    '/messages/:id/retry',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'retryMessage',
        tags: ['messages'],
        summary: 'Send a failed or skipped message again (its attempts start over)',
        params: recordIdParams,
        response: { 200: json(Message, 'The message, queued again'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      if (await outbox.requeue(db.db, user.company_id, id)) {
        const rows = await db.query(
          `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.company_id = $1 AND m.id = $2`,
          [user.company_id, id],
        );
        return presentMessage(rows[0] ?? {}) as z.infer<typeof messageSchema>;
      }
      const exists = await db.query(`SELECT 1 FROM messages WHERE company_id = $1 AND id = $2`, [
        user.company_id,
        id,
      ]);
      if (exists.length === 0) throw notFound('Message');
      throw new AppError('not_retryable');
    },
  );

  r.post(
    '/messages/test',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'sendTestMessage',
        tags: ['messages'],
        summary: 'Queue a test message to an address (to check SMTP_URL and SMS_URL); it appears in the log',
        body: testMessageBody,
        response: { 201: json(Message, 'The message, queued') },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { channel, to } = request.body;
      const company = await companyMoney(db, user.company_id);
      const [queued] = await outbox.enqueue(db.db, [
        {
          company_id: user.company_id,
          kind: 'test',
          channel,
          to,
          subject: channel === 'email' ? `Test message from ${company.name}` : null,
          body: `This is a test message from ${company.name}, sent by Kodi.`,
        },
      ]);
      const rows = await db.query(
        `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.company_id = $1 AND m.id = $2`,
        [user.company_id, queued?.id ?? null],
      );
      return reply.code(201).send(presentMessage(rows[0] ?? {}) as z.infer<typeof messageSchema>);
    },
  );

  r.get(
    '/messages/providers',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getMessageProviders',
        tags: ['messages'],
        summary:
          'Whether this server can send e-mail (SMTP_URL) and SMS (SMS_URL), and whether the company has WhatsApp on',
        response: { 200: json(MessageProviders, 'What is configured') },
      },
    },
    async (request) => ({
      email: !!ctx.config.smtpUrl,
      sms: !!smsProvider(ctx.config.smsUrl),
      whatsapp: !!(await readWhatsappRow(db.db, currentUser(request).company_id))?.enabled,
    }),
  );

  // ---------------------------------------------------------------------------------- templates

  r.get(
    '/message-templates',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listMessageTemplates',
        tags: ['messages'],
        summary: 'The company’s message templates (it starts with one per event and channel)',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(1_000_000).default(1),
          page_size: z.coerce.number().int().min(1).max(500).default(100),
          /** only the templates written in this language (issue 30) */
          language: z.enum(LANGUAGES).optional(),
        }),
        response: { 200: json(z.array(MessageTemplate), 'A page of templates, by kind and channel') },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await ensureTemplates(db, user.company_id);
      const page = await pagedList<TemplateRow>(
        db,
        {
          table: 'message_templates',
          key: ['company_id', 'id'],
          where: [
            sql`t.company_id = ${user.company_id}`,
            ...(request.query.language ? [sql`t.language = ${request.query.language}`] : []),
          ],
          filtered: request.query.language !== undefined,
          // by event (before due, due, overdue, the others), then channel: message_templates_kind_idx
          order: [
            {
              expr: `CASE t.kind WHEN 'before_due' THEN 1 WHEN 'due' THEN 2 WHEN 'overdue' THEN 3 ELSE 4 END`,
              desc: false,
            },
            { expr: 't.channel', desc: false },
            { expr: 't.id', desc: false },
          ],
          columns: sql.raw(templateColumns('t.')),
        },
        request.query,
      );
      sendTotal(reply, page);
      return page.rows.map(presentTemplate);
    },
  );

  const oneTemplate = async (companyId: number, id: number) => {
    const rows = await db.query<TemplateRow>(
      `SELECT ${TEMPLATE_COLUMNS} FROM message_templates WHERE company_id = $1 AND id = $2`,
      [companyId, id],
    );
    if (!rows[0]) throw notFound('Template');
    return rows[0];
  };

  r.get(
    '/message-templates/:id',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getMessageTemplate',
        tags: ['messages'],
        summary: 'One message template',
        params: recordIdParams,
        response: { 200: json(MessageTemplate, 'The template'), ...errors(404) },
      },
    },
    async (request) => presentTemplate(await oneTemplate(currentUser(request).company_id, request.params.id)),
  );

  r.post(
    '/message-templates',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'createMessageTemplate',
        tags: ['messages'],
        summary: 'Add a message template ({{variables}} as listed; an unknown one is refused)',
        body: messageTemplateBody,
        response: {
          201: json(MessageTemplate, 'The template as stored (warnings: an SMS over 160 characters)'),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await ensureTemplates(db, user.company_id);
      const t = request.body;
      // the template and its audit entry in one statement
      const created = await createTemplate(db, user.company_id, user.id, {
        ...t,
        subject: t.channel === 'email' ? t.subject : null,
      });
      return reply.code(201).send(presentTemplate(created as TemplateRow));
    },
  );

  r.put(
    '/message-templates/:id',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'updateMessageTemplate',
        tags: ['messages'],
        summary: 'Change a message template (send the version you read; 409 if it changed)',
        params: recordIdParams,
        body: messageTemplateUpdateBody,
        response: { 200: json(MessageTemplate, 'The template as stored'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const t = request.body;
      const updated = await updateTemplate(db, user.company_id, request.params.id, t.version, user.id, {
        name: t.name,
        channel: t.channel,
        kind: t.kind,
        subject: t.channel === 'email' ? t.subject : null,
        body: t.body,
        language: t.language,
      });
      if (updated) return presentTemplate(updated);
      await oneTemplate(user.company_id, request.params.id); // 404 when it is not the company's
      throw new AppError('conflict');
    },
  );

  r.delete(
    '/message-templates/:id',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'deleteMessageTemplate',
        tags: ['messages'],
        summary:
          'Delete a message template (reminders naming it use the company’s other one, or the built-in text)',
        params: recordIdParams,
        response: { 204: empty('The template is deleted'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (!(await deleteTemplate(db, user.company_id, request.params.id, user.id)))
        throw notFound('Template');
      return reply.code(204).send();
    },
  );

  r.post(
    '/message-templates/:id/preview',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'previewMessageTemplate',
        tags: ['messages'],
        summary:
          'The template rendered for a lease: its next rent due, its balance, its last completed payment',
        params: recordIdParams,
        body: templatePreviewBody,
        response: { 200: json(TemplatePreview, 'The message as it would go out'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const template = await oneTemplate(user.company_id, request.params.id);
      // its money and dates as its readers read them (issue 30: the template's language)
      const language = resolveLanguage(template.language);
      const today = await companyToday(db, user.company_id);
      const book = await loadLeaseBook(db, user.company_id, request.body.occupancy_id, today);
      const money = await companyMoney(db, user.company_id);
      const fmt = (cents: ReturnType<typeof toCents>) =>
        formatMoney(formatCents(cents), money.currency, money.decimals, language);
      const ledger = buildLedger(book.lease, book.payments, today, book.extras);
      // the next rent charge on or after today (or the last one, for an ended lease)
      const charges = rentCharges(book.lease, addYears(today));
      const next = charges.find((c) => c.due_date >= today) ?? charges[charges.length - 1];
      const last = await db.query<{
        amount_paid: string;
        receipt_number: string | null;
        id: number;
        receipt_code: string | null;
      }>(
        `SELECT id, amount_paid::text AS amount_paid, receipt_number, receipt_code FROM payments
          WHERE company_id = $1 AND occupancy_id = $2 AND status = 'completed' ORDER BY payment_date DESC, id DESC LIMIT 1`,
        [user.company_id, request.body.occupancy_id],
      );
      const paid = last[0];
      const values: TemplateValues = {
        tenant_first_name: book.lease.tenant_first_name,
        unit_name: book.lease.unit_name,
        account_reference: book.lease.account_reference ?? '',
        how_to_pay: howToPayLines(
          (await loadSettings(db, user.company_id)).payment_instructions,
          book.lease.account_reference,
          howToPayWords(language),
        ).join('; '),
        amount_due: next ? fmt(next.amount) : '',
        due_date: next ? formatDate(next.due_date, language) : '',
        balance: fmt(ledger.balance),
        company_name: money.name,
        receipt_number: paid ? String(paid.receipt_number ?? paid.id) : '',
        amount_paid: paid ? formatMoney(paid.amount_paid, money.currency, money.decimals, language) : '',
        receipt_url: paid?.receipt_code ? `${ctx.config.publicUrl}/r/${paid.receipt_code}` : '',
      };
      const text = renderMessage(template, values);
      return {
        channel: template.channel,
        ...text,
        warnings: templateWarnings({ channel: template.channel, body: text.body }),
      };
    },
  );
};

const addYears = (iso: string) => `${Number(iso.slice(0, 4)) + 1}${iso.slice(4)}`;
