import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { RateLimitError } from '../../plugins/rate-limit.ts';
import { recordSignIn } from '../audit/audit.ts';

// What staff sign-in (features/auth) and the tenant portal's sign-in (features/portal) share: the
// lock after repeated failures and the new session. Features never import each other.

export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;

/**
 * The lock key of a known account (issue 23): its e-mail, else its phone, else its id. Every way of
 * naming it (the staff or the portal sign-in, its e-mail or its phone in any writing, a code or a
 * password) counts on this one key, so five failures lock the account, not one spelling of it. An
 * unknown e-mail is keyed by itself (lowercased) at both sign-ins, an unknown phone by `portal:` and
 * its digits, so known and unknown logins lock alike.
 */
export const accountLockKey = (account: {
  id: number;
  email: string | null;
  phone?: string | null;
}): string =>
  account.email
    ? account.email.toLowerCase()
    : account.phone
      ? `portal:${account.phone}`
      : `user:${account.id}`;

/** 429 `account_locked` (with Retry-After) while the key (an e-mail, or a portal login) is locked. */
export const refuseIfLocked = async (ctx: Pick<AppContext, 'database'>, key: string): Promise<void> => {
  const lock = await ctx.database.query<{ locked_until: Date | string | null }>(
    'SELECT locked_until FROM login_attempts WHERE email = $1 AND locked_until > now()',
    [key],
  );
  const lockedUntil = lock[0]?.locked_until;
  if (lockedUntil) {
    throw new RateLimitError('account_locked', (new Date(lockedUntil).getTime() - Date.now()) / 1000);
  }
};

/**
 * Counts a failed sign-in of the key (known or not); the fifth in a row locks it for 15 minutes. A
 * known user's failure is in the audit log (`who`: the user and the way tried); an unknown key's is not.
 */
export const recordFailedSignIn = async (
  ctx: Pick<AppContext, 'database'>,
  key: string,
  who?: { userId: number; how: string; ip: string },
): Promise<void> => {
  const { database } = ctx;
  if (who) await recordSignIn(database.db, { ...who, ok: false });
  await database.query(
    `INSERT INTO login_attempts (email, failed_count, last_failed_at) VALUES ($1, 1, now())
     ON CONFLICT (email) DO UPDATE SET
       failed_count = CASE WHEN login_attempts.locked_until IS NOT NULL THEN 1
                           ELSE login_attempts.failed_count + 1 END,
       locked_until = NULL, last_failed_at = now(), updated_at = now()`,
    [key],
  );
  await database.query(
    `UPDATE login_attempts SET locked_until = now() + make_interval(mins => $3), failed_count = 0
      WHERE email = $1 AND failed_count >= $2`,
    [key, LOCK_AFTER_FAILURES, LOCK_MINUTES],
  );
};

/** The failed sign-ins counted against a key (`accountLockKey`) are forgotten: its lockout ends. */
export const forgetLoginFailures = async (db: DbOrTx, key: string): Promise<void> => {
  await db.execute(sql`DELETE FROM login_attempts WHERE email = ${key}`);
};

/**
 * A successful sign-in: the key's failures forgotten, `last_login_at` stamped, a new session (new id,
 * new CSRF token). Answers what login answers: `{ user, csrf_token }`.
 */
export const completeSignIn = async (
  ctx: Pick<AppContext, 'database' | 'sessions'>,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  user: SessionUser,
  /** the way in, for the audit log ('Password', 'Portal code'...) */
  how: string,
): Promise<{ user: SessionUser; csrf_token: string }> => {
  await forgetLoginFailures(ctx.database.db, key);
  await recordSignIn(ctx.database.db, { userId: user.id, ok: true, how, ip: request.ip });
  const rows = await ctx.database.query<{ last_login_at: Date | string }>(
    'UPDATE users SET last_login_at = now() WHERE id = $1 RETURNING last_login_at',
    [user.id],
  );
  const session = await ctx.sessions.signIn(request, reply, user.id);
  const signedIn: SessionUser = {
    ...user,
    last_login_at: rows[0] ? new Date(rows[0].last_login_at).toISOString() : null,
  };
  request.user = signedIn;
  return { user: signedIn, csrf_token: session.csrfToken };
};
