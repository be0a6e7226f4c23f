import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CAPTCHA } from './harness.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
let nextAddress = 1;

/** A browser-like client over `app.inject`: keeps the session cookie and sends the CSRF token. */
export class TestClient {
  cookie: string | undefined;
  csrf: string | undefined;
  readonly ip: string;
  constructor(
    readonly app: FastifyInstance,
    ip?: string,
  ) {
    this.ip = ip ?? `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  }

  async request(
    method: Method,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const h: Record<string, string> = { ...headers };
    if (this.cookie) h.cookie = this.cookie;
    if (method !== 'GET' && this.csrf && !('x-csrf-token' in h)) h['x-csrf-token'] = this.csrf;
    let payload: string | Buffer | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await this.app.inject({
      method,
      url: path.startsWith('/rentapi') ? path : `/rentapi/api${path}`,
      headers: h,
      remoteAddress: this.ip,
      ...(payload !== undefined ? { payload } : {}),
    });
    const set = res.cookies.find((c) => c.name === 'kodi_sid');
    if (set) this.cookie = set.value ? `kodi_sid=${set.value}` : undefined;
    const json = res.headers['content-type']?.toString().includes('application/json')
      ? (res.json() as { csrf_token?: string })
      : null;
    if (json && typeof json.csrf_token === 'string') this.csrf = json.csrf_token;
    return res;
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('POST', path, body, headers);
  put = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('PUT', path, body, headers);
  delete = (path: string, headers?: Record<string, string>) =>
    this.request('DELETE', path, undefined, headers);

  /** status, then a fresh captcha, then the login call. */
  async login(email: string, password: string, captcha = CAPTCHA): Promise<LightMyRequestResponse> {
    await this.get('/auth/status');
    await this.get('/captcha');
    return this.post('/auth/login', { email, password, captcha_answer: captcha });
  }
}
