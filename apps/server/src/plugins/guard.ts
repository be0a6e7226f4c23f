import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, allows, hasAnyRole, type Access } from '@kodi/domain';
import type { Sessions } from './session.ts';

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const accessOf = (request: FastifyRequest): Access => request.routeOptions.config.access ?? 'anyRole';

/**
 * The order every API request follows: authenticate (session), CSRF, then, after validation, authorize.
 * Company scope is never read from the request: handlers use `request.user.company_id`.
 */
export const registerGuards = (app: FastifyInstance, sessions: Sessions, apiPrefix: string) => {
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith(apiPrefix)) return;
    await sessions.load(request);

    if (MUTATIONS.has(request.method)) {
      const header = request.headers['x-csrf-token'];
      const token = Array.isArray(header) ? header[0] : header;
      if (!token) throw new AppError('csrf_missing');
      if (!request.session || request.session.csrfToken !== token) throw new AppError('csrf_expired');
    }

    if (request.is404) return;
    const access = accessOf(request);
    if (access === 'public') return;
    if (!request.user) throw new AppError(request.sessionExpired ? 'token_expired' : 'unauthorized');
  });

  app.addHook('preHandler', async (request) => {
    if (!request.url.startsWith(apiPrefix) || request.is404) return;
    const access = accessOf(request);
    if (access === 'public' || access === 'signedIn') return;
    if (!hasAnyRole(request.user)) throw new AppError('no_role');
    if (!allows(access, request.user)) throw new AppError('forbidden');
  });
};

/** The signed-in user of a guarded route. */
export const currentUser = (request: FastifyRequest) => {
  if (!request.user) throw new AppError('unauthorized');
  return request.user;
};
