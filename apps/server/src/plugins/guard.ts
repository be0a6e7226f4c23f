import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, allows, hasAnyRole, type Access } from '@kodi/domain';
import type { SessionCheck, Sessions } from './session.ts';

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const accessOf = (request: FastifyRequest): Access => request.routeOptions.config.access ?? 'anyRole';

/** A signed-in user, unless the route is public. */
const authenticate = (request: FastifyRequest) => {
  if (request.is404 || accessOf(request) === 'public') return;
  if (!request.user) throw new AppError(request.sessionExpired ? 'token_expired' : 'unauthorized');
};

/** The route's roles (after validation, so that a malformed request is a 400 for everyone). */
const authorize = (request: FastifyRequest) => {
  const access = accessOf(request);
  if (request.is404 || access === 'public' || access === 'signedIn') return;
  if (!hasAnyRole(request.user)) throw new AppError('no_role');
  if (!allows(access, request.user)) throw new AppError('forbidden');
};

/**
 * The order every API request follows: authenticate (session), CSRF, then, after validation, authorize.
 * Company scope is never read from the request: handlers use `request.user.company_id`.
 */
export const registerGuards = (app: FastifyInstance, sessions: Sessions, apiPrefix: string) => {
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith(apiPrefix)) return;
    await sessions.load(request, {
      toConfirm: request.method === 'GET' && request.routeOptions.config.sessionCheck === true,
    });

    if (MUTATIONS.has(request.method)) {
      const header = request.headers['x-csrf-token'];
      const token = Array.isArray(header) ? header[0] : header;
      if (!token) throw new AppError('csrf_missing');
      if (!request.session || request.session.csrfToken !== token) throw new AppError('csrf_expired');
    }

    authenticate(request);
  });

  app.addHook('preHandler', async (request) => {
    if (!request.url.startsWith(apiPrefix)) return;
    try {
      authorize(request);
    } catch (refused) {
      // a refusal is never made on a session taken from memory: it is loaded, and checked again
      if (!request.sessionCheck) throw refused;
      await sessions.load(request);
      authenticate(request);
      authorize(request);
    }
  });
};

/**
 * A read that confirms the session in its own statement (a GET route with `config.sessionCheck`):
 * `read(check)` runs with the session this process kept (`check`, when it was taken from memory) and
 * answers what its statement's SESSION_CHECK_COLUMN said. The answer stands when that is the kept
 * fingerprint; otherwise (the session ended or changed on some server, or no row could tell) the
 * session is loaded from the database, the route's checks are made again, and the read runs again
 * without a check. So such a read costs one round trip, and is never answered on a stale session.
 */
export const confirmedRead = async <T>(
  request: FastifyRequest,
  sessions: Sessions,
  read: (check: SessionCheck | null) => Promise<{ value: T; session?: unknown }>,
): Promise<T> => {
  const check = request.sessionCheck;
  const first = await read(check);
  if (!check || first.session === check.fingerprint) return first.value;
  await sessions.load(request);
  authenticate(request);
  authorize(request);
  return (await read(null)).value;
};

/** The signed-in user of a guarded route. */
export const currentUser = (request: FastifyRequest) => {
  if (!request.user) throw new AppError('unauthorized');
  return request.user;
};
