import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  addDays,
  addMonths,
  isValidIsoDate,
  ownerPayoutSchema,
  ownerStatementSchema,
  payoutMethod,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams, sendDownload } from '../../crud/record-route.ts';
import { sendTabular } from '../../crud/export.ts';
import { pdfWriter, xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';
import { requestWords } from '../../plugins/i18n.ts';
import { companyMoney, ownerLanguage } from '../../modules/companies/company.ts';
import { companyLogo, companyToday } from '../../modules/companies/company-settings.ts';
import { ownerStatementPdf } from '../../modules/owner-money/statement-pdf.ts';
import { taxCertificatePdf } from '../../modules/owner-money/tax-certificate-pdf.ts';
import { ownerTaxCertificate } from '../../modules/owner-money/rental-tax.ts';
import { queueOwnerStatement } from '../../modules/owner-money/statement-send.ts';
import { errors, file, json, named, PDF, XLSX } from '../../plugins/openapi.ts';
import {
  listPayouts,
  ownerStatement,
  payOwner,
  proposePayouts,
} from '../../modules/owner-money/owner-money.ts';

const day = (what = 'date') =>
  z
    .string()
    .refine(isValidIsoDate, `Use a ${what} as YYYY-MM-DD.`)
    .refine((d) => d >= '1900-01-01' && d <= '2199-12-31', 'The date must be from 1900 to 2199.');
const MONEY = /^\d{1,12}(\.\d{1,2})?$/;
const amount = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? v.toFixed(2) : v.trim()))
  .refine((v) => MONEY.test(v) && Number(v) > 0, 'Enter an amount more than 0, at most 2 decimals.');

const payoutBody = z.strictObject({
  owner_id: z.int().positive(),
  date: day(),
  amount,
  method: z.enum(payoutMethod.values as unknown as ['bank', 'mobilemoney', 'cash', 'check']),
  reference: z.string().trim().max(255, 'Maximum 255 characters.').nullish(),
  override: z.boolean().optional(),
  reason: z.string().trim().max(1000, 'Maximum 1000 characters.').nullish(),
});

const OwnerPayout = named(ownerPayoutSchema, 'OwnerPayout');

const Available = named(
  z.object({
    owner_id: z.int(),
    owner_name: z.string(),
    payout_method: z.string().nullable(),
    held: z.string().describe('Owner funds held'),
    reserve: z.string().describe("The owner's share of their properties' reserves"),
    available: z.string().describe('Held less the reserve, never below 0'),
  }),
  'OwnerAvailable',
);

const payoutQuery = z.object({
  owner_id: z.coerce.number().int().positive().optional(),
  from: day().optional(),
  to: day().optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(100),
});

const PAYOUT_COLUMNS: TabularColumn[] = [
  { key: 'date', label: 'Date', kind: 'date', text: 'payouts.date' },
  { key: 'owner_name', label: 'Owner', kind: 'text', text: 'payouts.owner' },
  { key: 'amount', label: 'Amount', kind: 'money', text: 'payouts.amount' },
  { key: 'method', label: 'Method', kind: 'text', text: 'payouts.method' },
  { key: 'reference', label: 'Reference', kind: 'text', text: 'payouts.reference' },
  { key: 'override_reason', label: 'Override reason', kind: 'text', text: 'doc.export.overrideReason' },
];

const Statement = named(ownerStatementSchema, 'OwnerStatement');

const statementQuery = z.object({ from: day().optional(), to: day().optional() });

const firstOfMonth = (d: string) => `${d.slice(0, 7)}-01`;

const monthQuery = z.object({
  month: z
    .string()
    .regex(/^(19|20|21)\d\d-(0[1-9]|1[0-2])$/, 'Use a month as YYYY-MM.')
    .optional(),
});

/**
 * Issue 27: owners' payouts (made by admins and company admins; listed and exported like the other
 * money lists) and statements (read by any staff, as the reports are).
 */
