import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  AppError,
  DEFAULT_WHATSAPP_LANGUAGE,
  whatsappStatusRank,
  whatsappTemplateKindOf,
  whatsappTemplateKinds,
  whatsappTemplateVariables,
  type TemplateValues,
  type WhatsappSettings,
  type WhatsappSettingsBody,
  type WhatsappTemplateKind,
} from '@kodi/domain';
import type { Config } from '../../config.ts';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { purposeOf, SecretUnavailableError, type SecretBox } from '../../platform/secrets.ts';
import { SendFailure } from '../../platform/sms.ts';
import { recordAuditEntry } from '../audit/audit.ts';
import { outbox } from './outbox.ts';

/**
 * WhatsApp through the WhatsApp Business Cloud API (issue 29; docs/decisions.md, 'WhatsApp'):
 *
 * - each company's account (`whatsapp_settings`): its phone-number id, its access token and app secret
 *   (one JSON object sealed for `whatsapp_settings.credentials:<company>`), the template names it had
 *   Meta approve, by kind, their language, and whether a failure goes by SMS;
 * - sending: `POST {WHATSAPP_BASE_URL}/{version}/{phone-number-id}/messages` (Bearer token) with
 *   `{ messaging_product: 'whatsapp', to, type: 'template', template: { name, language: { code },
 *   components: [{ type: 'body', parameters: [{ type: 'text', text }] }] } }`; the answer's
 *   `messages[0].id` (the `wamid`) is kept on the message;
 * - the webhook Meta calls (the URL and verify token each company pastes in Meta's portal): its GET
 *   handshake answers `hub.challenge` when `hub.verify_token` is the company's; its POSTs are believed
 *   only when `X-Hub-Signature-256` is the HMAC-SHA256 of the raw body under the company's app secret
 *   (compared in constant time), and their `statuses[]` move the company's messages on;
 * - a WhatsApp message that fails (refused when sent, or `failed` in a status) is queued again as an
 *   SMS once (its dedup key), when the company chose so.
 */

export type WhatsappRow = {
  company_id: number;
  enabled: boolean;
  phone_number_id: string | null;
  credentials: string | null;
  callback_key: string;
  verify_token: string;
  language: string;
  templates: Partial<Record<WhatsappTemplateKind, string | null>> | null;
  fallback_sms: boolean;
  version: number;
};

type Credentials = { access_token?: string; app_secret?: string };

const COLUMNS =
  'company_id, enabled, phone_number_id, credentials, callback_key, verify_token, language, templates, fallback_sms, version';

const purposeOfRow = (companyId: number) => purposeOf('whatsapp_settings', 'credentials', companyId);

export const WHATSAPP_CALLBACK_PREFIX = '/whatsapp-callbacks';
export const whatsappWebhookUrl = (publicUrl: string, key: string) =>
  `${publicUrl}/rentapi/api${WHATSAPP_CALLBACK_PREFIX}/${key}`;

/** The token and app secret of a row, opened (a value no key of the server opens: 503 secret_unavailable). */
export const openWhatsappCredentials = (
  secrets: SecretBox,
  row: Pick<WhatsappRow, 'company_id' | 'credentials'>,
): Credentials => {
  if (!row.credentials) return {};
  try {
    const parsed = JSON.parse(secrets.open(row.credentials, purposeOfRow(Number(row.company_id)))) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Credentials) : {};
  } catch (err) {
    if (err instanceof SecretUnavailableError)
      throw new AppError('secret_unavailable', 'WhatsApp’s credentials cannot be opened at the moment.');
    throw err;
  }
};

export const readWhatsappRow = async (db: DbOrTx, companyId: number): Promise<WhatsappRow | undefined> =>
  (
    await execRows<WhatsappRow>(
      db,
      sql`SELECT ${sql.raw(COLUMNS)} FROM whatsapp_settings WHERE company_id = ${companyId}`,
    )
  )[0];

/** The row of a webhook's secret path segment (an unknown one: undefined). */
export const whatsappOfCallback = async (db: DbOrTx, key: string): Promise<WhatsappRow | undefined> =>
  /^[0-9a-f]{32}$/.test(key)
    ? (
        await execRows<WhatsappRow>(
          db,
          sql`SELECT ${sql.raw(COLUMNS)} FROM whatsapp_settings WHERE callback_key = ${key}`,
        )
      )[0]
    : undefined;

