import { z } from 'zod';
import { AppError, accountMessages, languageSchema, type Language } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { findPgError } from '../../plugins/errors.ts';
import { named } from '../../plugins/openapi.ts';
import { USER_SELECT, rowToUser } from '../../plugins/session.ts';

// What the account features (auth, accounts, users) share about users: kept here, since features
// never import each other.

/** The signed-in user as login, register and status answer it. */
export const sessionUserSchema = named(
  z.object({
    id: z.number(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    company_id: z.number(),
    roles: z.array(z.string()),
    active: z.boolean(),
    country_code: z.string().nullable(),
    last_login_at: z.string().nullable(),
    tenant_id: z.number().nullable().optional(),
    owner_id: z.number().nullable().optional(),
    mfa_enabled: z.boolean(),
    mfa_required: z.boolean(),
    language: languageSchema
      .optional()
      .describe(
        "The language Kodi speaks to the user (issue 30): a staff user's own; a portal account's, its tenant's or owner's, else the company's default",
      ),
  }),
  'SessionUser',
);

/** What signing in (or registering) answers: the user and the session's new CSRF token. */
export const signedInSchema = named(
  z.object({ user: sessionUserSchema, csrf_token: z.string() }),
  'SignedIn',
);

type UserRow = Parameters<typeof rowToUser>[0] & { password_hash: string | null };

export const findUserByEmail = async (ctx: Pick<AppContext, 'database'>, email: string) => {
  const rows = await ctx.database.query<UserRow>(
    `SELECT ${USER_SELECT}, u.password_hash FROM users u WHERE lower(u.email) = lower($1)`,
    [email],
  );
  const row = rows[0];
  return row ? { user: rowToUser(row), passwordHash: row.password_hash } : undefined;
};

export const emailTaken = () =>
  new AppError('duplicate', accountMessages.emailTaken, { email: accountMessages.emailTaken });

/** A unique-index race on the e-mail ends as the same 409 as the check before it. */
export const rethrowDuplicateEmail = (err: unknown): never => {
  if (findPgError(err)?.code === '23505') throw emailTaken();
  throw err;
};

/**
 * A record's portal account state as a SQL expression over its row `t` (issue 19; owners' since issue
 * 27): none, invited (no password yet), active or disabled.
 */
export const portalStatusSql = (column: 'tenant_id' | 'owner_id'): string =>
  `COALESCE((SELECT CASE WHEN NOT pu.active THEN 'disabled'
                         WHEN pu.password_hash IS NULL THEN 'invited' ELSE 'active' END
               FROM users pu WHERE pu.company_id = t.company_id AND pu.${column} = t.id),
             'none')`;

/** A staff user's own language (issue 30): the staff app follows it; null: English. */
export const setUserLanguage = async (
  ctx: Pick<AppContext, 'database'>,
  userId: number,
  language: Language | null,
): Promise<void> => {
  await ctx.database.query('UPDATE users SET language = $1, updated_at = now() WHERE id = $2', [
    language,
    userId,
  ]);
};
