// The tenant portal's calls to the API: the session cookie, the CSRF header on every POST and PUT
// (fetched from /auth/csrf-token, refreshed once on csrf_expired), and what the tenant last saw kept
// for offline reading: answers in localStorage, opened PDFs in the Cache API, each with when it was fetched.

const API = '/rentapi/api';
const FILES = 'kodi-portal-files-v1';

export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

let csrf: string | undefined;

const csrfToken = async (): Promise<string> => {
  if (!csrf) {
    const res = await fetch(`${API}/auth/csrf-token`, { credentials: 'same-origin' });
    csrf = ((await res.json()) as { csrf_token: string }).csrf_token;
  }
  return csrf;
};

export const setCsrf = (token: string | undefined) => {
  csrf = token;
};

const failure = async (res: Response): Promise<PortalError> => {
  const body = (await res.json().catch(() => ({}))) as {
    error?: string;
    code?: string;
    fields?: Record<string, string>;
  };
  return new PortalError(
    res.status,
    body.code ?? 'error',
    body.error ?? 'Something went wrong.',
    body.fields,
  );
};

/** A JSON call; mutations carry the CSRF token (retried once with a new one when it expired). */
export const api = async <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> => {
  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = await csrfToken();
    const res = await fetch(`${API}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.ok) {
      if (res.status === 204 || res.status === 202) return undefined as T;
      const json = (await res.json()) as T & { csrf_token?: string };
      if (typeof json.csrf_token === 'string') csrf = json.csrf_token;
      return json;
    }
    const err = await failure(res);
    if (err.code === 'csrf_expired' && attempt === 0) {
      csrf = undefined;
      continue;
    }
    throw err;
  }
};

export type Kept<T> = { data: T; fetchedAt: string; offline: boolean };

const keyOf = (path: string) => `kodi-portal:${path}`;

/** A GET answer, fresh when the network answers, else the one kept from last time (offline). */
export const keptGet = async <T>(path: string): Promise<Kept<T>> => {
  try {
    const data = await api<T>('GET', path);
    const fetchedAt = new Date().toISOString();
    try {
      localStorage.setItem(keyOf(path), JSON.stringify({ data, fetchedAt }));
    } catch {
      // storage full or refused: the page still shows the answer
    }
    return { data, fetchedAt, offline: false };
  } catch (err) {
    if (err instanceof PortalError) throw err;
    const kept = localStorage.getItem(keyOf(path));
    if (!kept) throw err;
    const { data, fetchedAt } = JSON.parse(kept) as { data: T; fetchedAt: string };
    return { data, fetchedAt, offline: true };
  }
};

/** Forgets what was kept (sign-out: the next tenant on this phone sees none of it). */
export const forgetKept = async () => {
  for (const key of Object.keys(localStorage))
    if (key.startsWith('kodi-portal:')) localStorage.removeItem(key);
  if ('caches' in window) await caches.delete(FILES).catch(() => undefined);
};

/**
 * A PDF (statement, receipt) saved to the phone: fetched fresh, or the copy kept when it was last
 * opened (offline). Answers when the file was fetched.
 */
export const download = async (
  path: string,
  filename: string,
): Promise<{ fetchedAt: string; offline: boolean }> => {
  const url = `${API}${path}`;
  const cache = 'caches' in window ? await caches.open(FILES).catch(() => undefined) : undefined;
  let blob: Blob;
  let fetchedAt = new Date().toISOString();
  let offline = false;
  try {
    const res = await fetch(url, { credentials: 'same-origin' });
    if (!res.ok) throw await failure(res);
    blob = await res.blob();
    await cache
      ?.put(
        url,
        new Response(blob, { headers: { 'content-type': 'application/pdf', 'x-fetched-at': fetchedAt } }),
      )
      .catch(() => undefined);
  } catch (err) {
    if (err instanceof PortalError) throw err;
    const kept = await cache?.match(url);
    if (!kept) throw err;
    blob = await kept.blob();
    fetchedAt = kept.headers.get('x-fetched-at') ?? fetchedAt;
    offline = true;
  }
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return { fetchedAt, offline };
};

/** When a file was last fetched, if it is kept. */
export const keptFileAt = async (path: string): Promise<string | undefined> => {
  if (!('caches' in window)) return undefined;
  const cache = await caches.open(FILES).catch(() => undefined);
  const kept = await cache?.match(`${API}${path}`);
  return kept?.headers.get('x-fetched-at') ?? undefined;
};
