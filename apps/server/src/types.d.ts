import type { Access, SessionUser } from '@kodi/domain';
import type { SessionState } from './plugins/session.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    session: SessionState | null;
    user: SessionUser | null;
    /** set when the cookie named a session that had expired while idle. */
    sessionExpired: boolean;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyContextConfig {
    /** Who may call the route; API routes without it need a signed-in user with a role. */
    access?: Access;
    /**
     * A machine's call (the payment webhook): no session is read and no CSRF token asked; the route
     * checks its own signature. Only with `access: 'public'`.
     */
    sessionless?: boolean;
    /**
     * The route serves a user whose company requires a second factor they have not set up yet (the
     * enrolment, the user's sessions); every other signed-in route answers them 403 mfa_enrolment_required.
     */
    beforeMfaEnrolment?: boolean;
  }
}
