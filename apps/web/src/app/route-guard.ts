import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { RoleName } from '@kodi/domain';
import { MFA_ENROLMENT_PATH, loginPath } from '../lib/navigation.ts';
import { ensureStatus, getSession } from '../lib/session.ts';
import {
  clearLoggedOutFlag,
  isLoggedOutFlagSet,
  readLocalJson,
  removeLocal,
  storageKeys,
} from '../lib/storage.ts';

/** What a route requires: any signed-in user, guests only, nothing, or one of the listed roles. */
export type RouteGuard = 'signedIn' | 'guest' | 'none' | readonly RoleName[];

const needsSignIn = (guard: RouteGuard) => guard !== 'none' && guard !== 'guest';

/**
 * The route guard of 02-admin §2 as a data-router loader (it runs before the page renders):
 * 1. logout flag set and the route needs sign-in → clear the flag, go to Login with the redirect;
 * 2. otherwise ask the server for the status once (again when signed out and the route needs sign-in);
 * 3. a stored local session without a signed-in user is cleared;
 * 4. sign-in route, signed out → Login with the redirect; guest route, signed in → Home;
 * 5. role route: one of the roles, else Home (or Login when signed out);
 * 6. a tenant's portal account (role `tenant`) is sent to the portal, /portal.
 */
export const guardLoader =
  (guard: RouteGuard) =>
  async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const url = new URL(request.url);
    const target = `${url.pathname}${url.search}`;

    if (isLoggedOutFlagSet()) {
      if (needsSignIn(guard)) {
        clearLoggedOutFlag();
        throw redirect(loginPath(target));
      }
      return null; // signed out; status checks are skipped while the flag is set
    }

    const known = getSession();
    const user = await ensureStatus({ force: known.user === null && needsSignIn(guard) });

    if (!user && readLocalJson(storageKeys.company) !== null) removeLocal(storageKeys.company);

    if (guard === 'none') return null;
    // a tenant's portal account belongs to the portal (its own page, not this app): go there
    // an owner's belongs to the owner portal (the same page, its owner view: issue 27)
    if (user?.roles.includes('tenant') || user?.roles.includes('owner')) {
      window.location.replace(user.roles.includes('owner') ? '/owner' : '/portal');
      return new Promise<null>(() => undefined);
    }
    if (guard === 'guest') {
      if (user) throw redirect('/');
      return null;
    }
    if (!user) throw redirect(loginPath(target));
    // the company requires a second factor: its enrolment before anything else (the server refuses the rest)
    if (user.mfa_required && !user.mfa_enabled && url.pathname !== MFA_ENROLMENT_PATH) {
      throw redirect(MFA_ENROLMENT_PATH);
    }
    if (guard !== 'signedIn' && !guard.some((role) => user.roles.includes(role))) throw redirect('/');
    return null;
  };
