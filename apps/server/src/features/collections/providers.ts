import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  AppError,
  DARAJA_FORBIDDEN_URL_WORDS,
  paymentProviderLabels,
  providerCredentialFields,
  type PaymentProvider,
  type PaymentProviderBody,
  type PaymentProviderName,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { purposeOf, SecretUnavailableError, type SecretBox } from '../../platform/secrets.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import { baseUrlOf, providerClient, type Credentials, type ProviderClient } from './provider-clients.ts';

/** A company's provider as stored. */
export type ProviderRow = {
  id: number;
  company_id: number;
  provider: PaymentProviderName;
  enabled: boolean;
  credentials: string | null;
  callback_key: string;
  refuse_unknown_accounts: boolean;
  version: number;
};

const COLUMNS =
  'id, company_id, provider, enabled, credentials, callback_key, refuse_unknown_accounts, version';

const purposeOfRow = (id: number) => purposeOf('payment_providers', 'credentials', id);

/** The credentials of a row, opened (a value no key of the server opens: 503 secret_unavailable). */
export const openCredentials = (
  secrets: SecretBox,
  row: Pick<ProviderRow, 'id' | 'credentials'>,
): Credentials => {
  if (!row.credentials) return {};
  try {
    const parsed = JSON.parse(secrets.open(row.credentials, purposeOfRow(Number(row.id)))) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Credentials) : {};
  } catch (err) {
    if (err instanceof SecretUnavailableError)
      throw new AppError('secret_unavailable', 'The provider’s credentials cannot be opened at the moment.');
    throw err;
  }
};

/**
 * The paths of Kodi's callbacks, under the API: `/pay-callbacks/lipa/{key}/validation` and so on.
 * Daraja refuses callback URLs holding words such as 'mpesa', 'safaricom', 'exe', 'cmd', 'sql' or
 * 'query' (DARAJA_FORBIDDEN_URL_WORDS): none of these paths does, and the key is hexadecimal.
 */
export const CALLBACK_PREFIX = '/pay-callbacks';
export const callbackPaths: Record<PaymentProviderName, Record<string, (key: string) => string>> = {
  mpesa: {
    validation: (k) => `${CALLBACK_PREFIX}/lipa/${k}/validation`,
    confirmation: (k) => `${CALLBACK_PREFIX}/lipa/${k}/confirmation`,
    stk: (k) => `${CALLBACK_PREFIX}/lipa/${k}/prompt`,
  },
  mtn_momo: { callback: (k) => `${CALLBACK_PREFIX}/momo/${k}` },
  airtel_money: { callback: (k) => `${CALLBACK_PREFIX}/airtel/${k}` },
};

export const callbackUrlsOf = (publicUrl: string, provider: PaymentProviderName, key: string) =>
  Object.fromEntries(
    Object.entries(callbackPaths[provider]).map(([name, path]) => [
      name,
      `${publicUrl}/rentapi/api${path(key)}`,
    ]),
  );

/** The Daraja words a URL holds (none in Kodi's own paths; a PUBLIC_URL might). */
export const forbiddenWordsIn = (url: string) =>
  DARAJA_FORBIDDEN_URL_WORDS.filter((w) => url.toLowerCase().includes(w));

export const readProviderRow = async (
  db: DbOrTx,
  companyId: number,
  provider: PaymentProviderName,
): Promise<ProviderRow | undefined> =>
  (
    await execRows<ProviderRow>(
      db,
      sql`SELECT ${sql.raw(COLUMNS)} FROM payment_providers WHERE company_id = ${companyId} AND provider = ${provider}`,
    )
  )[0];

/** The row of a callback's secret path segment (an unknown one: undefined). */
export const providerOfCallback = async (
  db: DbOrTx,
  provider: PaymentProviderName,
  key: string,
): Promise<ProviderRow | undefined> =>
  /^[0-9a-f]{32}$/.test(key)
    ? (
        await execRows<ProviderRow>(
          db,
          sql`SELECT ${sql.raw(COLUMNS)} FROM payment_providers WHERE callback_key = ${key} AND provider = ${provider}`,
        )
      )[0]
    : undefined;

export const presentProvider = (
  ctx: AppContext,
  provider: PaymentProviderName,
  row: ProviderRow | undefined,
): PaymentProvider => {
  const stored = row ? openCredentials(ctx.secrets, row) : {};
  return {
    provider,
    enabled: row?.enabled ?? false,
    credentials_set: Object.fromEntries(
      Object.keys(providerCredentialFields[provider]).map((k) => [k, !!stored[k]]),
    ),
    refuse_unknown_accounts: row?.refuse_unknown_accounts ?? false,
    callback_urls: row ? callbackUrlsOf(ctx.config.publicUrl, provider, row.callback_key) : null,
    base_url: baseUrlOf(ctx.config, provider),
    version: row?.version ?? 1,
  };
};

