import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  initialsOf,
  publicReceiptMessages,
  publicReceiptSchema,
  publicReceiptTitles,
  receiptVoidedMessage,
  type PublicReceipt,
  type PublicReceiptStatus,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { hitRateLimit } from '../../plugins/rate-limit.ts';
import { answerFloor } from '../../platform/answer-floor.ts';
import { errors, file, json, named } from '../../plugins/openapi.ts';

/** Every answer of these routes, a known code or not, takes at least this long (see `lookUp`). */
export const RECEIPT_FLOOR_MS = 40;

/** Look-ups of receipts (their data and their logos) from one address, per minute. */
export const RECEIPT_LOOKUPS_PER_MINUTE = 60;

/** Any text up to 100 characters: a code of another shape is as unknown as a wrong one (404, same time). */
const codeParams = z.object({ code: z.string().min(1).max(100) });

const answer = named(publicReceiptSchema, 'PublicReceipt');

const notFound = () => new AppError('not_found', 'Receipt not found.');

type Row = {
  state: 'live' | 'revoked';
  status: string | null;
  receipt_number: string | null;
  payment_date: string | null;
  amount: string | null;
  voided_at: string | null;
  voided_on: string | null;
  unit_name: string | null;
  first_initial: string | null;
  last_initial: string | null;
  company_name: string;
  currency: string | null;
  decimals: number | null;
  has_logo: boolean;
};

/**
 * One statement for a known and an unknown code alike (the payment, else the trail its delete left,
 * with its company, currency and whether it has a logo): only the first letters of the tenant's names
 * leave the database.
 */
const LOOKUP = `
  WITH found AS (
    SELECT 'live' AS state, p.company_id, p.status, p.receipt_number, p.payment_date::text AS payment_date,
           p.amount_paid::text AS amount, p.voided_at, p.unit_name, left(t.first_name, 1) AS first_initial,
           left(t.last_name, 1) AS last_initial
      FROM payments p LEFT JOIN tenants t ON t.company_id = p.company_id AND t.id = p.tenant_id
     WHERE p.receipt_code = $1
    UNION ALL
    SELECT 'revoked', r.company_id, NULL, r.receipt_number, NULL, NULL, NULL, NULL, NULL, NULL
      FROM revoked_receipts r WHERE r.receipt_code = $1
  )
  SELECT f.*, (f.voided_at AT TIME ZONE COALESCE(s.timezone, 'Africa/Kampala'))::date::text AS voided_on,
         c.name AS company_name, trim(c.currency_code) AS currency, cur.decimal_places AS decimals,
         (s.logo IS NOT NULL AND s.logo_type IS NOT NULL) AS has_logo
    FROM found f
    JOIN companies c ON c.id = f.company_id
    LEFT JOIN currencies cur ON cur.currency_code = c.currency_code
    LEFT JOIN company_settings s ON s.company_id = f.company_id
   ORDER BY f.state LIMIT 1`;

const LOGO = `
  SELECT s.logo, s.logo_type
    FROM (SELECT company_id FROM payments WHERE receipt_code = $1
          UNION ALL SELECT company_id FROM revoked_receipts WHERE receipt_code = $1) f
    JOIN company_settings s ON s.company_id = f.company_id
   LIMIT 1`;

const statusOf = (row: Row): PublicReceiptStatus => {
  if (row.state === 'revoked') return 'revoked';
  return row.status === 'completed' || row.status === 'failed' || row.status === 'void'
    ? row.status
    : 'pending';
};

const present = (code: string, row: Row): PublicReceipt => {
  const status = statusOf(row);
  const live = row.state === 'live';
  // a voided receipt says when, and confirms no amount
  const voided = status === 'void';
  return {
    status,
    title: publicReceiptTitles[status],
    message: voided ? receiptVoidedMessage(row.voided_on) : publicReceiptMessages[status],
    company: {
      name: row.company_name,
      logo_url: row.has_logo ? `/rentapi/api/public/receipts/${encodeURIComponent(code)}/logo` : null,
    },
    receipt_number: row.receipt_number,
    date: live ? row.payment_date : null,
    amount: live && !voided && row.amount !== null ? Number(row.amount) : null,
    voided_on: voided ? row.voided_on : null,
    currency: live ? row.currency || null : null,
    currency_decimals: live && row.decimals !== null ? Number(row.decimals) : null,
    unit_name: live ? row.unit_name : null,
    tenant_initials: live ? initialsOf(row.first_initial, row.last_initial) || null : null,
  };
};

/**
 * Receipts anyone can verify (issue 18): `GET /public/receipts/{code}` and its company's logo, with no
 * session. Codes are 64 random hex digits, so they are not guessed; what stops trying is the limit per
 * address, and what keeps an answer from telling more than its body is that a known code and an
 * unknown one run the same statements and answer no sooner than RECEIPT_FLOOR_MS.
 */
export const publicReceiptRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, config } = ctx;

  /** The limit, the statement, and the floor: the same for every code. */
  const lookUp = async <T extends Record<string, unknown>>(
    request: FastifyRequest,
    statement: string,
    code: string,
  ): Promise<{ row: T | undefined; done: () => Promise<void> }> => {
    const done = answerFloor(RECEIPT_FLOOR_MS);
    if (config.rateLimits) await hitRateLimit(database, `receipt:${request.ip}`, RECEIPT_LOOKUPS_PER_MINUTE);
    const rows = await database.query<T>(statement, [code]);
    return { row: rows[0], done };
  };

  r.get(
    '/public/receipts/:code',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getPublicReceipt',
        tags: ['public'],
        summary:
          'What a receipt says and whether it holds, for anyone with its code (the QR code on the receipt)',
        params: codeParams,
        response: {
          200: json(answer, 'The receipt, its status, and the tenant’s initials only'),
          ...errors(404, 429),
        },
      },
    },
    async (request, reply) => {
      const { code } = request.params;
      const { row, done } = await lookUp<Row>(request, LOOKUP, code);
      const body = row ? present(code, row) : null;
      await done();
      if (!body) throw notFound();
      reply.header('Cache-Control', 'no-store');
      return body;
    },
  );

  r.get(
    '/public/receipts/:code/logo',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getPublicReceiptLogo',
        tags: ['public'],
        summary: 'The logo of the company that issued a receipt',
        params: codeParams,
        response: {
          200: file('The logo as uploaded', 'image/png', 'image/jpeg', 'image/webp'),
          ...errors(404, 429),
        },
      },
    },
    async (request, reply) => {
      const { row, done } = await lookUp<{ logo: string | null; logo_type: string | null }>(
        request,
        LOGO,
        request.params.code,
      );
      await done();
      if (!row?.logo || !row.logo_type) throw notFound();
      return (reply as FastifyReply)
        .type(row.logo_type)
        .header('Cache-Control', 'private, max-age=3600')
        .header('X-Content-Type-Options', 'nosniff')
        .send(Buffer.from(row.logo, 'base64'));
    },
  );
};
