import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  MAX_LOGO_BYTES,
  companySettingsBody,
  companySettingsSchema,
  webhookSecretSchema,
  type CompanySettings,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { auditEntriesFrom, recordAuditEntry } from '../../modules/audit/audit.ts';
import {
  SETTINGS_COLUMNS,
  presentSettings,
  type StoredSettings,
} from '../../modules/companies/company-settings.ts';
import { sniffImage } from '../../platform/image-sniffing.ts';
import { paymentWebhookUrl, rotateWebhookSecret } from '../../modules/companies/payment-webhook.ts';
import { errors, file, json, named } from '../../plugins/openapi.ts';

const Settings = named(companySettingsSchema, 'CompanySettings');

/** A PUT with a logo of 1 MB (1.37 MB as base64) and the rest. */
export const SETTINGS_BODY_LIMIT = 2 * 1024 * 1024;

type Row = Parameters<typeof presentSettings>[0] & { logo?: string | null };

const TS = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The settings of a company as `GET /company-settings` answers them: with the logo and the last run. */
const readSettings = async (
  database: Database,
  publicUrl: string,
  companyId: number,
): Promise<CompanySettings> => {
  const [rows, hooks, runs] = await Promise.all([
    database.query<NonNullable<Row> & { logo: string | null }>(
      `SELECT ${SETTINGS_COLUMNS}, logo FROM company_settings WHERE company_id = $1`,
      [companyId],
    ),
    database.query<{ company_key: string }>(
      'SELECT company_key FROM payment_webhooks WHERE company_id = $1',
      [companyId],
    ),
    database.query<Record<string, unknown>>(
      `SELECT to_char(as_of, 'YYYY-MM-DD') AS as_of, late_fees_posted, escalations_applied, reminders_queued,
              ${TS('created_at')} AS at
         FROM rent_cycle_runs WHERE company_id = $1 ORDER BY id DESC LIMIT 1`,
      [companyId],
    ),
  ]);
  const { has_logo: _has, ...settings } = presentSettings(rows[0]);
  const run = runs[0];
  return {
    ...settings,
    logo: rows[0]?.logo ?? null,
    webhook_url: hooks[0] ? paymentWebhookUrl(publicUrl, hooks[0].company_key) : null,
    last_run: run
      ? {
          as_of: String(run.as_of),
          late_fees_posted: Number(run.late_fees_posted),
          escalations_applied: Number(run.escalations_applied),
          reminders_queued: Number(run.reminders_queued),
          at: String(run.at),
        }
      : null,
  };
};

const logoProblem = (message: string) => new AppError('validation_failed', message, { logo: message });

/** A logo sent as base64: its type by its bytes (png, jpeg, webp), at most 1 MB. */
const checkedLogo = (base64: string): { data: string; type: 'image/png' | 'image/jpeg' | 'image/webp' } => {
  const clean = base64.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw logoProblem('The logo must be a PNG, JPEG or WebP image.');
  const bytes = Buffer.from(clean, 'base64');
  if (bytes.length > MAX_LOGO_BYTES) throw logoProblem('The logo must be at most 1 MB.');
  const type = sniffImage(bytes);
  if (!type) throw logoProblem('The logo must be a PNG, JPEG or WebP image.');
  return { data: clean, type };
};

/**
 * The company's settings (issue 17): read by any role of the company, changed by its admins
 * (`admin`, or `company_admin` of that company: the first thing that role grants). A company without
 * a row of its own reads the defaults (version 1); the first change writes its row.
 */
