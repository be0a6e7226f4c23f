import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAuth2Server, type MutableToken } from 'oauth2-mock-server';
import { Secret, TOTP } from 'otpauth';
import { TEST_SECRET_KEY, setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { createSecretBox, parseSecretKey, purposeOf } from '../../platform/secrets.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser, type BuiltUser } from '../../test/factories.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../../test/portal.ts';

const PUBLIC_URL = 'https://kodi.example';

describe(`Google sign-in against a mock OpenID provider (${testDriver})`, () => {
  let idp: OAuth2Server;
  /** The claims the provider puts in its next tokens. */
  let claims: Record<string, unknown> = {};
  let t: TestContext;
  let user: BuiltUser;

  beforeAll(async () => {
    idp = new OAuth2Server();
    await idp.issuer.keys.generate('RS256');
    await idp.start(0, '127.0.0.1');
    idp.service.on('beforeTokenSigning', (token: MutableToken) => {
      Object.assign(token.payload, claims);
    });
  });
  afterAll(async () => {
    await idp.stop();
  });
  beforeEach(async () => {
    t = await setupApp({
      publicUrl: PUBLIC_URL,
      googleClientId: 'kodi-test-client',
      googleClientSecret: 'kodi-test-secret',
      googleIssuer: idp.issuer.url ?? '',
    });
    const company = await buildCompany(t.database);
    user = await buildUser(t.database, {
      company_id: company.id,
      roles: ['viewer'],
      email: 'viewer@example.com',
    });
    claims = { email: user.email, email_verified: true };
  });
  afterEach(async () => {
    await t.app.close();
  });

  /** The browser's trip: our login route, the provider's authorize endpoint (auto-approved), our callback. */
  const goThroughProvider = async (c: TestClient) => {
    await c.get('/auth/status');
    const start = await c.get('/auth/google/login');
    expect(start.statusCode).toBe(302);
    const authorize = new URL(String(start.headers.location));
    expect(authorize.origin).toBe(idp.issuer.url);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toEqual(expect.any(String));
    expect(authorize.searchParams.get('nonce')).toEqual(expect.any(String));
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/rentapi/api/auth/google/callback`);

    const back = await fetch(authorize, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const callback = new URL(back.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(`${PUBLIC_URL}/rentapi/api/auth/google/callback`);
    return `${callback.pathname}${callback.search}`;
  };

  const errorMessageOf = (location: unknown) => {
    const url = new URL(String(location), PUBLIC_URL);
    expect(url.pathname).toBe('/auth/google/error');
    return url.searchParams.get('error_message');
  };

  it('signs a known user with a verified e-mail in and lands on the success page', async () => {
    const c = new TestClient(t.app);
    const status = await c.get('/auth/status');
    expect(status.json().google_enabled).toBe(true);
    const res = await c.get(await goThroughProvider(c));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/auth/google/success');

    const after = await c.get('/auth/status');
    expect(after.json().user).toMatchObject({ email: user.email, roles: ['viewer'] });
    expect((await c.get('/units')).statusCode).toBe(200);
    const rows = await t.database.query<{ last_login_at: Date | null }>(
      'SELECT last_login_at FROM users WHERE id = $1',
      [user.id],
    );
    expect(rows[0]?.last_login_at).not.toBeNull();
  });

  it('sends a user with a second factor on to its code step: Google alone does not sign them in', async () => {
    const secret = new Secret({ size: 20 }).base32;
    const box = createSecretBox([parseSecretKey(TEST_SECRET_KEY)]);
    await t.database.query('UPDATE users SET mfa_secret = $2, mfa_enabled_at = now() WHERE id = $1', [
      user.id,
      box.seal(secret, purposeOf('users', 'mfa_secret', user.id)),
    ]);
    const c = new TestClient(t.app);
    const res = await c.get(await goThroughProvider(c));
    expect(res.headers.location).toBe('/login?mfa=1');
    expect((await c.get('/auth/status')).json().user).toBeNull();
    expect((await c.get('/units')).statusCode).toBe(401);
    await c.get('/auth/csrf-token');
    const code = new TOTP({
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      secret: Secret.fromBase32(secret),
    }).generate();
    const done = await c.post('/auth/login/mfa', { code });
    expect(done.statusCode, done.body).toBe(200);
    expect((await c.get('/units')).statusCode).toBe(200);
  });

  it('sends an unknown e-mail to the error page, signed out', async () => {
    claims = { email: 'stranger@example.com', email_verified: true };
    const c = new TestClient(t.app);
    const res = await c.get(await goThroughProvider(c));
    expect(res.statusCode).toBe(302);
    expect(errorMessageOf(res.headers.location)).toMatch(/No active Kodi account/);
    expect((await c.get('/auth/status')).json().user).toBeNull();
  });

  it('refuses a tenant’s portal account, as the password form does: it signs in at the portal (issue 23)', async () => {
    const { staff } = await portalCompany(t);
    const a = await tenantWithLease(staff);
    await portalTenant(t, staff, a.tenantId);
    claims = { email: a.email, email_verified: true };
    const c = new TestClient(t.app);
    const res = await c.get(await goThroughProvider(c));
    expect(res.statusCode).toBe(302);
    expect(errorMessageOf(res.headers.location)).toBe(
      'This is a tenant account: sign in at the tenant portal.',
    );
    expect((await c.get('/auth/status')).json().user).toBeNull();
    expect((await c.get('/portal/me')).statusCode).toBe(401);
  });

  it('refuses an e-mail the provider has not verified, and a disabled account', async () => {
    claims = { email: user.email, email_verified: false };
    const c = new TestClient(t.app);
    const unverified = await c.get(await goThroughProvider(c));
    expect(errorMessageOf(unverified.headers.location)).toBe('Your Google e-mail address is not verified.');

    claims = { email: user.email, email_verified: true };
    await t.database.query('UPDATE users SET active = false WHERE id = $1', [user.id]);
    const disabled = await c.get(await goThroughProvider(c));
    expect(errorMessageOf(disabled.headers.location)).toMatch(/disabled/);
    expect((await c.get('/auth/status')).json().user).toBeNull();
  });

  it('refuses a callback replayed, or arriving in a session that did not start the sign-in', async () => {
    const c = new TestClient(t.app);
    const callback = await goThroughProvider(c);

    const stranger = new TestClient(t.app);
    await stranger.get('/auth/status');
    const elsewhere = await stranger.get(callback);
    expect(errorMessageOf(elsewhere.headers.location)).toMatch(/try again/);
    expect((await stranger.get('/auth/status')).json().user).toBeNull();

    expect((await c.get(callback)).headers.location).toBe('/auth/google/success');
    // the same session again: the state was used up (and the session replaced at sign-in)
    const replay = new TestClient(t.app);
    replay.cookie = c.cookie;
    const again = await replay.get(callback);
    expect(errorMessageOf(again.headers.location)).toMatch(/try again/);
  });
});

describe(`Google sign-in not configured (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp({ googleClientId: undefined });
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('says so in the status and redirects the login to the error page', async () => {
    const c = new TestClient(t.app);
    expect((await c.get('/auth/status')).json()).toMatchObject({ user: null, google_enabled: false });
    const res = await c.get('/auth/google/login');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      '/auth/google/error?error_message=Google%20sign-in%20is%20not%20configured.',
    );
    expect(new URL(String(res.headers.location), 'http://x').searchParams.get('error_message')).toBe(
      'Google sign-in is not configured.',
    );
  });
});
