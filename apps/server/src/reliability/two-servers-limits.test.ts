import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../test/harness.ts';
import { dropPostgresDatabase, freshPostgresDatabase } from '../db/databases.ts';
import { HttpClient, startServerProcess, type ServerProcess } from '../test/processes.ts';

const base = process.env.TEST_DATABASE_URL;
const onPostgres = testDriver === 'pg' && !!base;

/** The per-address login limit (features/auth/routes.ts): 30 attempts a minute. */
const LOGIN_LIMIT = 30;
const CAPTCHA = 'twin2';

/** A raw call that keeps the answer's headers (HttpClient does not). */
const call = async (c: HttpClient, url: string, method: string, p: string, body?: unknown) => {
  const res = await fetch(`${url}/rentapi/api${p}`, {
    method,
    headers: {
      cookie: c.cookie,
      'x-csrf-token': c.csrf,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
};

/**
 * features/auth/two-servers.test.ts shares sessions, captchas, CSRF tokens and the lockout between two
 * processes; this adds the per-address rate limit and a captcha validated on the other server.
 */
describe.skipIf(!onPostgres)(
  'two servers, one database: rate limits and captchas are shared',
  { timeout: 120_000 },
  () => {
    const servers: ServerProcess[] = [];
    let a: ServerProcess;
    let b: ServerProcess;
    const dbName = `kodi_two_limits_${process.pid}`;

    beforeAll(async () => {
      const env = {
        DATABASE_URL: await freshPostgresDatabase(base as string, dbName),
        CAPTCHA_TEST_ANSWER: CAPTCHA,
        ADMIN_EMAIL: 'limits@servers.test',
        ADMIN_PASSWORD: 'two-servers-password',
        DEMO_DATA: '0',
        RATE_LIMITS: '1',
      };
      // both at once, on an empty database (a busy machine may take long over the first start)
      const opts = { startTimeoutMs: 150_000 };
      const started = await Promise.allSettled([
        startServerProcess(env, opts),
        startServerProcess(env, opts),
      ]);
      for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
      for (const s of started) if (s.status === 'rejected') throw s.reason; // (the other one is stopped below)
      [a, b] = servers as [ServerProcess, ServerProcess];
    }, 300_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await dropPostgresDatabase(base as string, dbName);
    });

    it('starts both together on an empty database: one migrates and seeds, the other waits for it', () => {
      const printed = [a.output(), b.output()].filter((o) => o.includes('First administrator')).length;
      expect(printed).toBe(1);
    });

    it('validates a captcha fetched on one server on the other', async () => {
      const c = new HttpClient();
      await c.call(a.url, 'GET', '/auth/status');
      expect((await fetch(`${a.url}/rentapi/api/captcha`, { headers: { cookie: c.cookie } })).status).toBe(
        200,
      );
      expect((await c.call(b.url, 'POST', '/captcha/validate', { answer: 'wrong' })).json).toEqual({
        valid: false,
      });
      expect((await c.call(b.url, 'POST', '/captcha/validate', { answer: CAPTCHA })).json).toEqual({
        valid: true,
      });
      // and the other way round, with a new image from B checked on A
      await c.call(b.url, 'GET', '/captcha');
      expect((await c.call(a.url, 'POST', '/captcha/validate', { answer: CAPTCHA })).json).toEqual({
        valid: true,
      });
    });

    it('counts login attempts from one address on both servers: the 31st in a minute is 429 with Retry-After', async () => {
      // the limit counts in fixed one-minute windows: start well inside one
      const intoWindow = Date.now() % 60_000;
      if (intoWindow > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 200));
      const c = new HttpClient();
      await c.call(a.url, 'GET', '/auth/status');
      const statuses: number[] = [];
      for (let i = 0; i < LOGIN_LIMIT; i++) {
        const server = i % 2 === 0 ? a : b;
        const res = await call(c, server.url, 'POST', '/auth/login', {
          email: `limit${i}@servers.test`,
          password: 'wrong-password',
          captcha_answer: 'wrong',
        });
        statuses.push(res.status);
      }
      // both processes see 127.0.0.1: 15 attempts on each, all counted against the one address
      expect(statuses).toEqual(Array(LOGIN_LIMIT).fill(400)); // captcha_failed, but each one counted
      for (const server of [a, b]) {
        const res = await call(c, server.url, 'POST', '/auth/login', {
          email: 'limit-over@servers.test',
          password: 'wrong-password',
          captcha_answer: 'wrong',
        });
        expect(res.status).toBe(429);
        expect(res.json).toEqual({
          error: 'Too many requests. Please wait a moment and try again.',
          code: 'rate_limited',
        });
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    });
  },
);
