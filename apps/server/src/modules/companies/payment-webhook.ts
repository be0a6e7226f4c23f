import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { openStored, purposeOf, sealedColumns, type SecretBox } from '../../platform/secrets.ts';

/** What a company's webhook secret is sealed for (the additional data of its encryption). */
export const webhookSecretPurpose = (companyId: number) => purposeOf('payment_webhooks', 'secret', companyId);

const CLEAR_PREFIX = sealedColumns.find((c) => c.table === 'payment_webhooks')?.clearPrefix;

/** The company's webhook secret as stored (sealed, or in clear when kept before sealing began), opened. */
export const openWebhookSecret = (secrets: SecretBox, stored: string, companyId: number): string =>
  openStored(secrets, stored, webhookSecretPurpose(companyId), CLEAR_PREFIX);

/** The address of a company's payment webhook (what an aggregator's callback is pointed at). */
export const paymentWebhookUrl = (publicUrl: string, companyKey: string) =>
  `${publicUrl}/rentapi/api/webhooks/payments/${companyKey}`;

/**
 * Makes or replaces the company's webhook secret (the old one stops working at once) and answers it
 * with the URL, the only time the secret is shown; it is stored sealed (lib/secrets.ts). The company key is made once and kept, so the
 * aggregator's callback address stays the same when the secret is rotated.
 */
export const rotateWebhookSecret = async (
  database: Database,
  secrets: SecretBox,
  publicUrl: string,
  companyId: number,
): Promise<{ url: string; secret: string }> => {
  const key = randomBytes(16).toString('hex');
  const secret = `whsec_${randomBytes(32).toString('hex')}`;
  const rows = await database.query<{ company_key: string }>(
    `INSERT INTO payment_webhooks (company_id, company_key, secret) VALUES ($1, $2, $3)
     ON CONFLICT (company_id) DO UPDATE SET secret = EXCLUDED.secret, updated_at = now(),
            version = payment_webhooks.version + 1
     RETURNING company_key`,
    [companyId, key, secrets.seal(secret, webhookSecretPurpose(companyId))],
  );
  return { url: paymentWebhookUrl(publicUrl, rows[0]?.company_key ?? key), secret };
};

/** How far a signature's timestamp may be from the server's clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The `X-Kodi-Signature` header of a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const signWebhook = (secret: string, body: string, t: number) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

/**
 * Whether a signature header is right for this body and secret and its time within 5 minutes of
 * `now` (compared in constant time; every v1 of the header is tried).
 */
export const verifyWebhookSignature = (
  header: string | undefined,
  body: string,
  secret: string,
  now = Date.now(),
): boolean => {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  if (!t || !/^\d{1,12}$/.test(t)) return false;
  if (Math.abs(now / 1000 - Number(t)) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'), 'utf8');
  let ok = false;
  for (const [k, v] of parts) {
    if (k !== 'v1' || !v) continue;
    const given = Buffer.from(v.toLowerCase(), 'utf8');
    if (given.length === expected.length && timingSafeEqual(given, expected)) ok = true;
  }
  return ok;
};
