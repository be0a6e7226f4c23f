import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  isOwner,
  isTenant,
  languageSchema,
  MFA_CHALLENGE_MINUTES,
  loginBody,
  loginMfaBody,
  mfaChallengeSchema,
  portalMessages,
  securityMessages,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { hitRateLimit } from '../../plugins/rate-limit.ts';
import {
  completeSignIn,
  recordFailedSignIn,
  refuseIfLocked,
  accountLockKey,
} from '../../modules/identity/sign-in.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { captchaMatches } from '../../platform/captcha.ts';
import {
  findUserByEmail,
  sessionUserSchema,
  setUserLanguage,
  signedInSchema,
} from '../../modules/identity/users.ts';
import { readMfa, useRecoveryCode, useTotpCode } from '../../modules/identity/mfa.ts';
import { USER_SELECT, rowToUser } from '../../plugins/session.ts';
import { empty, errors, json, named } from '../../plugins/openapi.ts';
import { SecretUnavailableError } from '../../platform/secrets.ts';

const authStatusSchema = named(
  z.object({
    user: sessionUserSchema.nullable(),
    csrf_token: z.string(),
    google_enabled: z.boolean(),
    support_email: z.string(),
  }),
  'AuthStatus',
);

export { LOCK_AFTER_FAILURES, LOCK_MINUTES } from '../../modules/identity/sign-in.ts';

