import { recordSignIn } from '../../modules/audit/audit.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { MFA_CHALLENGE_MINUTES, accountMessages, isOwner, isTenant, portalMessages } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { hitRateLimit, RateLimitError } from '../../plugins/rate-limit.ts';
import { stampLastLogin } from '../../modules/identity/accounts.ts';
import { findUserByEmail } from '../../modules/identity/users.ts';
import { empty } from '../../plugins/openapi.ts';

/** The web pages the flow ends on (02-admin §2 Google sign-in pages). */
export const GOOGLE_SUCCESS_PATH = '/auth/google/success';
export const GOOGLE_ERROR_PATH = '/auth/google/error';
/** A user with a second factor goes on to its step on the Login page. */
export const GOOGLE_MFA_PATH = '/login?mfa=1';
/** A sign-in started longer ago than this is refused at the callback. */
export const GOOGLE_STATE_TTL_MS = 10 * 60_000;

export const googleErrorUrl = (message: string) =>
  `${GOOGLE_ERROR_PATH}?error_message=${encodeURIComponent(message)}`;

/** What the session keeps between the redirect to the provider and its callback (one use). */
const savedState = z.object({
  state: z.string(),
  nonce: z.string(),
  code_verifier: z.string(),
  created_at: z.number(),
});

/** Failures whose text is meant for the user; anything else is logged and shown as a generic failure. */
class SignInRefused extends Error {}

/**
 * Google sign-in (OpenID Connect authorization code flow with PKCE, state and nonce) for users who already
 * have an active account with a verified Google e-mail; it never creates one.
 */
export const googleRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, database, sessions } = ctx;
  const tags = ['auth'];
  const redirectUri = `${config.publicUrl}${app.prefix}/auth/google/callback`;

  let discovered: Promise<oidc.Configuration> | undefined;
  /** The provider's metadata, fetched once (again after a failure). */
  const provider = (): Promise<oidc.Configuration> => {
    const clientId = config.googleClientId;
    if (!clientId) return Promise.reject(new SignInRefused(accountMessages.googleNotConfigured));
    const issuer = new URL(config.googleIssuer);
    // Plain http only for a local test provider, never in production.
    const insecure = issuer.protocol === 'http:' && config.nodeEnv !== 'production';
    discovered ??= oidc
      .discovery(
        issuer,
        clientId,
        config.googleClientSecret,
        config.googleClientSecret ? undefined : oidc.None(),
        insecure ? { execute: [oidc.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  };

  const fail = (reply: FastifyReply, err: unknown) => {
    const refused = err instanceof SignInRefused || err instanceof RateLimitError;
    if (!refused) reply.log.warn({ err }, 'Google sign-in failed');
    return reply.redirect(googleErrorUrl(refused ? err.message : accountMessages.googleFailed));
  };

  r.get(
    '/auth/google/login',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'startGoogleSignIn',
        tags,
        summary: 'Redirects to Google (or to the error page when Google sign-in is not configured)',
        response: { 302: empty("To Google's sign-in, or to the web's error page") },
      },
    },
    async (request, reply) => {
      try {
        if (!config.googleClientId) throw new SignInRefused(accountMessages.googleNotConfigured);
        if (config.rateLimits) await hitRateLimit(database, `google:${request.ip}`, 30);
        const configuration = await provider();
        const session = await sessions.ensure(request, reply);
        const saved: z.infer<typeof savedState> = {
          state: oidc.randomState(),
          nonce: oidc.randomNonce(),
          code_verifier: oidc.randomPKCECodeVerifier(),
          created_at: Date.now(),
        };
        await sessions.saveOAuthState(session, JSON.stringify(saved));
        const url = oidc.buildAuthorizationUrl(configuration, {
          redirect_uri: redirectUri,
          scope: 'openid email profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(saved.code_verifier),
          code_challenge_method: 'S256',
          state: saved.state,
          nonce: saved.nonce,
        });
        return reply.redirect(url.href);
      } catch (err) {
        return fail(reply, err);
      }
    },
  );

  r.get(
    '/auth/google/callback',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'finishGoogleSignIn',
        tags,
        summary: "Google's redirect back: signs the user in and redirects to the success or the error page",
        querystring: z.looseObject({ error: z.string().max(200).optional() }),
        response: { 302: empty("To the web's success page (signed in) or its error page") },
      },
    },
    async (request, reply) => {
      try {
        if (!config.googleClientId) throw new SignInRefused(accountMessages.googleNotConfigured);
        // The state saved at the redirect, used up now whatever happens next.
        const raw = request.session ? await sessions.takeOAuthState(request.session) : null;
        const parsed = raw ? savedState.safeParse(JSON.parse(raw)) : undefined;
        if (!parsed?.success || Date.now() - parsed.data.created_at > GOOGLE_STATE_TTL_MS) {
          throw new SignInRefused(accountMessages.googleExpired);
        }
        if (request.query.error) {
          throw new SignInRefused(
            request.query.error === 'access_denied'
              ? 'Google sign-in was cancelled.'
              : accountMessages.googleFailed,
          );
        }

        const currentUrl = new URL(redirectUri);
        currentUrl.search = new URL(request.url, 'http://callback.invalid').search;
        const tokens = await oidc.authorizationCodeGrant(await provider(), currentUrl, {
          pkceCodeVerifier: parsed.data.code_verifier,
          expectedState: parsed.data.state,
          expectedNonce: parsed.data.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        const email = typeof claims?.email === 'string' ? claims.email : undefined;
        const verified = claims?.email_verified === true || claims?.email_verified === 'true';
        if (!email || !verified) throw new SignInRefused(accountMessages.googleUnverified);

        const found = await findUserByEmail(ctx, email);
        if (!found) throw new SignInRefused(accountMessages.googleUnknownUser);
        if (!found.user.active)
          throw new SignInRefused('This account is disabled. Contact your administrator.');
        // a tenant's portal account signs in at the portal only, as at the password form (issue 23)
        if (isTenant(found.user) || isOwner(found.user)) throw new SignInRefused(portalMessages.staffRefused);

        if (found.user.mfa_enabled) {
          // Google vouches for the e-mail, not for the second factor: the code step follows on Login
          await sessions.startMfaChallenge(request, reply, found.user.id, MFA_CHALLENGE_MINUTES);
          return reply.redirect(GOOGLE_MFA_PATH);
        }
        await stampLastLogin(database, found.user.id);
        await sessions.signIn(request, reply, found.user.id);
        await recordSignIn(database.db, { userId: found.user.id, ok: true, how: 'Google', ip: request.ip });
        request.log.info({ userId: found.user.id }, 'signed in with Google');
        return reply.redirect(GOOGLE_SUCCESS_PATH);
      } catch (err) {
        return fail(reply, err);
      }
    },
  );
};
