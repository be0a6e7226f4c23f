import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { securityMessages } from '@kodi/domain';
import { buildApp } from '../app.ts';
import { databaseUrl, dropPostgresDatabase, freshPostgresDatabase } from '../db/databases.ts';
import { createSecretBox, keyIdOf, parseSecretKey, purposeOf } from '../platform/secrets.ts';
import { signWebhook } from '../modules/companies/payment-webhook.ts';
import { setupApp, testConfig, testDriver } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser, type BuiltUser } from '../test/factories.ts';
import { expectStatus } from '../test/rent-cycle.ts';
import { HttpClient, startServerProcess, type ServerProcess } from '../test/processes.ts';
import { forgetUnopenable } from '../tools/rotate-secret-key.ts';

/**
 * A changed SECRET_KEY without the old one (issue 23, item 10). Before: two-factor sign-in answered
 * 500 even with a recovery code, and the payment webhook 500 to anyone. Now the server refuses to
 * start, naming OLD_SECRET_KEYS, while stored secrets are sealed with a key it does not hold; with the
 * old key in OLD_SECRET_KEYS it starts and both work; a secret it still cannot open at run time (sealed
 * by another server's key) is a 503 `secret_unavailable`, never a 500, and a recovery code signs in.
 */

const KEY_A = '1a'.repeat(32);
const KEY_B = '2b'.repeat(32);
const KEY_C = '3c'.repeat(32);
const idOf = (key: string) => keyIdOf(parseSecretKey(key));

/** The code of the secret `steps` time steps from now (one step is accepted either side; each once). */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

const payment = (n: number) => ({
  transaction_id: `KEY-${n}`,
  amount: 1000,
  currency: 'UGX',
  paid_at: '2026-02-10T08:30:00Z',
});

describe(`a changed SECRET_KEY without the old one (${testDriver})`, () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });

  it(
    'refuses to start naming OLD_SECRET_KEYS; with it, two-factor sign-in and the webhook work; never a 500',
    { timeout: 180_000 },
    async () => {
      // key A: a user with a second factor, a webhook secret
      const t = await setupApp({ secretKey: KEY_A });
      apps.push(t.app);
      const company = await buildCompany(t.database);
      const user = await buildUser(t.database, { company_id: company.id, roles: ['admin'] });
      const signInWithPassword = async (app: FastifyInstance, who: BuiltUser) => {
        const c = new TestClient(app);
        await c.get('/auth/status');
        await c.get('/captcha');
        const res = await c.post('/auth/login', {
          email: who.email,
          password: who.password,
          captcha_answer: 'kodi7',
        });
        expect(res.statusCode, res.body).toBe(200);
        return { c, mfa: res.json<{ mfa_required?: boolean }>().mfa_required === true };
      };
      const { c: first } = await signInWithPassword(t.app, user);
      const { secret } = expectStatus(await first.post('/auth/mfa/setup'), 200).json<{ secret: string }>();
      const { recovery_codes } = expectStatus(
        await first.post('/auth/mfa/confirm', { code: codeOf(secret), current_password: user.password }),
        200,
      ).json<{ recovery_codes: string[] }>();
      const hook = expectStatus(await first.post('/company-settings/webhook-secret'), 200).json<{
        url: string;
        secret: string;
      }>();
      const key = hook.url.split('/').pop() ?? '';
      const webhook = (app: FastifyInstance, n: number) => {
        const text = JSON.stringify(payment(n));
        return app.inject({
          method: 'POST',
          url: `/rentapi/api/webhooks/payments/${key}`,
          headers: {
            'content-type': 'application/json',
            'x-kodi-signature': signWebhook(hook.secret, text, Math.floor(Date.now() / 1000)),
          },
          payload: text,
        });
      };
      expectStatus(await webhook(t.app, 1), 200);
      await t.app.close();

      // key B alone: no start, and the message says what to do
      const refused = await buildApp(testConfig({ secretKey: KEY_B }), t.database).then(
        (app) => {
          apps.push(app);
          return '';
        },
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      expect(refused).toContain('OLD_SECRET_KEYS');
      expect(refused).toContain(`1 in users.mfa_secret sealed with key ${idOf(KEY_A)}`);
      expect(refused).toContain(`1 in payment_webhooks.secret sealed with key ${idOf(KEY_A)}`);
      expect(refused).toContain('npm run rotate-secret-key');

      // key B with A in OLD_SECRET_KEYS: starts; a code, a recovery code and the webhook work
      const b = await buildApp(testConfig({ secretKey: KEY_B, oldSecretKeys: [KEY_A] }), t.database);
      apps.push(b);
      await b.ready();
      const withCode = await signInWithPassword(b, user);
      expect(withCode.mfa).toBe(true);
      expectStatus(await withCode.c.post('/auth/login/mfa', { code: codeOf(secret, 1) }), 200);
      const withRecovery = await signInWithPassword(b, user);
      expectStatus(await withRecovery.c.post('/auth/login/mfa', { recovery_code: recovery_codes[0] }), 200);
      expectStatus(await webhook(b, 2), 200);

      // a value sealed with a key this server does not hold, put there after it started (another
      // server's key): a code and the webhook answer 503 secret_unavailable, a recovery code signs in
      const other = createSecretBox([parseSecretKey(KEY_C)]);
      await t.database.query('UPDATE users SET mfa_secret = $2 WHERE id = $1', [
        user.id,
        other.seal(secret, purposeOf('users', 'mfa_secret', user.id)),
      ]);
      await t.database.query('UPDATE payment_webhooks SET secret = $2 WHERE company_id = $1', [
        company.id,
        other.seal(hook.secret, purposeOf('payment_webhooks', 'secret', company.id)),
      ]);
      const locked = await signInWithPassword(b, user);
      const code = await locked.c.post('/auth/login/mfa', { code: codeOf(secret) });
      expect(code.statusCode, code.body).toBe(503);
      expect(code.json()).toEqual({ error: securityMessages.codesUnavailable, code: 'secret_unavailable' });
      expectStatus(await locked.c.post('/auth/login/mfa', { recovery_code: recovery_codes[1] }), 200);
      const hookRes = await webhook(b, 3);
      expect(hookRes.statusCode, hookRes.body).toBe(503);
      expect(hookRes.json()).toEqual({
        error: 'This webhook cannot check signatures at the moment. Try again later.',
        code: 'secret_unavailable',
      });
      await b.close();

      // the key C lost: the tool forgets what no key opens; then key B alone starts
      const forgotten = await forgetUnopenable(
        t.database,
        createSecretBox([parseSecretKey(KEY_B), parseSecretKey(KEY_A)]),
      );
      expect(forgotten).toEqual({ 'users.mfa_secret': 1, 'payment_webhooks.secret': 1 });
      const after = await buildApp(testConfig({ secretKey: KEY_B }), t.database);
      apps.push(after);
      await after.ready();
      // the user signs in with the password alone; the webhook's URL stays, its old secret no longer signs
      expect((await signInWithPassword(after, user)).mfa).toBe(false);
      expectStatus(await webhook(after, 4), 401);
      const [entry] = await t.database.query<{ after: unknown }>(
        `SELECT after FROM audit_entries WHERE entity = 'users' AND action = 'update' AND record_id = $1 ORDER BY id DESC LIMIT 1`,
        [user.id],
      );
      expect(entry?.after).toMatchObject({ mfa_enabled: false });
    },
  );
});

