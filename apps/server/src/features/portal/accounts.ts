import { randomInt } from 'node:crypto';
import { AppError, portalMessages, type SessionUser } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { findPgError } from '../../plugins/errors.ts';
import { USER_SELECT, rowToUser } from '../../plugins/session.ts';
import { companyCallingCode, toE164, callingCodeOf } from '../../modules/companies/phones.ts';
import { randomToken, sha256 } from '../../platform/tokens.ts';
import { outbox } from '../../modules/messaging/outbox.ts';
import { accountLockKey } from '../../modules/identity/sign-in.ts';

/** An invitation link works once, for 7 days; a sign-in code once, for 10 minutes and 5 tries. */
export const INVITATION_DAYS = 7;
export const CODE_MINUTES = 10;
export const CODE_TRIES = 5;

type UserRow = Parameters<typeof rowToUser>[0] & { password_hash: string | null; phone: string | null };

export type PortalAccount = { user: SessionUser; passwordHash: string | null; phone: string | null };

const presentAccount = (r: UserRow): PortalAccount => ({
  user: rowToUser(r),
  passwordHash: r.password_hash,
  phone: r.phone,
});

/**
 * Whose a portal account is (issue 27): a tenant record's (the tenant portal) or an owner record's (the
 * owner portal). The sign-in, its limits, the tokens and the sessions are the same for both.
 */
export type PortalKind = 'tenant' | 'owner';

/** Each portal's name in messages and the path of its pages. */
export const portals: Record<PortalKind, { name: string; path: string }> = {
  tenant: { name: 'tenant portal', path: '/portal' },
  owner: { name: 'owner portal', path: '/owner' },
};

/** The portal of a portal account's user. */
export const portalKindOf = (user: SessionUser): PortalKind => (user.owner_id ? 'owner' : 'tenant');

/** A user is a portal account: linked to a tenant record or to an owner record. */
const IS_PORTAL_ACCOUNT = '(u.tenant_id IS NOT NULL OR u.owner_id IS NOT NULL)';

/** The portal account of a tenant or an owner record of the company, if it has one. */
export const accountOfRecord = async (
  database: Database,
  companyId: number,
  kind: PortalKind,
  recordId: number,
): Promise<PortalAccount | undefined> => {
  const rows = await database.query<UserRow>(
    `SELECT ${USER_SELECT}, u.password_hash, u.phone FROM users u
      WHERE u.company_id = $1 AND u.${kind === 'tenant' ? 'tenant_id' : 'owner_id'} = $2`,
    [companyId, recordId],
  );
  return rows[0] ? presentAccount(rows[0]) : undefined;
};

/** A portal account by its user id. */
export const accountById = async (database: Database, userId: number): Promise<PortalAccount | undefined> => {
  const rows = await database.query<UserRow>(
    `SELECT ${USER_SELECT}, u.password_hash, u.phone FROM users u WHERE u.id = $1 AND ${IS_PORTAL_ACCOUNT}`,
    [userId],
  );
  return rows[0] ? presentAccount(rows[0]) : undefined;
};

/** The distinct dialling codes of the companies whose tenants or owners have portal accounts (a handful). */
const callingCodes = async (database: Database): Promise<number[]> => {
  const rows = await database.query<{ phone_code: number }>(
    `SELECT DISTINCT co.phone_code FROM companies c JOIN countries co ON co.country_code = c.country_code
      WHERE co.phone_code > 0 AND EXISTS (SELECT 1 FROM users u WHERE u.company_id = c.id AND ${IS_PORTAL_ACCOUNT})`,
  );
  return rows.map((r) => Number(r.phone_code));
};

/** The lock key of a portal account: the account's own (lib/sign-in.ts), whichever login named it. */
export const portalLockKey = (a: PortalAccount): string =>
  accountLockKey({ id: a.user.id, email: a.user.email || null, phone: a.phone });

/**
 * The portal account a login names: an e-mail (any case), or a phone in any usual writing ('+256 772
 * 123456', '0772-123456'): a number without its +code is read as one of its company's country. The
 * lock key is the account's (its e-mail and its phone share one count, issue 23); an unknown login's
 * is the login as normalised (its lowercased e-mail, as the staff sign-in's; `portal:` and its E.164).
 */
export const findPortalAccount = async (
  database: Database,
  login: string,
): Promise<{ key: string; account: PortalAccount | undefined }> => {
  const text = login.trim();
  if (text.includes('@')) {
    const email = text.toLowerCase();
    const rows = await database.query<UserRow>(
      `SELECT ${USER_SELECT}, u.password_hash, u.phone FROM users u
        WHERE lower(u.email) = $1 AND ${IS_PORTAL_ACCOUNT}`,
      [email],
    );
    const account = rows[0] ? presentAccount(rows[0]) : undefined;
    return { key: account ? portalLockKey(account) : email, account };
  }
  const international = /^(\+|00)/.test(text) ? toE164(text.replace(/^00/, '+'), null) : undefined;
  const candidates = new Map<string, number | null>();
  if (international) candidates.set(international, null);
  else
    for (const code of await callingCodes(database)) {
      const e164 = toE164(text, code);
      if (e164 && !candidates.has(e164)) candidates.set(e164, code);
    }
  const key = `portal:${international ?? text.replace(/[^\d+]/g, '')}`;
  if (candidates.size === 0) return { key, account: undefined };
  const rows = await database.query<UserRow & { calling_code: number | null }>(
    `SELECT ${USER_SELECT}, u.password_hash, u.phone, co.phone_code AS calling_code
       FROM users u JOIN companies c ON c.id = u.company_id
       LEFT JOIN countries co ON co.country_code = c.country_code
      WHERE ${IS_PORTAL_ACCOUNT} AND u.phone IN (${[...candidates.keys()].map((_, i) => `$${i + 1}`).join(', ')})`,
    [...candidates.keys()],
  );
  // a national number is one of the account's own company's country
  const matches = rows.filter((r) => {
    const code = candidates.get(r.phone ?? '');
    return code === null || Number(r.calling_code) === code;
  });
  // ambiguous (the same national number in two countries): none, sign in with the +code then
  const only = matches.length === 1 ? matches[0] : undefined;
  const account = only ? presentAccount(only) : undefined;
  return { key: account ? portalLockKey(account) : key, account };
};

