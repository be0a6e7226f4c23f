import { useSyncExternalStore } from 'react';
import type { AuthStatus, Company, LoginAnswer, SessionUser } from '@kodi/domain';
import { api, configureApiClient, fetchCsrfToken, setCsrfToken } from './api-client.ts';
import { takeEarly } from './early.ts';
import { MFA_ENROLMENT_PATH, currentPath, isGuestPath, loginPath, navigateTo } from './navigation.ts';
import { notify } from './notifications.ts';
import { i18n } from './i18n.ts';
import { companyQuery } from './queries.ts';
import { queryClient } from './query-client.ts';
import {
  clearAllStorage,
  clearLoggedOutFlag,
  clearReadableCookies,
  isLoggedOutFlagSet,
  readLocalJson,
  removeLocal,
  setLoggedOutFlag,
  storageKeys,
  writeLocalJson,
} from './storage.ts';

/** Periodic session check while signed in (02-admin §9). */
export const STATUS_CHECK_INTERVAL_MS = 300_000;
const STATUS_TIMEOUT_MS = 15_000;

export const DEFAULT_COMPANY_NAME = 'Kodi Properties';

export type SessionState = {
  user: SessionUser | null;
  company: Company | null;
  /** The server's /auth/status has answered at least once since start (or since logout). */
  statusChecked: boolean;
};

// ---------------------------------------------------------------------------------------------
// Store

let state: SessionState = {
  user: null,
  company: readLocalJson<Company>(storageKeys.company),
  statusChecked: false,
};
const listeners = new Set<() => void>();

const setState = (patch: Partial<SessionState>) => {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
};

export const getSession = (): SessionState => state;

export const subscribeSession = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const useSession = (): SessionState => useSyncExternalStore(subscribeSession, getSession, getSession);

export const isSignedIn = (): boolean => state.user !== null;

/** The company name for the top bar, or the default one. */
export const companyName = (s: SessionState): string => s.company?.name || DEFAULT_COMPANY_NAME;

// ---------------------------------------------------------------------------------------------
// Company

/** Fetches the user's company (GET /companies_single/{id}) and caches it in local storage. */
const loadCompany = async (user: SessionUser): Promise<void> => {
  try {
    const company = await queryClient.fetchQuery(companyQuery(user.company_id));
    if (state.user?.id !== user.id) return; // signed out or switched meanwhile
    writeLocalJson(storageKeys.company, company);
    setState({ company });
  } catch {
    // Keep the cached company (or none: the top bar then shows the default name).
  }
};

const applyUser = (user: SessionUser) => {
  const company = state.company?.id === user.company_id ? state.company : null;
  if (!company) removeLocal(storageKeys.company);
  setState({ user, company, statusChecked: true });
};

// ---------------------------------------------------------------------------------------------
// Status

let statusInFlight: Promise<SessionUser | null> | null = null;

/** `GET /auth/status`: keeps its CSRF token and, when someone is signed in, the user (and a fresh token). */
const readStatus = async (): Promise<AuthStatus> => {
  // the page's first status was asked before the app started (public/early.js)
  const status =
    (await takeEarly<AuthStatus>('status')) ??
    (await api.get<AuthStatus>('/auth/status', { signal: AbortSignal.timeout(STATUS_TIMEOUT_MS) }));
  setCsrfToken(status.csrf_token);
  if (status.user) {
    applyUser(status.user);
    // fetched again as the spec asks, without holding the page: the status's token serves meanwhile
    void fetchCsrfToken();
  }
  return status;
};

const fetchStatus = async (): Promise<SessionUser | null> => {
  try {
    const status = await readStatus();
    if (status.user) {
      void loadCompany(status.user);
    } else {
      if (state.user) clearSession();
      setState({ statusChecked: true });
    }
    return status.user;
  } catch {
    // Server unreachable: keep what we know; the next guard or check asks again.
    return state.user;
  }
};

/**
 * Asks the server who is signed in: once, or again when `force` is set. Skipped while the logout
 * flag is set (the user counts as signed out).
 */
export const ensureStatus = (options: { force?: boolean } = {}): Promise<SessionUser | null> => {
  if (isLoggedOutFlagSet()) return Promise.resolve(null);
  if (state.statusChecked && !options.force) return Promise.resolve(state.user);
  statusInFlight ??= fetchStatus().finally(() => {
    statusInFlight = null;
  });
  return statusInFlight;
};