/** The real server: `main.ts` exits at start with the message, and starts with OLD_SECRET_KEYS. */
describe(`a changed SECRET_KEY: the server process (${testDriver})`, () => {
  const base = process.env.TEST_DATABASE_URL;
  const onPostgres = testDriver === 'pg' && !!base;
  const servers: ServerProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-key-change-'));
  const dbName = `kodi_keys_${process.pid}`;
  const admin = { email: 'keys@kodi.test', password: 'key-change-password-1' };
  const where: Record<string, string> = onPostgres
    ? { DATABASE_URL: databaseUrl(base ?? '', dbName) }
    : { DATA_DIR: dataDir, DATABASE_URL: '' };
  const env = (keys: Record<string, string>): Record<string, string> => ({
    ...where,
    ...keys,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    CAPTCHA_TEST_ANSWER: 'keys1',
    DEMO_DATA: '0',
    RENT_CYCLE_SCHEDULER: '0',
    MESSAGES_SENDER: '0',
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (onPostgres) await dropPostgresDatabase(base ?? '', dbName);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits at start naming OLD_SECRET_KEYS, and starts with it', { timeout: 400_000 }, async () => {
    if (onPostgres) await freshPostgresDatabase(base ?? '', dbName);
    const first = await startServerProcess(env({ SECRET_KEY: KEY_A }), { startTimeoutMs: 150_000 });
    servers.push(first);
    const c = new HttpClient();
    await c.call(first.url, 'GET', '/auth/status');
    await c.call(first.url, 'GET', '/captcha');
    expect(
      (await c.call(first.url, 'POST', '/auth/login', { ...admin, captcha_answer: 'keys1' })).status,
    ).toBe(200);
    const made = await c.call(first.url, 'POST', '/company-settings/webhook-secret');
    expect(made.status).toBe(200);
    const hook = made.json as { url: string; secret: string };
    await first.stop();

    const failed = await startServerProcess(env({ SECRET_KEY: KEY_B })).then(
      (s) => {
        servers.push(s);
        return '';
      },
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    expect(failed).toContain('server exited early');
    expect(failed).toContain('Kodi did not start.');
    expect(failed).not.toMatch(/\n\s+at /); // the message, not a stack trace
    expect(failed).toContain('OLD_SECRET_KEYS');
    expect(failed).toContain(`payment_webhooks.secret sealed with key ${idOf(KEY_A)}`);

    const second = await startServerProcess(env({ SECRET_KEY: KEY_B, OLD_SECRET_KEYS: KEY_A }));
    servers.push(second);
    const text = JSON.stringify(payment(1));
    const res = await fetch(
      `${second.url}/rentapi/api/webhooks/payments/${hook.url.split('/').pop() ?? ''}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-kodi-signature': signWebhook(hook.secret, text, Math.floor(Date.now() / 1000)),
        },
        body: text,
      },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    await second.stop();
  });
});