export const companySettingsRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  r.get(
    '/company-settings',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getCompanySettings',
        tags: ['company-settings'],
        summary: 'The settings of the signed-in user’s company (the defaults until first changed)',
        response: { 200: json(Settings, 'The settings, with the logo and the last daily run') },
      },
    },
    async (request) => readSettings(database, ctx.config.publicUrl, currentUser(request).company_id),
  );

  r.get(
    '/company-settings/logo',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getCompanyLogo',
        tags: ['company-settings'],
        summary: 'The company’s logo as an image',
        response: {
          200: file('The logo', 'image/png', 'image/jpeg', 'image/webp'),
          ...errors(404),
        },
      },
    },
    async (request, reply) => {
      const rows = await database.query<{ logo: string | null; logo_type: string | null }>(
        'SELECT logo, logo_type FROM company_settings WHERE company_id = $1',
        [currentUser(request).company_id],
      );
      const logo = rows[0];
      if (!logo?.logo || !logo.logo_type) throw new AppError('not_found', 'The company has no logo.');
      return (reply as FastifyReply)
        .type(logo.logo_type)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-cache')
        .send(Buffer.from(logo.logo, 'base64'));
    },
  );

  r.put(
    '/company-settings',
    {
      bodyLimit: SETTINGS_BODY_LIMIT,
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'updateCompanySettings',
        tags: ['company-settings'],
        summary: 'Change the company’s settings (fields left out stay as they are; logo null removes it)',
        body: companySettingsBody,
        response: { 200: json(Settings, 'The settings'), ...errors(409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // the read-only fields of the GET's answer are taken back and left as they are
      const { version, logo: sent, logo_type: _t, webhook_url: _w, last_run: _r, ...changes } = request.body;
      const current = await database.query<NonNullable<Row> & { logo: string | null }>(
        `SELECT ${SETTINGS_COLUMNS}, logo FROM company_settings WHERE company_id = $1`,
        [user.company_id],
      );
      // the logo as read (the GET's answer sent back) is no change of it
      const logo = sent !== undefined && sent !== null && sent === current[0]?.logo ? undefined : sent;
      const before: StoredSettings = presentSettings(current[0]);
      if (before.version !== version) throw new AppError('conflict');
      const next = {
        ...before,
        ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
      };
      const image = logo === undefined ? undefined : logo === null ? null : checkedLogo(logo);
      const values = [
        user.company_id,
        next.timezone,
        next.daily_run_hour,
        JSON.stringify(next.late_fee),
        JSON.stringify(next.reminders),
        JSON.stringify(next.receipt_notification),
        next.sms_sender_id,
        image === undefined ? null : (image?.data ?? null),
        image === undefined ? null : (image?.type ?? null),
        image !== undefined,
        version,
        next.require_mfa,
      ];
      const { has_logo: _h, version: _v, ...audited } = next;
      const { has_logo: _b, ...was } = before;
      const write = current[0]
        ? `UPDATE company_settings SET timezone = $2, daily_run_hour = $3, late_fee = $4::jsonb, reminders = $5::jsonb,
                  receipt_notification = $6::jsonb, sms_sender_id = $7, require_mfa = $12,
                  auto_post_matches = $16::boolean, payment_instructions = $17::jsonb,
                  rental_tax = $18::jsonb, owner_statements_day = $19::int,
                  utility_billing_day = $20::int,
                  service_charge_amount = $21::numeric, service_charge_description = $22,
                  logo = CASE WHEN $10::boolean THEN $8 ELSE logo END,
                  logo_type = CASE WHEN $10::boolean THEN $9 ELSE logo_type END,
                  version = version + 1, updated_at = now()
            WHERE company_id = $1 AND version = $11 RETURNING company_id`
        : `INSERT INTO company_settings (company_id, timezone, daily_run_hour, late_fee, reminders,
                  receipt_notification, sms_sender_id, logo, logo_type, require_mfa, auto_post_matches,
                  payment_instructions, rental_tax, owner_statements_day, utility_billing_day,
                  service_charge_amount, service_charge_description, version)
           SELECT $1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9, $12::boolean, $16::boolean, $17::jsonb,
                  $18::jsonb, $19::int, $20::int, $21::numeric, $22, 2
            WHERE $10::boolean IS NOT NULL AND $11::int = 1
           ON CONFLICT (company_id) DO NOTHING RETURNING company_id`;
      // the change and its audit entry in one statement (one transaction on both drivers)
      const saved = await database.query(
        `WITH saved AS (${write})
         ${auditEntriesFrom('saved', {
           companyId: 'company_id',
           entity: 'company_settings',
           recordId: 'company_id',
           action: 'update',
           userId: '$13',
           before: '$14::jsonb',
           after: '$15::jsonb',
         })}
         RETURNING id`,
        [
          ...values,
          user.id,
          JSON.stringify(was),
          JSON.stringify({ ...audited, logo_changed: image !== undefined }),
          next.auto_post_matches,
          JSON.stringify(next.payment_instructions),
          JSON.stringify(next.rental_tax),
          next.owner_statements_day,
          next.utility_billing_day,
          next.service_charge_amount.toFixed(2),
          next.service_charge_description,
        ],
      );
      if (saved.length === 0) throw new AppError('conflict');
      return readSettings(database, ctx.config.publicUrl, user.company_id);
    },
  );

  r.post(
    '/company-settings/webhook-secret',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'rotateWebhookSecret',
        tags: ['company-settings'],
        summary:
          'Make or replace the payment webhook’s secret: answers its URL and the secret, shown this once (the old secret stops working)',
        response: { 200: json(named(webhookSecretSchema, 'WebhookSecret'), 'The URL and the new secret') },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const answer = await rotateWebhookSecret(database, ctx.secrets, ctx.config.publicUrl, user.company_id);
      await recordAuditEntry(database.db, {
        companyId: user.company_id,
        userId: user.id,
        action: 'update',
        entity: 'payment_webhooks',
        recordId: user.company_id,
        after: { url: answer.url, secret_rotated: true },
      });
      return answer;
    },
  );
};
