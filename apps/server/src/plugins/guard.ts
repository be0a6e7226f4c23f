import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, allows, hasAnyRole, portalRoleOf, type Access } from '@kodi/domain';
import type { Sessions } from './session.ts';

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const accessOf = (request: FastifyRequest): Access => request.routeOptions.config.access ?? 'anyRole';

/** The portal a route belongs to (`tenant` or `owner` access), else undefined (a staff route). */
const portalOfRoute = (access: Access) => (access === 'tenant' || access === 'owner' ? access : undefined);

/**
 * A signed-in user, unless the route is public. A portal account (a tenant's or an owner's) is refused
 * on every route but its own portal's, and staff on the portals', before the input is read (the same
 * 403 whatever is sent).
 */
const authenticate = (request: FastifyRequest) => {
  const access = accessOf(request);
  if (request.is404 || access === 'public') return;
  if (!request.user) throw new AppError(request.sessionExpired ? 'token_expired' : 'unauthorized');
  // the portals' routes and the staff's never mix, nor the tenant's and the owner's, whatever is sent
  if (portalOfRoute(access) !== portalRoleOf(request.user)) throw new AppError('forbidden');
  // the company requires a second factor of its staff: nothing but the enrolment until the user has one
  if (
    !portalRoleOf(request.user) &&
    request.user.mfa_required &&
    !request.user.mfa_enabled &&
    !request.routeOptions.config.beforeMfaEnrolment
  ) {
    throw new AppError('mfa_enrolment_required');
  }
};

/** The route's roles (after validation, so that a malformed request is a 400 for everyone). */
const authorize = (request: FastifyRequest) => {
  const access = accessOf(request);
  if (request.is404 || access === 'public') return;
  // a portal account: its portal's routes only (every staff route, signed-in ones too, is a 403), and
  // only with the record it belongs to
  const portal = portalOfRoute(access);
  if (portal || portalRoleOf(request.user)) {
    const own = portal === 'tenant' ? request.user?.tenant_id : request.user?.owner_id;
    if (!portal || portal !== portalRoleOf(request.user) || !own) throw new AppError('forbidden');
    return;
  }
  if (access === 'signedIn') return;
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
    // a signed machine call (the payment webhook): no cookie, no session, no CSRF
    if (request.routeOptions.config.sessionless && accessOf(request) === 'public') return;
    await sessions.load(request);

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
    authorize(request);
  });
};

/** The signed-in user of a guarded route. */
export const currentUser = (request: FastifyRequest) => {
  if (!request.user) throw new AppError('unauthorized');
  return request.user;
};
