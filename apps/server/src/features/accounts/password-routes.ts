import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  RESET_TOKEN_MINUTES,
  accountMessages,
  changePasswordBody,
  forgotPasswordBody,
  resetPasswordBody,
  type Language,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { assertStrongPassword } from '../../modules/identity/password-strength.ts';
import { hitRateLimit, RateLimitError, touchRateLimit } from '../../plugins/rate-limit.ts';
import { answerFloor } from '../../platform/answer-floor.ts';
import { randomToken, sha256 } from '../../platform/tokens.ts';
import { accountLockKey, forgetLoginFailures } from '../../modules/identity/sign-in.ts';
import { endUserSessions } from '../../plugins/session.ts';
import { currentUser } from '../../plugins/guard.ts';
import {
  createResetToken,
  endResetTokens,
  setPassword,
  useResetToken,
} from '../../modules/identity/accounts.ts';
import { findUserByEmail } from '../../modules/identity/users.ts';
import { translate } from '../../plugins/i18n.ts';
import { userLanguage } from '../../modules/companies/company.ts';
import { createMailer, type MailMessage } from './mailer.ts';
import { errors, json } from '../../plugins/openapi.ts';

/** A forgot-password answer takes at least this long, whether the address is known or not. */
const FORGOT_FLOOR_MS = 60;

/** Reset mails to one address, at most this many an hour (beyond it the answer stays the same, no mail). */
export const RESET_MAILS_PER_HOUR = 5;

const messageSchema = z.object({ message: z.string() });

/** The reset e-mail, in the user's language (issue 30: English is the spec's words). */
export const resetMail = (
  to: string,
  firstName: string,
  link: string,
  language: Language = 'en',
): MailMessage => ({
  to,
  subject: translate(language, 'doc.accountMessages.resetSubject'),
  text: translate(language, 'doc.accountMessages.resetText', {
    firstName,
    minutes: String(RESET_TOKEN_MINUTES),
    link,
  }),
});

/** Forgot, reset and change password (02-admin §4, §5, §8). */
export const passwordRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, sessions, config } = ctx;
  const { db } = database;
  const mailer = createMailer(config);
  app.addHook('onClose', async () => mailer.close());

  r.post(
    '/auth/forgot-password',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'requestPasswordReset',
        tags: ['auth'],
        summary: 'E-mails a reset link valid 30 minutes; the answer never tells whether the address is known',
        body: forgotPasswordBody,
        response: { 200: json(messageSchema, 'The same message whatever the address'), ...errors(429) },
      },
    },
    async (request) => {
      const floor = answerFloor(FORGOT_FLOOR_MS);
      if (config.rateLimits) await hitRateLimit(database, `forgot:${request.ip}`, 10);

      const email = request.body.email.toLowerCase();
      // hashed: an address may be 255 characters, a rate-limit key 200
      const mailKey = `forgot-mail:${sha256(email)}`;
      const token = randomToken(32);
      const tokenHash = sha256(token);

      // The same work for a known and an unknown address: a per-address counter, the lookup, one more
      // statement; the SMTP exchange runs after the answer.
      let mailAllowed = true;
      try {
        await hitRateLimit(database, mailKey, RESET_MAILS_PER_HOUR, 3600);
      } catch (err) {
        if (!(err instanceof RateLimitError)) throw err;
        mailAllowed = false;
      }
      const found = await findUserByEmail(ctx, email);
      if (found && found.user.active && mailAllowed) {
        await createResetToken(database, found.user.id, tokenHash, RESET_TOKEN_MINUTES);
        const link = `${config.publicUrl}/reset?token=${encodeURIComponent(token)}`;
        const language = await userLanguage(database, found.user.id);
        mailer.enqueue(resetMail(found.user.email, found.user.first_name, link, language), request.log);
      } else {
        // A write, as the INSERT above is (a commit flushed to disk takes longer than a read).
        await touchRateLimit(database, mailKey);
      }
      // and the answer never comes sooner than FORGOT_FLOOR_MS: what is left of a known address's
      // extra work (the token's insert, the mail queued) hides under it, on a busy server too
      await floor();
      // no mail server: nothing goes to anybody, and the answer says so, whatever the address (issue 26)
      return { message: config.smtpUrl ? accountMessages.forgotSent : accountMessages.forgotNotSetUp };
    },
  );

  r.post(
    '/auth/reset-password',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'resetPassword',
        tags: ['auth'],
        summary:
          'Sets a new password with a reset token (once, within 30 minutes); ends every session of the user',
        body: resetPasswordBody,
        response: { 200: json(messageSchema, 'The password is changed'), ...errors(429) },
      },
    },
    async (request) => {
      if (config.rateLimits) await hitRateLimit(database, `reset:${request.ip}`, 30);
      const tokenHash = sha256(request.body.token);
      // the token's user (the same token is checked again, and used up, in the transaction below)
      const owner = await database.query<{ email: string; first_name: string; last_name: string }>(
        `SELECT u.email, u.first_name, u.last_name FROM password_reset_tokens t JOIN users u ON u.id = t.user_id
          WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.expires_at > now()`,
        [tokenHash],
      );
      if (owner[0]) {
        await assertStrongPassword(request.body.password, 'password', [
          owner[0].email,
          owner[0].first_name,
          owner[0].last_name,
        ]);
      }
      const passwordHash = await hashPassword(request.body.password);
      const done = await db.transaction(async (tx) => {
        // Used up in the same statement that checks it: two requests with one token cannot both pass.
        const row = await useResetToken(tx, tokenHash);
        if (!row) return false;
        const userId = Number(row.user_id);
        await setPassword(tx, userId, passwordHash);
        await endResetTokens(tx, userId);
        await endUserSessions(tx, userId, null);
        await forgetLoginFailures(tx, accountLockKey({ ...row, id: userId }));
        return true;
      });
      if (!done) {
        throw new AppError('validation_failed', accountMessages.resetInvalid, {
          token: accountMessages.resetInvalid,
        });
      }
      return { message: accountMessages.resetDone };
    },
  );

  r.post(
    '/auth/change-password',
    {
      config: { access: 'signedIn' },
      schema: {
        operationId: 'changePassword',
        tags: ['auth'],
        summary:
          'Changes the password with the current one; ends every session of the user, this one included',
        body: changePasswordBody,
        response: { 200: json(messageSchema, 'The password is changed; sign in again'), ...errors(429) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (config.rateLimits) await hitRateLimit(database, `change-password:${user.id}`, 10);
      const rows = await database.query<{ password_hash: string | null }>(
        'SELECT password_hash FROM users WHERE id = $1',
        [user.id],
      );
      if (!(await verifyPassword(rows[0]?.password_hash, request.body.current_password))) {
        throw new AppError('validation_failed', accountMessages.currentWrong, {
          current_password: accountMessages.currentWrong,
        });
      }
      await assertStrongPassword(request.body.new_password, 'new_password', [
        user.email,
        user.first_name,
        user.last_name,
        request.body.current_password,
      ]);
      const passwordHash = await hashPassword(request.body.new_password);
      await setPassword(db, user.id, passwordHash);
      await sessions.endAllForUser(user.id);
      await sessions.end(request, reply);
      return { message: accountMessages.changeDone };
    },
  );
};
