import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  portalMessages,
  portalAcceptBody,
  portalCodeBody,
  portalCodeVerifyBody,
  portalLoginBody,
  type SessionUser,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { hitRateLimit, touchRateLimit } from '../../plugins/rate-limit.ts';
import { answerFloor } from '../../platform/answer-floor.ts';
import { smsProvider } from '../../platform/sms.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { completeSignIn, recordFailedSignIn, refuseIfLocked } from '../../modules/identity/sign-in.ts';
import { attachSignInAddress, setPortalPassword } from '../../modules/identity/accounts.ts';
import { signedInSchema } from '../../modules/identity/users.ts';
import { assertStrongPassword } from '../../modules/identity/password-strength.ts';
import { empty, errors, json } from '../../plugins/openapi.ts';
import { translate } from '../../plugins/i18n.ts';
import { userLanguage } from '../../modules/companies/company.ts';
import {
  countWrongCode,
  accountById,
  companyName,
  findPortalAccount,
  issueToken,
  portalKindOf,
  portalLockKey,
  queueMessage,
  tokenHash,
  useToken,
} from './accounts.ts';

/**
 * A code's answer takes at least this long, whether the login is a tenant's or not (issue 23: 19 ms
 * for a known login against 11 ms for an unknown one before).
 */
export const PORTAL_CODE_FLOOR_MS = 60;

const disabled = (user: SessionUser) =>
  new AppError(
    'account_disabled',
    `Portal access is turned off. Contact your ${portalKindOf(user) === 'owner' ? 'property manager' : 'landlord'}.`,
  );

/**
 * The portals' sign-in (issue 19; the owner portal's too since issue 27: a login names one account, a
 * tenant's or an owner's, and the pages follow its role), under the same rules as staff sign-in but without a CAPTCHA:
 * the same lock (5 failures, 15 minutes, per login as normalised), rate limits per address, the CSRF
 * header on every POST, the same answers whether or not the login exists.
 */