export const ownerMoneyRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  /**
   * A statement's period: `to` today by default, `from` the first of its month; with `from` alone, `to`
   * is the end of `from`'s month or the company's today if sooner (a browser elsewhere may still be on
   * yesterday, or already on tomorrow: the web sends the month's first day only).
   */
  const period = async (companyId: number, q: { from?: string | undefined; to?: string | undefined }) => {
    const today = await companyToday(database, companyId);
    const monthEnd = q.from === undefined ? today : addDays(addMonths(firstOfMonth(q.from), 1), -1);
    const to = q.to ?? (monthEnd < today ? monthEnd : today);
    const from = q.from ?? firstOfMonth(to);
    if (from > to)
      throw new AppError('validation_failed', 'The start must be on or before the end.', {
        from: 'On or before the end.',
      });
    return { from, to };
  };

  r.post(
    '/owner-payouts',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'createOwnerPayout',
        tags: ['owners'],
        summary:
          'Pay an owner out of their funds held (above what is available: 409 above_available, unless `override` with a `reason`)',
        body: payoutBody,
        response: { 201: json(OwnerPayout, 'The payout, posted'), ...errors(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const payout = await database.db.transaction((tx) =>
        payOwner(tx, user.company_id, user.id, request.body),
      );
      return reply.code(201).send(payout);
    },
  );

  r.get(
    '/owner-payouts',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listOwnerPayouts',
        tags: ['owners'],
        summary: 'The payouts to owners, newest first (filters: owner, from, to)',
        querystring: payoutQuery,
        response: { 200: json(z.array(OwnerPayout), 'A page of payouts (X-Total-Count: how many in all)') },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const page = await listPayouts(database.db, user.company_id, request.query);
      void reply.header('X-Total-Count', String(page.total));
      return page.rows;
    },
  );

  r.get(
    '/owner-payouts/export',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'exportOwnerPayouts',
        tags: ['owners'],
        summary: 'The payouts to owners (same filters as the list) as xlsx or pdf',
        querystring: payoutQuery
          .omit({ page: true, page_size: true })
          .extend({ fmt: z.enum(['xlsx', 'pdf']) }),
        response: { 200: file('The payouts (named in Content-Disposition)', XLSX, PDF) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const q = request.query;
      const money = await companyMoney(database, user.company_id);
      const words = requestWords(request);
      const title = words.td('payouts.title', 'Owner payouts');
      const writer = (q.fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, PAYOUT_COLUMNS, money, words);
      const name = `owner_payouts_${q.from ?? 'start'}_${q.to ?? (await companyToday(database, user.company_id))}.${q.fmt}`;
      return sendTabular(reply, request, name, writer, async (w) => {
        for (let page = 1; ; page++) {
          const { rows } = await listPayouts(database.db, user.company_id, { ...q, page, page_size: 1000 });
          await w.write(
            rows.map((p) => ({ ...p, method: words.td(`payouts.method.${p.method}`, p.method) })),
          );
          if (rows.length < 1000) break;
        }
      });
    },
  );

  r.post(
    '/owner-payouts/propose',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'proposeOwnerPayouts',
        tags: ['owners'],
        summary:
          "Every owner's funds held and available on `as_of` (a payout run staff confirm line by line)",
        body: z.strictObject({ as_of: day().optional() }),
        response: { 200: json(z.array(Available), 'Each owner, by name') },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const asOf = request.body.as_of ?? (await companyToday(database, user.company_id));
      return proposePayouts(database.db, user.company_id, asOf);
    },
  );

  r.get(
    '/owners/:id/statement',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getOwnerStatement',
        tags: ['owners'],
        summary:
          "An owner's statement from `from` (default: the first of `to`'s month) through `to` (default: the end of `from`'s month or today if sooner; today without `from`), per property",
        params: recordIdParams,
        querystring: statementQuery,
        response: { 200: json(Statement, 'The statement'), ...errors(400, 404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { from, to } = await period(user.company_id, request.query);
      return ownerStatement(database.db, user.company_id, request.params.id, from, to);
    },
  );

  r.get(
    '/owners/:id/statement.pdf',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getOwnerStatementPdf',
        tags: ['owners'],
        summary: "An owner's statement (as `/owners/{id}/statement`) as a PDF",
        params: recordIdParams,
        querystring: statementQuery,
        response: { 200: file('The statement (named in Content-Disposition)', PDF), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { from, to } = await period(user.company_id, request.query);
      const statement = await ownerStatement(database.db, user.company_id, request.params.id, from, to);
      const company = await companyMoney(database, user.company_id);
      const logo = await companyLogo(database, user.company_id);
      return sendDownload(
        reply.header('Cache-Control', 'no-store'),
        'application/pdf',
        `owner_statement_${statement.owner_id}_${from}_${to}.pdf`,
        ownerStatementPdf(
          statement,
          company,
          logo,
          await ownerLanguage(database, user.company_id, request.params.id),
        ),
      );
    },
  );

  r.get(
    '/owners/:id/tax-certificate',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getOwnerTaxCertificate',
        tags: ['owners'],
        summary:
          "An owner's certificate of rental tax withheld in a month (default: this one), per property, as a PDF",
        params: recordIdParams,
        querystring: monthQuery,
        response: { 200: file('The certificate (named in Content-Disposition)', PDF), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const month = request.query.month ?? (await companyToday(database, user.company_id)).slice(0, 7);
      const cert = await ownerTaxCertificate(database, user.company_id, request.params.id, month);
      const company = await companyMoney(database, user.company_id);
      const logo = await companyLogo(database, user.company_id);
      return sendDownload(
        reply.header('Cache-Control', 'no-store'),
        'application/pdf',
        `rental_tax_certificate_${cert.owner.id}_${month}.pdf`,
        taxCertificatePdf(cert, company, logo),
      );
    },
  );

  r.post(
    '/owners/:id/statement/send',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'sendOwnerStatement',
        tags: ['owners'],
        summary:
          "Send an owner's statement of `from` (default: the first of `to`'s month) through `to` (default: the end of `from`'s month or today if sooner; today without `from`) " +
          'by e-mail and SMS (with the link to the owner portal) through the message log; once a day per period',
        params: recordIdParams,
        body: z.strictObject({ from: day().optional(), to: day().optional() }),
        response: {
          200: json(
            z.object({
              from: z.iso.date(),
              to: z.iso.date(),
              sent: z.array(
                z.object({
                  channel: z.enum(['email', 'sms']),
                  to: z.string().nullable(),
                  status: z.enum(['queued', 'skipped', 'already']),
                  message_id: z.int().nullable(),
                }),
              ),
            }),
            'Each channel: queued, skipped (no address: logged as such) or already sent today',
          ),
          ...errors(400, 404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { from, to } = await period(user.company_id, request.body);
      const today = await companyToday(database, user.company_id);
      const sent = await queueOwnerStatement(database, {
        companyId: user.company_id,
        ownerId: request.params.id,
        from,
        to,
        publicUrl: ctx.config.publicUrl,
        key: `owner-statement:${request.params.id}:${from}:${to}:${today}`,
      });
      return { from, to, sent };
    },
  );
};
