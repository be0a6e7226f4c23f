import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS, sessionsEndedSchema } from '@kodi/domain';
import { sql } from 'drizzle-orm';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { named } from '../../plugins/openapi.ts';
import { purposeOf, type SecretBox } from '../../platform/secrets.ts';
import { sha256 } from '../../platform/tokens.ts';

// Two-factor sign-in (issue 20), shared by the auth, security, accounts and users features.

export const TOTP_ISSUER = 'Kodi';

/** The answer of the routes that end sessions. */
export const sessionsEndedAnswer = named(sessionsEndedSchema, 'SessionsEnded');

const totpOf = (secret: string, label = '') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** A new TOTP secret (160 bits, base32) and its otpauth:// URL for an authenticator app. */
export const newTotpSecret = (email: string): { secret: string; otpauthUrl: string } => {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, email).toString() };
};

/**
 * The time step of a code that is right now (the step before and after are accepted too, for
 * clocks a little apart), or null.
 */
export const totpStep = (secret: string, code: string, now = Date.now()): number | null => {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
};

/** 10 recovery codes 'xxxxx-xxxxx' (50 random bits each) and the hashes stored for them. */
export const newRecoveryCodes = (): { codes: string[]; hashes: string[] } => {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = base32(randomBytes(7)).slice(0, 10);
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
  return { codes, hashes: codes.map(recoveryCodeHash) };
};

/** What is stored of a recovery code: the SHA-256 of it without its dash, lowercased. */
export const recoveryCodeHash = (code: string): string => sha256(code.replace(/[\s-]+/g, '').toLowerCase());

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const base32 = (bytes: Buffer): string => {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
};

type MfaRow = { mfa_secret: string | null; mfa_enabled_at: Date | string | null };

/** What a user's TOTP secret is sealed for (the additional data of its encryption). */
export const mfaSecretPurpose = (userId: number) => purposeOf('users', 'mfa_secret', userId);

/**
 * The user's second factor: whether it is in force, whether a secret is set, and the secret, opened
 * only when a code must be checked against it (a recovery code never needs it): `openSecret` throws
 * `SecretUnavailableError` (503 `secret_unavailable`) when the server's keys cannot open it.
 */
export type MfaState = {
  enabled: boolean;
  enabledAt: string | null;
  hasSecret: boolean;
  openSecret: () => string;
};

export const readMfa = async (db: DbOrTx, secrets: SecretBox, userId: number): Promise<MfaState> => {
  const rows = await execRows<MfaRow>(
    db,
    sql`SELECT mfa_secret, mfa_enabled_at FROM users WHERE id = ${userId}`,
  );
  const row = rows[0];
  const sealed = row?.mfa_secret ?? null;
  return {
    enabled: !!row?.mfa_enabled_at,
    enabledAt: row?.mfa_enabled_at ? new Date(row.mfa_enabled_at).toISOString() : null,
    hasSecret: sealed !== null,
    openSecret: () => {
      if (sealed === null) throw new Error('No second factor is set up.');
      return secrets.open(sealed, mfaSecretPurpose(userId));
    },
  };
};

/**
 * Uses a TOTP code of the user's secret: right now and of a later time step than the last one used
 * (a code is never accepted twice, RFC 6238 §5.2). Answers whether it was accepted.
 */
export const useTotpCode = async (
  db: DbOrTx,
  userId: number,
  secret: string,
  code: string,
): Promise<boolean> => {
  const step = totpStep(secret, code);
  if (step === null) return false;
  const rows = await execRows(
    db,
    sql`UPDATE users SET mfa_last_step = ${step}
         WHERE id = ${userId} AND (mfa_last_step IS NULL OR mfa_last_step < ${step}) RETURNING id`,
  );
  return rows.length === 1;
};

/** Uses one of the user's recovery codes (once). */
export const useRecoveryCode = async (db: DbOrTx, userId: number, code: string): Promise<boolean> => {
  const rows = await execRows(
    db,
    sql`UPDATE mfa_recovery_codes SET used_at = now(), updated_at = now()
         WHERE user_id = ${userId} AND code_hash = ${recoveryCodeHash(code)} AND used_at IS NULL RETURNING id`,
  );
  return rows.length === 1;
};

/**
 * A new TOTP secret (sealed) of a user whose second factor is not on: it replaces one not confirmed.
 * Answers false when the second factor is on already.
 */
export const setMfaSecret = async (db: DbOrTx, userId: number, sealedSecret: string): Promise<boolean> => {
  const rows = await execRows(
    db,
    sql`UPDATE users SET mfa_secret = ${sealedSecret}, mfa_last_step = NULL, updated_at = now()
         WHERE id = ${userId} AND mfa_enabled_at IS NULL RETURNING id`,
  );
  return rows.length === 1;
};

/**
 * Turns the second factor on (its secret set up, a code of it used at time step `step`) with new
 * recovery codes (their hashes) in place of any others. Answers false when it was on already or had
 * no secret: nothing is changed then.
 */
export const enableMfa = async (
  tx: DbOrTx,
  userId: number,
  step: number,
  recoveryCodeHashes: readonly string[],
): Promise<boolean> => {
  const rows = await execRows(
    tx,
    sql`UPDATE users SET mfa_enabled_at = now(), mfa_last_step = ${step}, updated_at = now()
         WHERE id = ${userId} AND mfa_enabled_at IS NULL AND mfa_secret IS NOT NULL RETURNING id`,
  );
  if (rows.length === 0) return false;
  await tx.execute(sql`DELETE FROM mfa_recovery_codes WHERE user_id = ${userId}`);
  await tx.execute(
    sql`INSERT INTO mfa_recovery_codes (user_id, code_hash)
        SELECT ${userId}, h FROM unnest(${`{${recoveryCodeHashes.join(',')}}`}::text[]) AS h`,
  );
  return true;
};

/** Turns the user's second factor off: the secret and the recovery codes are gone. Answers whether it was on. */
export const removeMfa = async (db: DbOrTx, userId: number): Promise<boolean> => {
  const before = await execRows<{ was_on: boolean }>(
    db,
    sql`SELECT mfa_enabled_at IS NOT NULL AS was_on FROM users WHERE id = ${userId} FOR UPDATE`,
  );
  await db.execute(sql`DELETE FROM mfa_recovery_codes WHERE user_id = ${userId}`);
  await db.execute(
    sql`UPDATE users SET mfa_secret = NULL, mfa_enabled_at = NULL, mfa_last_step = NULL, updated_at = now()
         WHERE id = ${userId}`,
  );
  return before[0]?.was_on === true;
};
