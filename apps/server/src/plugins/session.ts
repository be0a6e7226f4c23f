import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolveLanguage, type RoleName, type SessionUser } from '@kodi/domain';
import { sql } from 'drizzle-orm';
import { execRows, type Database, type DbOrTx } from '../db/client.ts';
import type { Config } from '../config.ts';
import { randomToken, sha256 } from '../platform/tokens.ts';

export const SESSION_COOKIE = 'kodi_sid';

/** The session row as a request sees it (the cookie holds a random id; the table keeps its SHA-256). */
export type SessionState = {
  id: string;
  userId: number | null;
  csrfToken: string;
  captchaAnswer: string | null;
  captchaCreatedAt: Date | null;
  /** the number the sessions list names it by */
  ref: number;
  /** a sign-in waiting for its second factor: whose, and until when */
  mfaUserId: number | null;
  mfaExpiresAt: Date | null;
};

type Row = {
  id: string;
  user_id: number | null;
  csrf_token: string;
  captcha_answer: string | null;
  captcha_created_at: Date | string | null;
  last_seen_at: Date | string;
  ref: number;
  mfa_user_id: number | null;
  mfa_expires_at: Date | string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  company_id: number | null;
  active: boolean | null;
  country_code: string | null;
  last_login_at: Date | string | null;
  roles: string[] | string | null;
  tenant_id: number | null;
  owner_id: number | null;
  mfa_enabled: boolean | null;
  mfa_required: boolean | null;
  language?: string | null;
};

const toDate = (v: Date | string | null): Date | null =>
  v === null ? null : v instanceof Date ? v : new Date(v);
const toRoles = (v: string[] | string | null): RoleName[] =>
  (Array.isArray(v)
    ? v
    : typeof v === 'string'
      ? v.replace(/[{}]/g, '').split(',').filter(Boolean)
      : []) as RoleName[];

export const USER_SELECT = `u.id AS user_id, u.email, u.first_name, u.last_name, u.company_id, u.active,
  u.country_code, u.last_login_at, u.tenant_id, u.owner_id, u.mfa_enabled_at IS NOT NULL AS mfa_enabled,
  COALESCE((SELECT cs.require_mfa FROM company_settings cs WHERE cs.company_id = u.company_id), false)
    AS mfa_required,
  COALESCE((SELECT array_agg(r.name ORDER BY r.name) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
            WHERE ur.user_id = u.id), '{}') AS roles,
  CASE WHEN u.tenant_id IS NOT NULL OR u.owner_id IS NOT NULL
       THEN COALESCE(
         (SELECT t.language FROM tenants t WHERE t.company_id = u.company_id AND t.id = u.tenant_id),
         (SELECT o.language FROM owners o WHERE o.company_id = u.company_id AND o.id = u.owner_id),
         (SELECT c.default_language FROM companies c WHERE c.id = u.company_id))
       ELSE u.language END AS language`;

export const rowToUser = (
  r: Omit<
    Row,
    | 'id'
    | 'csrf_token'
    | 'captcha_answer'
    | 'captcha_created_at'
    | 'last_seen_at'
    | 'ref'
    | 'mfa_user_id'
    | 'mfa_expires_at'
  >,
): SessionUser => ({
  id: Number(r.user_id),
  email: r.email ?? '',
  first_name: r.first_name ?? '',
  last_name: r.last_name ?? '',
  company_id: Number(r.company_id),
  roles: toRoles(r.roles),
  active: r.active ?? false,
  country_code: r.country_code?.trim() ?? null,
  last_login_at: toDate(r.last_login_at)?.toISOString() ?? null,
  ...(r.tenant_id === null || r.tenant_id === undefined ? {} : { tenant_id: Number(r.tenant_id) }),
  ...(r.owner_id === null || r.owner_id === undefined ? {} : { owner_id: Number(r.owner_id) }),
  mfa_enabled: r.mfa_enabled === true,
  mfa_required: r.mfa_required === true,
  language: resolveLanguage(r.language),
});

export type Sessions = ReturnType<typeof createSessions>;