/**
 * A tenant or owner record's addresses for the portal: its e-mail lowercased, its phone in E.164 (of
 * its country, else the company's: an owner has no country of its own).
 */
export const recordAddresses = async (
  database: Database,
  companyId: number,
  tenant: { email: string | null; phone: string | null; country_code?: string | null },
): Promise<{ email: string | null; phone: string | null }> => {
  const code =
    callingCodeOf(tenant.country_code ?? null, null) ?? (await companyCallingCode(database.db, companyId));
  return {
    email: tenant.email ? tenant.email.trim().toLowerCase() : null,
    phone: tenant.phone ? (toE164(tenant.phone, code) ?? null) : null,
  };
};

/** Which companies' accounts, other than `exceptUserId`, sign in with the address (an e-mail or an E.164). */
export const companiesUsing = async (
  database: Database,
  address: string,
  exceptUserId: number,
): Promise<number[]> => {
  const rows = await database.query<{ company_id: number }>(
    address.includes('@')
      ? 'SELECT company_id FROM users WHERE lower(email) = lower($1) AND id <> $2'
      : 'SELECT company_id FROM users WHERE phone = $1 AND id <> $2',
    [address, exceptUserId],
  );
  return rows.map((r) => Number(r.company_id));
};

/** A unique-index refusal of a login (e-mail or phone) another account uses: 409 duplicate. */
export const rethrowAddressTaken = (err: unknown): never => {
  if (findPgError(err)?.code === '23505')
    throw new AppError('duplicate', portalMessages.addressTaken, { email: portalMessages.addressTaken });
  throw err;
};

export type TokenKind = 'invitation' | 'code' | 'email_change' | 'phone_change';

/**
 * A new one-time secret of the user (the previous ones of its kind are used up): the secret in clear.
 * An invitation keeps the address it is sent to; a change of address its new address and value.
 */
export const issueToken = async (
  ctx: Pick<AppContext, 'database'>,
  userId: number,
  kind: TokenKind,
  sentTo: { address: string; value?: string } | null = null,
): Promise<{ secret: string; expiresAt: Date }> => {
  const secret = kind === 'invitation' ? randomToken(32) : String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(
    Date.now() + (kind === 'invitation' ? INVITATION_DAYS * 86_400_000 : CODE_MINUTES * 60_000),
  );
  await ctx.database.query(
    `UPDATE portal_tokens SET used_at = now(), updated_at = now()
      WHERE user_id = $1 AND kind = $2 AND used_at IS NULL`,
    [userId, kind],
  );
  await ctx.database.query(
    `INSERT INTO portal_tokens (user_id, kind, token_hash, expires_at, address, value)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      userId,
      kind,
      tokenHash(userId, kind, secret),
      expiresAt.toISOString(),
      sentTo?.address ?? null,
      sentTo?.value ?? null,
    ],
  );
  return { secret, expiresAt };
};

/** A code is hashed with its user (a million codes: never looked up by hash alone); a link alone. */
export const tokenHash = (userId: number, kind: TokenKind, secret: string): string =>
  kind === 'invitation' ? sha256(secret) : sha256(`${userId}:${secret}`);

/** The company's name (the messages sign with it). */
export const companyName = async (database: Database, companyId: number): Promise<string> => {
  const rows = await database.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [
    companyId,
  ]);
  return rows[0]?.name ?? 'Kodi';
};

/** Queues a message in the outbox (the messages sender delivers it). */
export const queueMessage = async (
  database: Database,
  m: {
    companyId: number;
    kind: string;
    channel: 'email' | 'sms';
    to: string;
    tenantId: number | null;
    subject: string | null;
    body: string;
  },
): Promise<number> => {
  const [queued] = await outbox.enqueue(database.db, [
    {
      company_id: m.companyId,
      kind: m.kind,
      channel: m.channel,
      to: m.to,
      tenant_id: m.tenantId,
      subject: m.subject,
      body: m.body,
    },
  ]);
  return Number(queued?.id);
};

/** A wrong code counted against a token: the `CODE_TRIES`th wrong try uses it up. */
export const countWrongCode = async (database: Database, tokenId: number): Promise<void> => {
  await database.query(
    `UPDATE portal_tokens SET attempts = attempts + 1, updated_at = now(),
            used_at = CASE WHEN attempts + 1 >= $2 THEN now() ELSE used_at END WHERE id = $1`,
    [tokenId, CODE_TRIES],
  );
};

/** Uses a token once: false when another request used it first. */
export const useToken = async (database: Database, tokenId: number): Promise<boolean> => {
  const used = await database.query<{ id: number }>(
    `UPDATE portal_tokens SET used_at = now(), updated_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id`,
    [tokenId],
  );
  return used.length > 0;
};
