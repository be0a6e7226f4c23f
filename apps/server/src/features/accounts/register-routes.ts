import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, accountMessages, registerBody } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { assertStrongPassword } from '../../modules/identity/password-strength.ts';
import { hitRateLimit } from '../../plugins/rate-limit.ts';
import { captchaMatches } from '../../platform/captcha.ts';
import { createRegisteredUser } from '../../modules/identity/accounts.ts';
import {
  emailTaken,
  findUserByEmail,
  rethrowDuplicateEmail,
  signedInSchema,
} from '../../modules/identity/users.ts';
import { errors, json } from '../../plugins/openapi.ts';

/** Self-registration (02-admin §2 Register): a user with no role until an administrator grants one. */
export const registerRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, sessions } = ctx;

  r.post(
    '/auth/register',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'register',
        tags: ['auth'],
        summary: 'Create an account (no role yet) with the CAPTCHA answer, and sign in',
        body: registerBody,
        response: {
          201: json(signedInSchema, 'Registered and signed in'),
          ...errors(409, 429),
        },
      },
    },
    async (request, reply) => {
      if (ctx.config.rateLimits) await hitRateLimit(database, `register:${request.ip}`, 30);
      const { captcha_answer, ...input } = request.body;

      // The captcha first, used up by any attempt (as at login).
      const captchaOk = captchaMatches(request.session, captcha_answer);
      if (request.session?.captchaAnswer) await sessions.setCaptcha(request.session, null);
      if (!captchaOk) throw new AppError('captcha_failed', accountMessages.captchaFailed);

      const email = input.email.toLowerCase();
      // Only the companies the register page offers (the active ones).
      const company = await database.query('SELECT 1 FROM companies WHERE id = $1 AND status', [
        input.company_id,
      ]);
      if (company.length === 0) {
        throw new AppError('validation_failed', accountMessages.companyMissing, {
          company_id: accountMessages.companyMissing,
        });
      }
      if (await findUserByEmail(ctx, email)) throw emailTaken();

      await assertStrongPassword(input.password, 'password', [email, input.first_name, input.last_name]);
      const passwordHash = await hashPassword(input.password);
      const id = await createRegisteredUser(database, {
        email,
        firstName: input.first_name,
        lastName: input.last_name,
        companyId: input.company_id,
        passwordHash,
      }).catch(rethrowDuplicateEmail);
      const session = await sessions.signIn(request, reply, id);
      const found = await findUserByEmail(ctx, email);
      if (!found) throw new AppError('internal_error');
      request.user = found.user;
      return reply.code(201).send({ user: found.user, csrf_token: session.csrfToken });
    },
  );
};
