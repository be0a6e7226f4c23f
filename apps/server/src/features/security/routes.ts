import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import { z } from 'zod';
import {
  AppError,
  accountMessages,
  browserName,
  mfaCodeBody,
  mfaSetupSchema,
  mfaStatusSchema,
  recoveryCodesSchema,
  securityMessages,
  sessionInfoSchema,
  type SessionInfo,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { recordUserChange } from '../../modules/audit/audit.ts';
import { execRows } from '../../db/client.ts';
import { endUserSession, endUserSessions, endWaitingSignIns } from '../../plugins/session.ts';
import {
  enableMfa,
  mfaSecretPurpose,
  newRecoveryCodes,
  newTotpSecret,
  readMfa,
  removeMfa,
  sessionsEndedAnswer,
  setMfaSecret,
  totpStep,
} from '../../modules/identity/mfa.ts';
import { hitRateLimit } from '../../plugins/rate-limit.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { currentUser } from '../../plugins/guard.ts';
import { empty, errors, json, named } from '../../plugins/openapi.ts';

const messageSchema = z.object({ message: z.string() });
const refParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

/** Codes tried by one user at confirming or turning off, at most this many a minute. */
const CODE_TRIES_PER_MINUTE = 10;

const codeWrong = () =>
  new AppError('validation_failed', securityMessages.codeWrong, { code: securityMessages.codeWrong });
const passwordWrong = () =>
  new AppError('validation_failed', accountMessages.currentWrong, {
    current_password: accountMessages.currentWrong,
  });

type SessionRow = {
  ref: number;
  id: string;
  created_at: Date | string;
  last_seen_at: Date | string;
  ip_address: string | null;
  user_agent: string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * A user's own security (issue 20): the second factor (TOTP) set up, confirmed and turned off, and the
 * sessions the user can see and end. A user whose company requires a second factor reaches these
 * routes before having one (`beforeMfaEnrolment`).
 */
export const securityRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const { db } = database;
  const tags = ['auth'];
  const signedIn = { access: 'signedIn' as const, beforeMfaEnrolment: true };

  const limitCodes = async (userId: number) => {
    if (ctx.config.rateLimits) await hitRateLimit(database, `mfa-code:${userId}`, CODE_TRIES_PER_MINUTE);
  };

  /**
   * The current password, asked to put a second factor in or take it off (issue 23): a stolen session
   * alone cannot enrol its own authenticator and lock the owner out, nor remove the owner's. Tries
   * share the codes' limit (10 a minute per user).
   */
  const checkPassword = async (userId: number, password: string) => {
    const rows = await database.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [userId],
    );
    if (!(await verifyPassword(rows[0]?.password_hash, password))) throw passwordWrong();
  };

  r.get(
    '/auth/mfa',
    {
      config: signedIn,
      schema: {
        operationId: 'getMfaStatus',
        tags,
        summary: 'Whether the signed-in user signs in with a second factor, and the recovery codes left',
        response: { 200: json(named(mfaStatusSchema, 'MfaStatus'), 'The second factor') },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const [mfa, left] = await Promise.all([
        readMfa(db, ctx.secrets, user.id),
        execRows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM mfa_recovery_codes WHERE user_id = ${user.id} AND used_at IS NULL`,
        ),
      ]);
      return {
        enabled: mfa.enabled,
        enabled_at: mfa.enabledAt,
        recovery_codes_left: mfa.enabled ? Number(left[0]?.n ?? 0) : 0,
        required: user.mfa_required,
      };
    },
  );

  r.post(
    '/auth/mfa/setup',
    {
      config: signedIn,
      schema: {
        operationId: 'setUpMfa',
        tags,
        summary: 'Starts setting up a second factor: a new TOTP secret (base32), its otpauth URL and QR code',
        description:
          'The secret is in force only once `POST /auth/mfa/confirm` has a code of it; a new setup replaces one not confirmed.',
        response: {
          200: json(named(mfaSetupSchema, 'MfaSetup'), 'The secret to enter in an authenticator app'),
          ...errors(409),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { secret, otpauthUrl } = newTotpSecret(user.email);
      if (!(await setMfaSecret(db, user.id, ctx.secrets.seal(secret, mfaSecretPurpose(user.id)))))
        throw new AppError('mfa_already_enabled');
      const qr = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { secret, otpauth_url: otpauthUrl, qr_svg: qr };
    },
  );

  r.post(
    '/auth/mfa/confirm',
    {
      config: signedIn,
      schema: {
        operationId: 'confirmMfa',
        tags,
        summary:
          'Turns the second factor on with a code of the secret set up and the current password; answers 10 single-use recovery codes, shown this once',
        description: 'Every other session of the user ends: they were opened without the second factor.',
        body: mfaCodeBody,
        response: {
          200: json(named(recoveryCodesSchema, 'RecoveryCodes'), 'The recovery codes'),
          ...errors(409, 429, 503),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await limitCodes(user.id);
      await checkPassword(user.id, request.body.current_password);
      const mfa = await readMfa(db, ctx.secrets, user.id);
      if (mfa.enabled) throw new AppError('mfa_already_enabled');
      if (!mfa.hasSecret) {
        throw new AppError('validation_failed', securityMessages.noSetup, { code: securityMessages.noSetup });
      }
      const step = totpStep(mfa.openSecret(), request.body.code);
      if (step === null) throw codeWrong();
      const { codes, hashes } = newRecoveryCodes();
      const done = await db.transaction(async (tx) => {
        if (!(await enableMfa(tx, user.id, step, hashes))) return false;
        await endUserSessions(tx, user.id, request.session?.id ?? null);
        await recordUserChange(tx, {
          userId: user.id,
          actorId: user.id,
          before: { mfa_enabled: false },
          after: { mfa_enabled: true },
        });
        return true;
      });
      if (!done) throw new AppError('mfa_already_enabled');
      return { recovery_codes: codes };
    },
  );

  r.delete(
    '/auth/mfa',
    {
      config: signedIn,
      schema: {
        operationId: 'disableMfa',
        tags,
        summary: 'Turns the second factor off, with a current code of it and the current password',
        body: mfaCodeBody,
        response: { 200: json(messageSchema, 'Turned off'), ...errors(429, 503) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await limitCodes(user.id);
      await checkPassword(user.id, request.body.current_password);
      const mfa = await readMfa(db, ctx.secrets, user.id);
      if (!mfa.enabled || !mfa.hasSecret) {
        throw new AppError('validation_failed', securityMessages.notEnabled, {
          code: securityMessages.notEnabled,
        });
      }
      if (totpStep(mfa.openSecret(), request.body.code) === null) throw codeWrong();
      await db.transaction(async (tx) => {
        if (await removeMfa(tx, user.id)) {
          await recordUserChange(tx, {
            userId: user.id,
            actorId: user.id,
            before: { mfa_enabled: true },
            after: { mfa_enabled: false },
          });
        }
      });
      return { message: securityMessages.disabled };
    },
  );

  r.get(
    '/auth/sessions',
    {
      config: signedIn,
      schema: {
        operationId: 'listOwnSessions',
        tags,
        summary: "The signed-in user's sessions, the current one marked, the last seen first",
        response: { 200: json(z.array(named(sessionInfoSchema, 'SessionInfo')), 'The sessions') },
      },
    },
    async (request): Promise<SessionInfo[]> => {
      const user = currentUser(request);
      const rows = await execRows<SessionRow>(
        db,
        sql`SELECT ref, id, created_at, last_seen_at, ip_address, user_agent FROM sessions
             WHERE user_id = ${user.id} ORDER BY last_seen_at DESC, ref DESC LIMIT 200`,
      );
      return rows.map((s) => ({
        id: Number(s.ref),
        created_at: iso(s.created_at),
        last_seen_at: iso(s.last_seen_at),
        ip_address: s.ip_address,
        user_agent: s.user_agent,
        browser: browserName(s.user_agent),
        current: s.id === request.session?.id,
      }));
    },
  );

  r.delete(
    '/auth/sessions/:id',
    {
      config: signedIn,
      schema: {
        operationId: 'endOwnSession',
        tags,
        summary: 'Ends one of the user’s other sessions (sign out to end this one)',
        params: refParams,
        response: { 204: empty('Ended'), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (request.params.id === request.session?.ref) {
        throw new AppError('bad_request', securityMessages.currentSession);
      }
      if (!(await endUserSession(db, user.id, request.params.id)))
        throw new AppError('not_found', securityMessages.sessionNotFound);
      // a session the user does not trust: a sign-in of theirs waiting for its code ends too (issue 23)
      await endWaitingSignIns(db, user.id);
      return reply.code(204).send();
    },
  );

  r.delete(
    '/auth/sessions',
    {
      config: signedIn,
      schema: {
        operationId: 'endOtherSessions',
        tags,
        summary: 'Ends every session of the user but this one',
        response: { 200: json(sessionsEndedAnswer, 'How many sessions ended') },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { ended: await endUserSessions(db, user.id, request.session?.id ?? null) };
    },
  );
};