const templatesOf = (row: WhatsappRow | undefined): Record<WhatsappTemplateKind, string | null> =>
  Object.fromEntries(whatsappTemplateKinds.map((k) => [k, row?.templates?.[k] ?? null])) as Record<
    WhatsappTemplateKind,
    string | null
  >;

export const presentWhatsapp = (
  config: Pick<Config, 'publicUrl' | 'whatsappBaseUrl'>,
  secrets: SecretBox,
  row: WhatsappRow | undefined,
): WhatsappSettings => {
  const stored = row ? openWhatsappCredentials(secrets, row) : {};
  return {
    enabled: row?.enabled ?? false,
    phone_number_id: row?.phone_number_id ?? null,
    access_token_set: !!stored.access_token,
    app_secret_set: !!stored.app_secret,
    language: row?.language ?? DEFAULT_WHATSAPP_LANGUAGE,
    templates: templatesOf(row),
    fallback_sms: row?.fallback_sms ?? false,
    webhook_url: row ? whatsappWebhookUrl(config.publicUrl, row.callback_key) : null,
    verify_token: row?.verify_token ?? null,
    base_url: config.whatsappBaseUrl,
    version: row?.version ?? 1,
  };
};

/**
 * Saves a company's WhatsApp settings: a secret left out is kept, one sent empty or null is cleared;
 * turning WhatsApp on needs the phone-number id, the token and the app secret. The audit entry says
 * which secrets changed, never their values.
 */
export const saveWhatsapp = async (
  database: Database,
  config: Pick<Config, 'publicUrl' | 'whatsappBaseUrl'>,
  secrets: SecretBox,
  user: { company_id: number; id: number },
  body: WhatsappSettingsBody,
): Promise<WhatsappSettings> =>
  database.db.transaction(async (tx) => {
    const before = await readWhatsappRow(tx, user.company_id);
    if (before && body.version !== undefined && before.version !== body.version)
      throw new AppError('conflict');
    const stored = before ? openWhatsappCredentials(secrets, before) : {};
    const next: Credentials = { ...stored };
    for (const k of ['access_token', 'app_secret'] as const) {
      const v = body[k];
      if (v === undefined) continue;
      if (v === null || v === '') delete next[k];
      else next[k] = v;
    }
    const phoneNumberId =
      body.phone_number_id === undefined ? (before?.phone_number_id ?? null) : body.phone_number_id;
    if (body.enabled) {
      const fields: Record<string, string> = {};
      if (!phoneNumberId) fields.phone_number_id = 'Required to turn WhatsApp on.';
      if (!next.access_token) fields.access_token = 'Required to turn WhatsApp on.';
      if (!next.app_secret) fields.app_secret = 'Required to turn WhatsApp on.';
      if (Object.keys(fields).length > 0)
        throw new AppError(
          'validation_failed',
          'WhatsApp needs its phone-number id, access token and app secret.',
          fields,
        );
    }
    const templates = { ...templatesOf(before), ...(body.templates ?? {}) };
    const language = body.language ?? before?.language ?? DEFAULT_WHATSAPP_LANGUAGE;
    const fallback = body.fallback_sms ?? before?.fallback_sms ?? false;
    const sealed =
      Object.keys(next).length > 0 ? secrets.seal(JSON.stringify(next), purposeOfRow(user.company_id)) : null;
    const [row] = before
      ? await execRows<{ company_id: number }>(
          tx,
          sql`UPDATE whatsapp_settings SET enabled = ${body.enabled}, phone_number_id = ${phoneNumberId},
                     credentials = ${sealed}, language = ${language}, templates = ${JSON.stringify(templates)}::jsonb,
                     fallback_sms = ${fallback}, version = version + 1, updated_at = now()
               WHERE company_id = ${user.company_id} AND version = ${before.version} RETURNING company_id`,
        )
      : await execRows<{ company_id: number }>(
          tx,
          // unsaved settings answer version 1: the first save is version 2 (as company settings)
          sql`INSERT INTO whatsapp_settings (company_id, enabled, phone_number_id, credentials, callback_key,
                                             verify_token, language, templates, fallback_sms, version)
              VALUES (${user.company_id}, ${body.enabled}, ${phoneNumberId}, ${sealed},
                      ${randomBytes(16).toString('hex')}, ${randomBytes(16).toString('hex')}, ${language},
                      ${JSON.stringify(templates)}::jsonb, ${fallback}, 2)
              ON CONFLICT DO NOTHING RETURNING company_id`,
        );
    if (!row) throw new AppError('conflict');
    const changed = (['access_token', 'app_secret'] as const).filter(
      (k) => (stored[k] ?? '') !== (next[k] ?? ''),
    );
    await recordAuditEntry(tx, {
      companyId: user.company_id,
      userId: user.id,
      action: before ? 'update' : 'create',
      entity: 'whatsapp_settings',
      recordId: user.company_id,
      before: before
        ? {
            enabled: before.enabled,
            phone_number_id: before.phone_number_id,
            language: before.language,
            templates: templatesOf(before),
            fallback_sms: before.fallback_sms,
          }
        : null,
      after: {
        enabled: body.enabled,
        phone_number_id: phoneNumberId,
        language,
        templates,
        fallback_sms: fallback,
        secrets_changed: changed,
      },
      summary: `WhatsApp: ${body.enabled ? 'on' : 'off'}${
        changed.length > 0 ? `, ${changed.join(', ').replace(/_/g, ' ')} changed` : ''
      }`,
    });
    return presentWhatsapp(config, secrets, await readWhatsappRow(tx, user.company_id));
  });