export const authRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, sessions } = ctx;

  r.get(
    '/auth/status',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getAuthStatus',
        tags: ['auth'],
        summary: 'The signed-in user (or null), the CSRF token, and whether Google sign-in is configured',
        description: 'Starts an anonymous session (the cookie) when there is none: it holds the CSRF token.',
        response: {
          200: json(authStatusSchema, 'The session'),
        },
      },
    },
    async (request, reply) => {
      const session = await sessions.ensure(request, reply);
      return {
        user: request.user,
        csrf_token: session.csrfToken,
        google_enabled: !!ctx.config.googleClientId,
        support_email: ctx.config.supportEmail,
      };
    },
  );

  r.get(
    '/auth/csrf-token',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getCsrfToken',
        tags: ['auth'],
        summary: "The session's CSRF token (starting an anonymous session when there is none)",
        response: { 200: json(z.object({ csrf_token: z.string() }), 'The token to send in X-CSRF-Token') },
      },
    },
    async (request, reply) => ({ csrf_token: (await sessions.ensure(request, reply)).csrfToken }),
  );

  r.post(
    '/auth/login',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'signIn',
        tags: ['auth'],
        summary: 'Sign in with e-mail, password and the CAPTCHA answer',
        description: 'Answers a new session cookie and a new CSRF token; the CAPTCHA is used up either way.',
        body: loginBody,
        response: {
          200: json(
            z.union([signedInSchema, named(mfaChallengeSchema, 'MfaChallenge')]),
            'Signed in: the user and the new CSRF token; or, for a user with a second factor, ' +
              '`mfa_required` and the new CSRF token: `POST /auth/login/mfa` follows',
          ),
          ...errors(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      if (ctx.config.rateLimits) await hitRateLimit(database, `login:${request.ip}`, 30);
      const { email, password, captcha_answer } = request.body;

      // The captcha first, used up by any attempt; a wrong one never tries the password.
      const captchaOk = captchaMatches(request.session, captcha_answer);
      if (request.session?.captchaAnswer) await sessions.setCaptcha(request.session, null);
      if (!captchaOk) throw new AppError('captcha_failed');

      const key = email.toLowerCase();
      await refuseIfLocked(ctx, key);

      const found = await findUserByEmail(ctx, email);
      const passwordOk = await verifyPassword(found?.passwordHash, password);
      if (!found || !passwordOk) {
        await recordFailedSignIn(
          ctx,
          key,
          found ? { userId: found.user.id, how: 'Password', ip: request.ip } : undefined,
        );
        throw new AppError('invalid_credentials');
      }
      if (!found.user.active)
        throw new AppError('account_disabled', 'This account is disabled. Contact your administrator.');
      // a tenant's portal account signs in at the portal (the staff page shows its link)
      if (isTenant(found.user)) throw new AppError('tenant_account');
      if (isOwner(found.user)) throw new AppError('tenant_account', portalMessages.ownerAccount);

      if (found.user.mfa_enabled) {
        // the failures are not reset yet: the code's count on from the password's
        const session = await sessions.startMfaChallenge(
          request,
          reply,
          found.user.id,
          MFA_CHALLENGE_MINUTES,
        );
        return {
          mfa_required: true as const,
          csrf_token: session.csrfToken,
          expires_at: (session.mfaExpiresAt ?? new Date()).toISOString(),
        };
      }
      return completeSignIn(ctx, request, reply, key, found.user, 'Password');
    },
  );

  r.post(
    '/auth/login/mfa',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'signInSecondFactor',
        tags: ['auth'],
        summary: 'The second step of a sign-in: the code of the authenticator app, or a recovery code',
        description:
          'Only after `POST /auth/login` answered `mfa_required`, in the same session (cookie), within 5 minutes. ' +
          'A wrong code counts as a failed sign-in of the e-mail (the same lockout and rate limit as the password).',
        body: loginMfaBody,
        response: {
          200: json(signedInSchema, 'Signed in: the user and the new CSRF token'),
          ...errors(401, 403, 429, 503),
        },
      },
    },
    async (request, reply) => {
      if (ctx.config.rateLimits) await hitRateLimit(database, `login:${request.ip}`, 30);
      const session = request.session;
      const userId = session?.mfaUserId ?? null;
      if (
        !session ||
        userId === null ||
        !session.mfaExpiresAt ||
        session.mfaExpiresAt.getTime() <= Date.now()
      ) {
        throw new AppError('mfa_challenge_expired');
      }
      const rows = await database.query<Parameters<typeof rowToUser>[0]>(
        `SELECT ${USER_SELECT} FROM users u WHERE u.id = $1`,
        [userId],
      );
      const row = rows[0];
      if (!row) throw new AppError('mfa_challenge_expired');
      const user = rowToUser(row);
      const key = accountLockKey({ id: user.id, email: user.email || null });
      await refuseIfLocked(ctx, key);
      if (!user.active)
        throw new AppError('account_disabled', 'This account is disabled. Contact your administrator.');

      const mfa = await readMfa(database.db, ctx.secrets, userId);
      const { code, recovery_code } = request.body;
      // a recovery code is checked against its hash alone: it signs in even when the server's keys
      // cannot open the TOTP secret (SECRET_KEY changed), where a code answers 503 secret_unavailable
      const totpSecret = () => {
        try {
          return mfa.openSecret();
        } catch (err) {
          if (err instanceof SecretUnavailableError)
            throw new AppError('secret_unavailable', securityMessages.codesUnavailable);
          throw err;
        }
      };
      const ok =
        mfa.enabled && mfa.hasSecret
          ? code !== undefined
            ? await useTotpCode(database.db, userId, totpSecret(), code)
            : recovery_code !== undefined && (await useRecoveryCode(database.db, userId, recovery_code))
          : false;
      const how = code !== undefined ? 'Second factor' : 'Recovery code';
      if (!ok) {
        await recordFailedSignIn(ctx, key, { userId, how, ip: request.ip });
        throw new AppError('mfa_code_invalid');
      }
      return completeSignIn(ctx, request, reply, key, user, how);
    },
  );

  r.put(
    '/auth/language',
    {
      config: { access: 'signedIn' },
      schema: {
        operationId: 'setLanguage',
        tags: ['auth'],
        summary:
          "Sets the signed-in staff user's language (issue 30): the staff app and its messages follow it",
        description:
          "null: English. A portal account's language is its tenant's or owner's (the staff set it on the record).",
        body: z.object({ language: languageSchema.nullable() }),
        response: { 200: json(sessionUserSchema, 'The user, in its language'), ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const user = request.user;
      if (!user) throw new AppError('unauthorized');
      if (isTenant(user) || isOwner(user)) throw new AppError('forbidden');
      await setUserLanguage(ctx, user.id, request.body.language);
      const rows = await database.query<Parameters<typeof rowToUser>[0]>(
        `SELECT ${USER_SELECT} FROM users u WHERE u.id = $1`,
        [user.id],
      );
      const row = rows[0];
      if (!row) throw new AppError('not_found');
      return rowToUser(row);
    },
  );

  r.post(
    '/auth/logout',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'signOut',
        tags: ['auth'],
        summary: 'Ends the session',
        response: { 204: empty('Signed out') },
      },
    },
    async (request, reply) => {
      await sessions.end(request, reply);
      return reply.code(204).send();
    },
  );
};
