import type { ErrorBody, ErrorCode } from '@kodi/domain';
import { isLoggedOutFlagSet } from './storage.ts';
import { takeEarlyFetch } from './early.ts';

/** Every API path is relative to this base (same origin; the dev server proxies it). */
export const API_BASE = '/rentapi/api';

export const CSRF_MAX_ATTEMPTS = 3;
export const CSRF_RETRY_DELAY_MS = 1000;

/** Codes the client itself produces, besides the server's. */
export type ClientErrorCode = 'logged_out' | 'not_authenticated' | 'network_error' | 'http_error';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  readonly fields?: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode | ClientErrorCode,
    message: string,
    fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    if (fields) this.fields = fields;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** The server's `error` text when there is one, else the fallback. */
export const errorMessage = (e: unknown, fallback: string): string =>
  isApiError(e) && e.status > 0 && e.code !== 'http_error' && e.message ? e.message : fallback;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RequestOptions = {
  method?: HttpMethod;
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Skip the client-side 'User not authenticated' block (public data such as the register form's companies). */
  public?: boolean;
  /** Do not show the snackbar on 403 forbidden / no_role; the caller shows its own message. */
  quietForbidden?: boolean;
  /** Do not refresh the CSRF token and retry (used by logout). */
  noCsrfRetry?: boolean;
  /** Read a successful answer as a Blob (file downloads) instead of JSON or text. */
  blob?: boolean;
  /** Called with a successful answer's headers (X-Total-Count, X-Suggested-Filename). */
  onHeaders?: (headers: Headers) => void;
  /** With `blob`: called with the bytes received so far while a download streams in. */
  onProgress?: (bytes: number) => void;
};

/** Reads a body chunk by chunk, telling how many bytes have arrived. */
const readBlobWithProgress = async (res: Response, onProgress: (bytes: number) => void): Promise<Blob> => {
  if (!res.body) return res.blob();
  const reader = res.body.getReader();
  const chunks: BlobPart[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(received);
  }
  return new Blob(chunks, { type: res.headers.get('Content-Type') ?? 'application/octet-stream' });
};

/** Session callbacks; the session store registers them (the client knows nothing about React). */
export type ApiClientHooks = {
  isSignedIn: () => boolean;
  /** 401 outside the login call: clear the session and go to Login with the redirect. */
  onUnauthorized: (error: ApiError) => void;
  /** 403 forbidden / no_role: show the message, keep the user where they are. */
  onForbidden: (error: ApiError) => void;
  /** 403 mfa_enrolment_required: the company requires a second factor the user has not set up. */
  onMfaEnrolment: (error: ApiError) => void;
  /** 403 account_disabled: the account was switched off while signed in. */
  onAccountDisabled: (error: ApiError) => void;
  /** CSRF refresh failed CSRF_MAX_ATTEMPTS times: the user is logged out. */
  onCsrfExhausted: (error: ApiError) => void;
};

let hooks: ApiClientHooks = {
  isSignedIn: () => false,
  onUnauthorized: () => undefined,
  onForbidden: () => undefined,
  onAccountDisabled: () => undefined,
  onMfaEnrolment: () => undefined,
  onCsrfExhausted: () => undefined,
};

export const configureApiClient = (next: Partial<ApiClientHooks>): void => {
  hooks = { ...hooks, ...next };
};

// ---------------------------------------------------------------------------------------------
// CSRF token

let csrfToken: string | null = null;
let csrfRefresh: Promise<string | null> | null = null;

export const getCsrfToken = (): string | null => csrfToken;

export const setCsrfToken = (token: string | null | undefined): void => {
  csrfToken = token ? token : null;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** GET /auth/csrf-token. A failed fetch clears the token (and resolves to null). */
export const fetchCsrfToken = async (): Promise<string | null> => {
  try {
    const answer = await request<{ csrf_token: string }>('/auth/csrf-token');
    setCsrfToken(answer.csrf_token);
  } catch {
    setCsrfToken(null);
  }
  return csrfToken;
};

/** Makes sure a token is held, fetching one if needed (concurrent callers share one fetch). */
export const ensureCsrfToken = async (): Promise<string | null> => {
  if (csrfToken) return csrfToken;
  csrfRefresh ??= fetchCsrfToken().finally(() => {
    csrfRefresh = null;
  });
  return csrfRefresh;
};

/**
 * Refresh after a CSRF rejection: wait 1000 ms × attempt, then fetch a new token. Requests that
 * fail while a refresh is under way queue behind that same refresh.
 */
const refreshCsrfAfterDelay = (attempt: number): Promise<string | null> => {
  csrfRefresh ??= (async () => {
    await sleep(CSRF_RETRY_DELAY_MS * attempt);
    return fetchCsrfToken();
  })().finally(() => {
    csrfRefresh = null;
  });
  return csrfRefresh;
};

// ---------------------------------------------------------------------------------------------
// Requests

const isMutation = (method: HttpMethod) => method !== 'GET';

/** Paths that need no sign-in: everything under /auth and /captcha. */
const isPublicPath = (path: string) =>
  path === '/auth' || path.startsWith('/auth/') || path === '/captcha' || path.startsWith('/captcha/');

/**
 * Calls allowed while the logout flag is set: login, register and the CSRF token (spec), plus the
 * captcha (which the Login and Register pages need) and the public password-recovery calls.
 */
const allowedWhileLoggedOut = (path: string) =>
  /^\/auth\/(login|register|csrf-token|forgot-password|reset-password)(\/|$|\?)/.test(path) ||
  path.startsWith('/captcha');

const isLoginCall = (path: string) => path === '/auth/login' || path === '/auth/login/mfa';

const buildUrl = (path: string, query: RequestOptions['query']): string => {
  const url = `${API_BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
};

const isErrorBody = (value: unknown): value is ErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { error?: unknown }).error === 'string' &&
  typeof (value as { code?: unknown }).code === 'string';

const readBody = async (res: Response): Promise<unknown> => {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
};

const toApiError = (res: Response, body: unknown): ApiError => {
  if (isErrorBody(body)) return new ApiError(res.status, body.code, body.error, body.fields);
  const text = res.statusText ? `${res.status} ${res.statusText}` : String(res.status);
  return new ApiError(res.status, 'http_error', `Request failed (${text}).`);
};

const isCsrfRejection = (e: ApiError) =>
  e.status === 403 && (e.code === 'csrf_expired' || e.code === 'csrf_missing');

const send = async (path: string, options: RequestOptions): Promise<Response> => {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (isMutation(method) && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const url = buildUrl(path, options.query);
  // the first page of a list page's list may have been asked before the app started (public/early.js)
  const early = method === 'GET' ? takeEarlyFetch(url) : undefined;
  const answered = early ? await early.catch(() => undefined) : undefined;
  if (answered) return answered;
  try {
    return await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && (e.name === 'AbortError' || e.name === 'TimeoutError')) throw e;
    throw new ApiError(0, 'network_error', 'Network error. Please check your connection and try again.');
  }
};

/** One API call: JSON in and out, CSRF header on mutations, the session rules on errors. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';

  // Client-side blocks (01-core §4, §6).
  if (isLoggedOutFlagSet() && !options.public && !allowedWhileLoggedOut(path)) {
    throw new ApiError(0, 'logged_out', 'User has logged out');
  }
  if (!options.public && !isPublicPath(path) && !hooks.isSignedIn()) {
    throw new ApiError(0, 'not_authenticated', 'User not authenticated');
  }

  if (isMutation(method) && !csrfToken) await ensureCsrfToken();

  for (let attempt = 0; ; attempt++) {
    const res = await send(path, options);
    if (res.ok) options.onHeaders?.(res.headers);
    if (res.ok && options.blob) {
      return (
        options.onProgress ? await readBlobWithProgress(res, options.onProgress) : await res.blob()
      ) as T;
    }
    const body = await readBody(res);
    if (res.ok) return body as T;

    const error = toApiError(res, body);

    if (isCsrfRejection(error) && isMutation(method) && !options.noCsrfRetry) {
      if (attempt < CSRF_MAX_ATTEMPTS) {
        await refreshCsrfAfterDelay(attempt + 1);
        continue;
      }
      hooks.onCsrfExhausted(error);
      throw error;
    }

    if (res.status === 401 && !isLoginCall(path) && error.code !== 'invalid_credentials') {
      hooks.onUnauthorized(error);
    } else if (res.status === 403 && (error.code === 'forbidden' || error.code === 'no_role')) {
      if (!options.quietForbidden) hooks.onForbidden(error);
    } else if (res.status === 403 && error.code === 'account_disabled') {
      hooks.onAccountDisabled(error);
    } else if (res.status === 403 && error.code === 'mfa_enrolment_required') {
      hooks.onMfaEnrolment(error);
    }
    throw error;
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = void>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'DELETE' }),
};