// ------------------------------------------------------------------------------ sending

/**
 * What a WhatsApp message's template is made of, kept on the message when it is queued: its kind, its
 * values and its reader's language (issue 30).
 */
export type WhatsappPayload = { kind: WhatsappTemplateKind; values: TemplateValues; language?: string };

/** The payload of a WhatsApp message of a template kind with its values, for a reader of `language`. */
export const whatsappPayload = (
  kind: string,
  values: TemplateValues,
  language?: string,
): WhatsappPayload => ({
  kind: whatsappTemplateKindOf(kind),
  values,
  ...(language ? { language } : {}),
});

/** Meta's error when a template has no translation in the language asked. */
export const NO_TEMPLATE_TRANSLATION = 132001;

/**
 * The languages a WhatsApp template is asked in, in turn (issue 30): the reader's, then the company's
 * (whatsapp_settings.language, the one its templates surely have); the reader's is left out when the
 * company's is of the same language ('en_US' for 'en'). A template Meta has not in the reader's
 * language (132001) goes in the company's.
 */
export const whatsappLanguages = (company: string, reader: string | undefined): string[] =>
  !reader || company.split('_')[0] === reader ? [company] : [reader, company];

/**
 * A parameter as WhatsApp takes it: no new lines or tabs, never more than 4 spaces in a row (error
 * 132018), at most 1024 characters, and never empty (a value the message lacks goes as '-').
 */
export const parameterText = (t: string): string => {
  const flat = t
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {4,}/g, '   ')
    .trim();
  return flat === '' ? '-' : flat.length > 1024 ? `${flat.slice(0, 1023)}…` : flat;
};

/** The template's body parameters: the kind's variables in their order (`other`: the message's text). */
export const whatsappParameters = (kind: WhatsappTemplateKind, values: TemplateValues, text: string) => {
  const vars = whatsappTemplateVariables[kind];
  const texts = vars === 'text' ? [text] : vars.map((v) => values[v] ?? '');
  return texts.map((t) => ({ type: 'text' as const, text: parameterText(t) }));
};

export type WhatsappSend = {
  phoneNumberId: string;
  token: string;
  to: string;
  template: string;
  language: string;
  parameters: { type: 'text'; text: string }[];
};

const describeError = (body: unknown): string => {
  const e = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error;
  if (e && typeof e === 'object')
    return `${String(e.message ?? 'error').slice(0, 200)}${e.code !== undefined ? ` (${String(e.code)})` : ''}`;
  return typeof body === 'string' ? body.slice(0, 200) : '';
};