/**
 * Saves a company's provider: a credential left out is kept, one sent empty or null is cleared, an
 * unknown one is refused; the whole set sealed again. Turning a provider on needs all its required
 * credentials. The audit entry says which credentials changed, never their values.
 */
export const saveProvider = async (
  ctx: AppContext,
  user: { company_id: number; id: number },
  provider: PaymentProviderName,
  body: PaymentProviderBody,
): Promise<PaymentProvider> => {
  const fields = providerCredentialFields[provider];
  const unknown = Object.keys(body.credentials).filter((k) => !(k in fields));
  if (unknown.length > 0) {
    const message = `${paymentProviderLabels[provider]} takes no ${unknown.join(', ')}.`;
    throw new AppError('validation_failed', message, { credentials: message });
  }
  return ctx.database.db.transaction(async (tx) => {
    const before = await readProviderRow(tx, user.company_id, provider);
    if (before && body.version !== undefined && before.version !== body.version)
      throw new AppError('conflict');
    const stored = before ? openCredentials(ctx.secrets, before) : {};
    const next: Credentials = { ...stored };
    for (const [k, v] of Object.entries(body.credentials)) {
      if (v === undefined) continue;
      if (v === null || v === '') delete next[k];
      else next[k] = v;
    }
    if (body.enabled) {
      try {
        providerClient(ctx.config, provider, next);
      } catch (err) {
        if (err instanceof AppError)
          throw new AppError('validation_failed', err.message, { credentials: err.message });
        throw err;
      }
    }
    const [row] = before
      ? await execRows<{ id: number }>(
          tx,
          sql`UPDATE payment_providers SET enabled = ${body.enabled},
                     refuse_unknown_accounts = ${body.refuse_unknown_accounts ?? before.refuse_unknown_accounts},
                     version = version + 1, updated_at = now()
               WHERE id = ${before.id} AND version = ${before.version} RETURNING id`,
        )
      : await execRows<{ id: number }>(
          tx,
          // an unsaved provider answers version 1: its first save is version 2 (as company settings)
          sql`INSERT INTO payment_providers (company_id, provider, enabled, callback_key, refuse_unknown_accounts, version)
              VALUES (${user.company_id}, ${provider}, ${body.enabled}, ${randomBytes(16).toString('hex')},
                      ${body.refuse_unknown_accounts ?? false}, 2)
              ON CONFLICT DO NOTHING
              RETURNING id`,
        );
    if (!row) throw new AppError('conflict');
    const id = Number(row.id);
    const sealed =
      Object.keys(next).length > 0 ? ctx.secrets.seal(JSON.stringify(next), purposeOfRow(id)) : null;
    await tx.execute(sql`UPDATE payment_providers SET credentials = ${sealed} WHERE id = ${id}`);
    const changed = Object.keys(fields).filter((k) => (stored[k] ?? '') !== (next[k] ?? ''));
    await recordAuditEntry(tx, {
      companyId: user.company_id,
      userId: user.id,
      action: before ? 'update' : 'create',
      entity: 'payment_providers',
      recordId: id,
      before: before
        ? { enabled: before.enabled, refuse_unknown_accounts: before.refuse_unknown_accounts }
        : null,
      after: {
        enabled: body.enabled,
        refuse_unknown_accounts: body.refuse_unknown_accounts ?? before?.refuse_unknown_accounts ?? false,
        credentials_changed: changed,
      },
      summary: `${paymentProviderLabels[provider]}: ${body.enabled ? 'on' : 'off'}${
        changed.length > 0 ? `, ${changed.join(', ').replace(/_/g, ' ')} changed` : ''
      }`,
    });
    return presentProvider(ctx, provider, await readProviderRow(tx, user.company_id, provider));
  });
};

/** The client of a company's provider, when it is on and set up (else 422 provider_not_configured). */
export const enabledClient = async (
  ctx: AppContext,
  db: DbOrTx,
  companyId: number,
  provider: PaymentProviderName,
): Promise<{ client: ProviderClient; row: ProviderRow }> => {
  const row = await readProviderRow(db, companyId, provider);
  if (!row?.enabled)
    throw new AppError(
      'provider_not_configured',
      `${paymentProviderLabels[provider]} is not on for this company (Company settings, Payment providers).`,
    );
  return { client: providerClient(ctx.config, provider, openCredentials(ctx.secrets, row)), row };
};
