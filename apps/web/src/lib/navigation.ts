/**
 * Lets non-React code navigate with the data router. The app registers the router's navigate
 * function at start-up; before that (or in tests) a full page load is used.
 */
export type NavigateFn = (to: string, options?: { replace?: boolean }) => void;

let navigator: NavigateFn = (to, options) => {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

export const setNavigator = (fn: NavigateFn): void => {
  navigator = fn;
};

export const navigateTo: NavigateFn = (to, options) => navigator(to, options);

/** The path (with query) the user is on now, for a `redirect` query. */
export const currentPath = (): string => `${window.location.pathname}${window.location.search}`;

/** Routes for guests only; the session never redirects back to these after sign-in. */
/** Where a user whose company requires a second factor sets it up. */
export const MFA_ENROLMENT_PATH = '/account/security';

export const guestPaths = ['/login', '/register'] as const;

export const isGuestPath = (pathname: string): boolean =>
  (guestPaths as readonly string[]).includes(pathname);

/** `/login?redirect=<path>`, or plain `/login` when the path is itself a guest page. */
export const loginPath = (redirect: string = currentPath()): string => {
  const pathname = redirect.split(/[?#]/, 1)[0] ?? '';
  if (pathname === '' || pathname === '/' || isGuestPath(pathname)) return '/login';
  return `/login?redirect=${encodeURIComponent(redirect)}`;
};

/** Only same-app paths are accepted as a redirect target (no `//host` or absolute URLs). */
export const safeRedirect = (value: string | null | undefined, fallback = '/'): string => {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  const pathname = value.split(/[?#]/, 1)[0] ?? '';
  return isGuestPath(pathname) ? fallback : value;
};