export const portalAuthRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const limit = async (key: string, count: number, windowSeconds = 60) => {
    if (ctx.config.rateLimits) await hitRateLimit(database, key, count, windowSeconds);
  };

  r.post(
    '/portal/auth/accept',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'acceptPortalInvitation',
        tags: ['portal'],
        summary: 'Set the password of an invitation link (single use, 7 days) and sign in',
        body: portalAcceptBody,
        response: {
          200: json(signedInSchema, 'Signed in: the user and the new CSRF token'),
          ...errors(409, 429),
        },
      },
    },
    async (request, reply) => {
      await limit(`portal-accept:${request.ip}`, 30);
      const { token, password } = request.body;
      const rows = await database.query<{ id: number; user_id: number; address: string | null }>(
        `SELECT pt.id, pt.user_id, pt.address FROM portal_tokens pt JOIN users u ON u.id = pt.user_id
          WHERE pt.token_hash = $1 AND pt.kind = 'invitation' AND pt.used_at IS NULL
            AND pt.expires_at > now() AND u.active AND (u.tenant_id IS NOT NULL OR u.owner_id IS NOT NULL)`,
        [tokenHash(0, 'invitation', token)],
      );
      const found = rows[0];
      if (!found) throw new AppError('invitation_invalid');
      const invited = await accountById(database, found.user_id);
      if (!invited) throw new AppError('invitation_invalid');
      // the staff's password rules (issue 23): strength and the common-password list
      await assertStrongPassword(password, 'password', [
        invited.user.email,
        invited.user.first_name,
        invited.user.last_name,
        invited.phone,
        found.address,
      ]);
      // The link reached its address: the account signs in with it from now on, unless another account
      // does already (it was left off the account at the invitation). Only the link's holder, who has
      // that address, is told so; the link stays unused.
      const address = found.address;
      if (address && address !== invited.user.email && address !== invited.phone) {
        if (!(await attachSignInAddress(database, found.user_id, address))) {
          throw new AppError('duplicate', portalMessages.invitationAddressTaken);
        }
      }
      // used once: the UPDATE that marks it used is the one that may go on
      if (!(await useToken(database, found.id))) throw new AppError('invitation_invalid');
      await setPortalPassword(database, found.user_id, await hashPassword(password));
      const signedIn = await accountById(database, found.user_id);
      if (!signedIn) throw new AppError('invitation_invalid');
      return completeSignIn(ctx, request, reply, portalLockKey(signedIn), signedIn.user, 'Portal invitation');
    },
  );

  r.post(
    '/portal/auth/login',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'portalSignIn',
        tags: ['portal'],
        summary: 'Sign a tenant or an owner in with its e-mail or phone (any usual writing) and password',
        body: portalLoginBody,
        response: {
          200: json(signedInSchema, 'Signed in: the user and the new CSRF token'),
          ...errors(401, 429),
        },
      },
    },
    async (request, reply) => {
      await limit(`portal-login:${request.ip}`, 30);
      const { login, password } = request.body;
      const { key, account } = await findPortalAccount(database, login);
      await refuseIfLocked(ctx, key);
      const ok = await verifyPassword(account?.passwordHash, password);
      if (!account || !ok) {
        await recordFailedSignIn(
          ctx,
          key,
          account ? { userId: account.user.id, how: 'Portal password', ip: request.ip } : undefined,
        );
        throw new AppError('invalid_credentials');
      }
      if (!account.user.active) throw disabled(account.user);
      return completeSignIn(ctx, request, reply, key, account.user, 'Portal password');
    },
  );

  r.post(
    '/portal/auth/code',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'requestPortalCode',
        tags: ['portal'],
        summary: 'Send a one-time sign-in code (6 digits, 10 minutes) by e-mail or SMS',
        description: 'Always 202, whether or not the login belongs to a tenant or an owner.',
        body: portalCodeBody,
        response: {
          202: json(
            z.object({
              sent: z.boolean().describe('false: this server cannot send by that channel (not set up)'),
              message: z.string(),
            }),
            'Sent if the login is a tenant’s or an owner’s; the same answer whatever the login',
          ),
          ...errors(429),
        },
      },
    },
    async (request, reply) => {
      const floor = answerFloor(PORTAL_CODE_FLOOR_MS);
      await limit(`portal-code:${request.ip}`, 10);
      const { login, channel } = request.body;
      const { key, account } = await findPortalAccount(database, login);
      // per login too, known or not (so the limit tells nothing): 5 codes in 15 minutes
      const loginKey = `portal-code-login:${key}`;
      await limit(loginKey, 5, 900);
      const to = channel === 'email' ? account?.user.email : account?.phone;
      if (account && account.user.active && to && (account.user.tenant_id || account.user.owner_id)) {
        const { secret } = await issueToken(ctx, account.user.id, 'code');
        const company = await companyName(database, account.user.company_id);
        // in the tenant's or the owner's language, else the company's (issue 30)
        const language = await userLanguage(database, account.user.id);
        const values = { company, portal: portalKindOf(account.user), code: secret };
        await queueMessage(database, {
          companyId: account.user.company_id,
          kind: 'sign_in_code',
          channel,
          to,
          tenantId: account.user.tenant_id ?? null,
          subject:
            channel === 'email' ? translate(language, 'doc.accountMessages.codeSubject', values) : null,
          body: translate(language, 'doc.accountMessages.codeText', values),
        });
      } else {
        // a write, as the code's are (a commit flushed to disk takes longer than a read)
        await touchRateLimit(database, loginKey);
      }
      // and never sooner than the floor: the rest of a known login's work (the code's statements) hides under it
      await floor();
      // a channel this server cannot send by is said so, whoever asks (it tells nothing of the login)
      const canSend = channel === 'email' ? !!ctx.config.smtpUrl : !!smsProvider(ctx.config.smsUrl);
      return reply.code(202).send({
        sent: canSend,
        message: canSend ? portalMessages.codeOnItsWay(channel) : portalMessages.codeNotSetUp(channel),
      });
    },
  );

  r.post(
    '/portal/auth/code/verify',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'verifyPortalCode',
        tags: ['portal'],
        summary: 'Sign a tenant or an owner in with the one-time code it was sent (5 tries)',
        body: portalCodeVerifyBody,
        response: {
          200: json(signedInSchema, 'Signed in: the user and the new CSRF token'),
          ...errors(401, 429),
        },
      },
    },
    async (request, reply) => {
      await limit(`portal-login:${request.ip}`, 30);
      const { login, code } = request.body;
      const { key, account } = await findPortalAccount(database, login);
      await refuseIfLocked(ctx, key);
      const fail = async (): Promise<never> => {
        await recordFailedSignIn(
          ctx,
          key,
          account ? { userId: account.user.id, how: 'Portal code', ip: request.ip } : undefined,
        );
        throw new AppError('invalid_credentials');
      };
      if (!account) return fail();
      const rows = await database.query<{ id: number; token_hash: string; attempts: number }>(
        `SELECT id, token_hash, attempts FROM portal_tokens
          WHERE user_id = $1 AND kind = 'code' AND used_at IS NULL AND expires_at > now()
          ORDER BY id DESC LIMIT 1`,
        [account.user.id],
      );
      const pending = rows[0];
      if (!pending) return fail();
      if (pending.token_hash !== tokenHash(account.user.id, 'code', code)) {
        // the fifth wrong try uses the code up
        await countWrongCode(database, pending.id);
        return fail();
      }
      if (!(await useToken(database, pending.id))) return fail();
      if (!account.user.active) throw disabled(account.user);
      return completeSignIn(ctx, request, reply, key, account.user, 'Portal code');
    },
  );

  r.post(
    '/portal/auth/logout',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'portalSignOut',
        tags: ['portal'],
        summary: 'Ends the tenant’s or owner’s session',
        response: { 204: empty('Signed out') },
      },
    },
    async (request, reply) => {
      await ctx.sessions.end(request, reply);
      return reply.code(204).send();
    },
  );
};