export const createSessions = (database: Database, config: Config) => {
  const idleMs = config.sessionIdleMinutes * 60_000;
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.cookieSecure,
  };

  const setCookie = (reply: FastifyReply, rawId: string) =>
    reply.setCookie(SESSION_COOKIE, rawId, cookieOptions);

  /** Reads the cookie's session with its user and roles in one query; drops an idle or disabled one. */
  const load = async (request: FastifyRequest): Promise<void> => {
    request.session = null;
    request.user = null;
    request.sessionExpired = false;
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw || raw.length > 100) return;
    const id = sha256(raw);
    // every API request runs this: a prepared statement, parsed and planned once per connection
    const rows = await database.prepared<Row>(
      `SELECT s.id, s.csrf_token, s.captcha_answer, s.captcha_created_at, s.last_seen_at, s.ref,
              s.mfa_user_id, s.mfa_expires_at, ${USER_SELECT}
         FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return;
    const lastSeen = toDate(row.last_seen_at) ?? new Date(0);
    const hasUser = row.user_id !== null;
    if (Date.now() - lastSeen.getTime() > idleMs || (hasUser && row.active === false)) {
      await database.query('DELETE FROM sessions WHERE id = $1', [id]);
      request.sessionExpired = hasUser;
      return;
    }
    if (Date.now() - lastSeen.getTime() > 60_000)
      await database.query('UPDATE sessions SET last_seen_at = now() WHERE id = $1', [id]);
    const session: SessionState = {
      id,
      userId: hasUser ? Number(row.user_id) : null,
      csrfToken: row.csrf_token,
      captchaAnswer: row.captcha_answer,
      captchaCreatedAt: toDate(row.captcha_created_at),
      ref: Number(row.ref),
      mfaUserId: row.mfa_user_id === null ? null : Number(row.mfa_user_id),
      mfaExpiresAt: toDate(row.mfa_expires_at),
    };
    const user = hasUser ? rowToUser(row) : null;
    request.session = session;
    request.user = user;
  };

  const create = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number | null,
    mfa?: { userId: number; minutes: number },
  ): Promise<SessionState> => {
    const raw = randomToken(32);
    const id = sha256(raw);
    const csrfToken = randomToken(24);
    const userAgent = request.headers['user-agent'];
    const rows = await database.query<{ ref: number; mfa_expires_at: Date | string | null }>(
      `INSERT INTO sessions (id, user_id, csrf_token, ip_address, user_agent, mfa_user_id, mfa_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + make_interval(mins => $7) END)
       RETURNING ref, mfa_expires_at`,
      [
        id,
        userId,
        csrfToken,
        request.ip.slice(0, 64),
        typeof userAgent === 'string' ? userAgent.slice(0, 500) : null,
        mfa?.userId ?? null,
        mfa?.minutes ?? 0,
      ],
    );
    setCookie(reply, raw);
    return {
      id,
      userId,
      csrfToken,
      captchaAnswer: null,
      captchaCreatedAt: null,
      ref: Number(rows[0]?.ref),
      mfaUserId: mfa?.userId ?? null,
      mfaExpiresAt: toDate(rows[0]?.mfa_expires_at ?? null),
    };
  };

  /** The request's session, made (anonymous) when it has none: the captcha and the CSRF token live there. */
  const ensure = async (request: FastifyRequest, reply: FastifyReply): Promise<SessionState> => {
    request.session ??= await create(request, reply, null);
    return request.session;
  };

  /** Sign-in: a new session id (the old one is dropped), a new CSRF token. */
  const signIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
  ): Promise<SessionState> => {
    if (request.session) await database.query('DELETE FROM sessions WHERE id = $1', [request.session.id]);
    request.session = await create(request, reply, userId);
    return request.session;
  };

  /**
   * The password was right and the user has a second factor: a new anonymous session (new id, new
   * CSRF token) that holds the challenge, `minutes` long; no signed-in session until the code.
   */
  const startMfaChallenge = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    minutes: number,
  ): Promise<SessionState> => {
    if (request.session) await database.query('DELETE FROM sessions WHERE id = $1', [request.session.id]);
    request.session = await create(request, reply, null, { userId, minutes });
    return request.session;
  };

  const end = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.session) await database.query('DELETE FROM sessions WHERE id = $1', [request.session.id]);
    request.session = null;
    request.user = null;
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  };

  const endAllForUser = async (userId: number): Promise<void> => {
    await database.query('DELETE FROM sessions WHERE user_id = $1 OR mfa_user_id = $1', [userId]);
  };

  const setCaptcha = async (session: SessionState, answer: string | null): Promise<void> => {
    session.captchaAnswer = answer;
    session.captchaCreatedAt = answer ? new Date() : null;
    await database.query(
      'UPDATE sessions SET captcha_answer = $2, captcha_created_at = $3, updated_at = now() WHERE id = $1',
      [session.id, answer, session.captchaCreatedAt?.toISOString() ?? null],
    );
  };

  /** Google sign-in's state (state, nonce, PKCE verifier, as JSON) kept on the session until the callback. */
  const saveOAuthState = async (session: SessionState, state: string): Promise<void> => {
    await database.query('UPDATE sessions SET oauth_state = $2, updated_at = now() WHERE id = $1', [
      session.id,
      state,
    ]);
  };

  /** The state saved at the redirect, used up by reading it (null when there is none). */
  const takeOAuthState = async (session: SessionState): Promise<string | null> => {
    const rows = await database.query<{ oauth_state: string | null }>(
      'SELECT oauth_state FROM sessions WHERE id = $1',
      [session.id],
    );
    const raw = rows[0]?.oauth_state ?? null;
    if (raw) await database.query('UPDATE sessions SET oauth_state = NULL WHERE id = $1', [session.id]);
    return raw;
  };

  return {
    load,
    ensure,
    signIn,
    startMfaChallenge,
    end,
    endAllForUser,
    setCaptcha,
    saveOAuthState,
    takeOAuthState,
  };
};

// The sessions' writes that run in a feature's transaction (one writer per table: this file owns
// `sessions`): a password changed, a user deactivated, a second factor reset, a session ended.

/** Ends every session of the user but `keepId` (sign-ins waiting for their code too); answers how many. */
export const endUserSessions = async (db: DbOrTx, userId: number, keepId: string | null): Promise<number> => {
  const rows = await execRows(
    db,
    sql`DELETE FROM sessions WHERE (user_id = ${userId} OR mfa_user_id = ${userId}) AND id <> ${keepId ?? ''}
        RETURNING ref`,
  );
  return rows.length;
};

/** Ends the user's sign-ins that wait for their second factor's code. */
export const endWaitingSignIns = async (db: DbOrTx, userId: number): Promise<void> => {
  await db.execute(sql`DELETE FROM sessions WHERE mfa_user_id = ${userId}`);
};

/** Ends one session of the user, named by its `ref`: whether there was one. */
export const endUserSession = async (db: DbOrTx, userId: number, ref: number): Promise<boolean> => {
  const rows = await execRows(
    db,
    sql`DELETE FROM sessions WHERE ref = ${ref} AND user_id = ${userId} RETURNING ref`,
  );
  return rows.length > 0;
};