// ---------------------------------------------------------------------------------------------
// Sign-in and sign-out

/** Clears user and company in memory and their cached copies (no navigation). */
export const clearSession = (): void => {
  removeLocal(storageKeys.company);
  setCsrfToken(null);
  queryClient.clear();
  setState({ user: null, company: null });
};

/** Login (or register) succeeded: store user and company, clear the logout flag. */
export const completeLogin = async (answer: LoginAnswer): Promise<void> => {
  clearLoggedOutFlag();
  setCsrfToken(answer.csrf_token);
  applyUser(answer.user);
  await fetchCsrfToken();
  await loadCompany(answer.user);
};

let loggingOut = false;

export type LogoutOptions = {
  /** Shown after the user lands on Login (e.g. why they were logged out). */
  message?: string;
  /** Do not report a failed server call (used when the CSRF token could not be refreshed). */
  quietServerFailure?: boolean;
};

/**
 * POST /auth/logout, then, whatever the server says: clear user, company, local and session
 * storage, set the logout flag and go to Login.
 */
export const logout = async (options: LogoutOptions = {}): Promise<void> => {
  if (loggingOut) return;
  loggingOut = true;
  try {
    try {
      await api.post<void>('/auth/logout', undefined, { noCsrfRetry: true });
    } catch (e) {
      console.error('Logout call failed', e);
      if (!options.quietServerFailure) notify(i18n._('shell.logoutServerFailed'), 'warning');
    }
    clearSession();
    clearAllStorage();
    clearReadableCookies();
    setLoggedOutFlag();
    setState({ statusChecked: false });
    navigateTo('/login', { replace: true });
    if (options.message) notify(options.message, 'error');
  } finally {
    loggingOut = false;
  }
};

/** The server says the session is gone (401): clear it and go to Login with the redirect. */
export const expireSession = (message?: string): void => {
  const wasSignedIn = state.user !== null;
  const path = currentPath();
  clearSession();
  setState({ statusChecked: true });
  if (isGuestPath(window.location.pathname)) return;
  navigateTo(loginPath(path), { replace: true });
  if (wasSignedIn && message) notify(message, 'warning');
};

// ---------------------------------------------------------------------------------------------
// Watching the session

const recheck = async () => {
  const hadUser = state.user !== null;
  try {
    const status = await readStatus();
    if (!status.user && hadUser) expireSession(i18n._('shell.sessionExpired'));
  } catch {
    // Offline or server down: try again at the next check.
  }
};

/**
 * Every 5 minutes, re-check the status when signed in (skipped while the logout flag is set: the
 * session is then cleared locally). When the page becomes visible again: with the flag, clear the
 * session and go to Login; otherwise re-check.
 */
export const startSessionWatch = (): (() => void) => {
  const timer = window.setInterval(() => {
    if (isLoggedOutFlagSet()) {
      if (state.user) clearSession();
      return;
    }
    if (state.user) void recheck();
  }, STATUS_CHECK_INTERVAL_MS);

  const onVisibility = () => {
    if (document.visibilityState !== 'visible') return;
    if (isLoggedOutFlagSet()) {
      clearSession();
      if (window.location.pathname !== '/login') navigateTo('/login', { replace: true });
      return;
    }
    if (state.user) void recheck();
  };
  document.addEventListener('visibilitychange', onVisibility);

  return () => {
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
};

// The API client asks the session who is signed in and reports session-ending answers here.
configureApiClient({
  isSignedIn,
  onUnauthorized: (error) => expireSession(error.message),
  onForbidden: (error) => notify(error.message, 'error', 6000),
  onAccountDisabled: (error) => void logout({ message: error.message, quietServerFailure: true }),
  onMfaEnrolment: (error) => {
    // the user learns it now (the company's setting changed): the status says so from here on
    if (!state.user?.mfa_required) void ensureStatus({ force: true });
    if (window.location.pathname === MFA_ENROLMENT_PATH) return;
    navigateTo(MFA_ENROLMENT_PATH);
    notify(error.message, 'warning', 6000);
  },
  onCsrfExhausted: (error) => void logout({ message: error.message, quietServerFailure: true }),
});