/** Sends one template message: the `wamid`, or a SendFailure (a timeout, a network error, a 5xx or 429 may be retried). */
export const sendWhatsapp = async (
  config: Pick<Config, 'whatsappBaseUrl' | 'whatsappApiVersion'>,
  m: WhatsappSend,
  timeoutMs = 15_000,
): Promise<{ id: string }> => {
  const url = `${config.whatsappBaseUrl}/${config.whatsappApiVersion}/${encodeURIComponent(m.phoneNumberId)}/messages`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${m.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: m.to.replace(/[^\d]/g, ''),
        type: 'template',
        template: {
          name: m.template,
          language: { code: m.language },
          components: m.parameters.length > 0 ? [{ type: 'body', parameters: m.parameters }] : [],
        },
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const name = (err as Error).name;
    throw new SendFailure(
      name === 'TimeoutError' || name === 'AbortError'
        ? `WhatsApp did not answer within ${Math.round(timeoutMs / 1000)} s.`
        : `WhatsApp could not be reached: ${(err as Error).message}`,
      true,
    );
  }
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (res.status < 200 || res.status >= 300) {
    const detail = describeError(body);
    const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
    throw new SendFailure(
      `WhatsApp answered ${res.status}${detail ? `: ${detail}` : ''}.`,
      res.status >= 500 || res.status === 429,
      typeof code === 'number' ? code : undefined,
    );
  }
  const id = (body as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
  if (typeof id !== 'string' || !id) throw new SendFailure('WhatsApp answered without a message id.', false);
  return { id };
};

/** What the sender needs of a company to send by WhatsApp, or the reason it cannot. */
export type WhatsappAccount =
  | {
      ok: true;
      phoneNumberId: string;
      token: string;
      language: string;
      templates: Record<WhatsappTemplateKind, string | null>;
    }
  | { ok: false };

export const whatsappAccount = async (
  database: Database,
  secrets: SecretBox,
  companyId: number,
): Promise<WhatsappAccount> => {
  const row = await readWhatsappRow(database.db, companyId);
  if (!row?.enabled || !row.phone_number_id) return { ok: false };
  const creds = openWhatsappCredentials(secrets, row);
  if (!creds.access_token) return { ok: false };
  return {
    ok: true,
    phoneNumberId: row.phone_number_id,
    token: creds.access_token,
    language: row.language,
    templates: templatesOf(row),
  };
};

// ------------------------------------------------------------------------------ failures and statuses

/**
 * A failed WhatsApp message of the company queued again as an SMS, when the company chose so: once
 * (its dedup key `whatsapp-fallback:{id}`), to the same number with the same text.
 */
export const queueSmsFallback = async (
  tx: DbOrTx,
  companyId: number,
  messageId: number,
): Promise<boolean> => {
  const [choice] = await execRows<{ fallback_sms: boolean }>(
    tx,
    sql`SELECT fallback_sms FROM whatsapp_settings WHERE company_id = ${companyId}`,
  );
  if (!choice?.fallback_sms) return false;
  const [m] = await execRows<{
    kind: string;
    to: string | null;
    body: string;
    tenant_id: number | null;
    occupancy_id: number | null;
    tenant_name: string | null;
    payment_id: number | null;
    send_date: string | null;
  }>(
    tx,
    sql`SELECT kind, "to", body, tenant_id, occupancy_id, tenant_name, payment_id,
               to_char(send_date, 'YYYY-MM-DD') AS send_date
          FROM messages WHERE company_id = ${companyId} AND id = ${messageId} AND channel = 'whatsapp'`,
  );
  if (!m) return false;
  const queued = await outbox.enqueue(tx, [
    {
      company_id: companyId,
      kind: m.kind,
      channel: 'sms',
      to: m.to,
      subject: null,
      body: m.body,
      status: m.to ? 'queued' : 'skipped',
      error: m.to ? null : 'no_address',
      tenant_id: m.tenant_id === null ? null : Number(m.tenant_id),
      occupancy_id: m.occupancy_id === null ? null : Number(m.occupancy_id),
      tenant_name: m.tenant_name,
      payment_id: m.payment_id === null ? null : Number(m.payment_id),
      send_date: m.send_date,
      dedup_key: `whatsapp-fallback:${messageId}`,
    },
  ]);
  return queued.length > 0;
};

/** Whether `X-Hub-Signature-256` (`sha256=<hex>`) is the HMAC-SHA256 of the raw body under the app secret. */
export const verifyMetaSignature = (header: string | undefined, raw: Buffer, appSecret: string): boolean => {
  const expected = Buffer.from(createHmac('sha256', appSecret).update(raw).digest('hex'), 'utf8');
  const given = Buffer.from(/^sha256=([0-9a-fA-F]+)$/.exec(header ?? '')?.[1]?.toLowerCase() ?? '', 'utf8');
  // the same comparison, in constant time, whatever was given
  const padded = Buffer.alloc(expected.length);
  given.copy(padded, 0, 0, Math.min(given.length, expected.length));
  return timingSafeEqual(padded, expected) && given.length === expected.length;
};

/** A status of Meta's webhook (`entry[].changes[].value.statuses[]`). */
export type WhatsappStatus = {
  id: string;
  status: string;
  error: string | null;
};

/** The statuses of a webhook body, each with its first error in words. */
export const statusesOf = (body: unknown): WhatsappStatus[] => {
  const out: WhatsappStatus[] = [];
  const entries = (body as { entry?: unknown } | null)?.entry;
  if (!Array.isArray(entries)) return out;
  for (const entry of entries) {
    const changes = (entry as { changes?: unknown } | null)?.changes;
    if (!Array.isArray(changes)) continue;
    for (const change of changes) {
      const statuses = (change as { value?: { statuses?: unknown } } | null)?.value?.statuses;
      if (!Array.isArray(statuses)) continue;
      for (const s of statuses) {
        const st = s as {
          id?: unknown;
          status?: unknown;
          errors?: {
            code?: unknown;
            title?: unknown;
            message?: unknown;
            error_data?: { details?: unknown };
          }[];
        } | null;
        if (typeof st?.id !== 'string' || typeof st.status !== 'string') continue;
        const e = Array.isArray(st.errors) ? st.errors[0] : undefined;
        const words = e
          ? `WhatsApp could not deliver it: ${String(e.error_data?.details ?? e.message ?? e.title ?? 'failed')}${
              e.code !== undefined ? ` (${String(e.code)})` : ''
            }.`
          : null;
        out.push({ id: st.id.slice(0, 255), status: st.status, error: words });
      }
    }
  }
  return out;
};

/**
 * The statuses of a (verified) webhook call applied to the company's messages: a status moves a
 * message on only forwards (sent, delivered, read; failed last), one of an unknown `wamid` is left
 * alone; `failed` marks the message failed with WhatsApp's error and queues its SMS when the company
 * chose so. Answers how many messages changed.
 */
export const applyWhatsappStatuses = async (
  database: Database,
  companyId: number,
  statuses: readonly WhatsappStatus[],
): Promise<number> => {
  let changed = 0;
  for (const s of statuses) {
    const rank = whatsappStatusRank[s.status];
    if (rank === undefined) continue;
    changed += await database.db.transaction(async (tx) => {
      const rows = await execRows<{ id: number }>(
        tx,
        sql`UPDATE messages SET delivery_status = ${s.status},
                   status = CASE WHEN ${s.status} = 'failed' THEN 'failed' ELSE status END,
                   error = CASE WHEN ${s.status} = 'failed' THEN ${s.error ?? 'WhatsApp could not deliver it.'}::text ELSE error END,
                   updated_at = now(), version = version + 1
             WHERE company_id = ${companyId} AND channel = 'whatsapp' AND external_id = ${s.id}
               AND status IN ('sent', 'failed')
               AND COALESCE(CASE delivery_status WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3
                                                 WHEN 'failed' THEN 4 END, 0) < ${rank}
           RETURNING id`,
      );
      const [m] = rows;
      if (!m) return 0;
      if (s.status === 'failed') await queueSmsFallback(tx, companyId, Number(m.id));
      return 1;
    });
  }
  return changed;
};
