import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAPTCHA, setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser, type BuiltUser } from '../../test/factories.ts';

describe(`auth and sessions (${testDriver})`, () => {
  let t: TestContext;
  let admin: BuiltUser;

  beforeEach(async () => {
    t = await setupApp();
    const company = await buildCompany(t.database, { name: 'Acme Rentals' });
    admin = await buildUser(t.database, {
      company_id: company.id,
      roles: ['admin'],
      email: 'boss@acme.test',
    });
  });
  afterEach(async () => {
    await t.app.close();
  });

  const failedCount = async (email: string) =>
    Number(
      (
        await t.database.query<{ n: number }>(
          'SELECT failed_count AS n FROM login_attempts WHERE email = $1',
          [email],
        )
      )[0]?.n ?? 0,
    );

  it('answers health once migrations ran', async () => {
    const res = await new TestClient(t.app).get('/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('gives a signed-out status with a CSRF token, then signs in with the right captcha and password', async () => {
    const c = new TestClient(t.app);
    const status = await c.get('/auth/status');
    expect(status.json()).toMatchObject({ user: null, csrf_token: expect.any(String) });
    const before = c.cookie;
    const res = await c.login(admin.email, admin.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ email: admin.email, company_id: admin.company_id, roles: ['admin'] });
    expect(body.csrf_token).toEqual(expect.any(String));
    expect(c.cookie).not.toEqual(before); // a new session id at sign-in
    const row = await t.database.query<{ last_login_at: Date | null }>(
      'SELECT last_login_at FROM users WHERE id = $1',
      [admin.id],
    );
    expect(row[0]?.last_login_at).not.toBeNull();
    const after = await c.get('/auth/status');
    expect(after.json().user.email).toBe(admin.email);
  });

  it('never attempts a login with a wrong captcha, and uses the captcha up', async () => {
    const c = new TestClient(t.app);
    const res = await c.login(admin.email, admin.password, 'wrong');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'captcha_failed', error: 'CAPTCHA failed' });
    expect(await failedCount(admin.email)).toBe(0);
    const row = await t.database.query<{ last_login_at: Date | null }>(
      'SELECT last_login_at FROM users WHERE id = $1',
      [admin.id],
    );
    expect(row[0]?.last_login_at).toBeNull();
    // the captcha was used up: the right answer now fails too until a new image is fetched
    const again = await c.post('/auth/login', {
      email: admin.email,
      password: admin.password,
      captcha_answer: CAPTCHA,
    });
    expect(again.json().code).toBe('captcha_failed');
  });

  it('validates a captcha without using it up', async () => {
    const c = new TestClient(t.app);
    await c.get('/auth/status');
    const img = await c.get('/captcha');
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toContain('image/svg+xml');
    expect((await c.post('/captcha/validate', { answer: 'nope' })).json()).toEqual({ valid: false });
    expect((await c.post('/captcha/validate', { answer: CAPTCHA.toUpperCase() })).json()).toEqual({
      valid: true,
    });
    expect((await c.post('/captcha/validate', { answer: CAPTCHA })).json()).toEqual({ valid: true });
    const res = await c.post('/auth/login', {
      email: admin.email,
      password: admin.password,
      captcha_answer: CAPTCHA,
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password with 401 and an error message', async () => {
    const res = await new TestClient(t.app).login(admin.email, 'not-the-password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: 'Login failed. Please check your credentials.',
      code: 'invalid_credentials',
    });
  });

  it('locks an e-mail for 15 minutes after five failures, known or not, with the same answer', async () => {
    for (const email of [admin.email, 'nobody@acme.test']) {
      const c = new TestClient(t.app);
      for (let i = 0; i < 5; i++) {
        const res = await c.login(email, 'bad-password');
        expect(res.statusCode).toBe(401);
      }
      const sixth = await c.login(email, email === admin.email ? admin.password : 'bad-password');
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toEqual({
        error: 'Too many failed sign-in attempts. Try again in 15 minutes.',
        code: 'account_locked',
      });
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(14 * 60);
    }
    // after the lock has passed, the right password works and resets the count
    await t.database.query(`UPDATE login_attempts SET locked_until = now() - interval '1 second'`);
    const ok = await new TestClient(t.app).login(admin.email, admin.password);
    expect(ok.statusCode).toBe(200);
    expect(await failedCount(admin.email)).toBe(0);
  });

  it('rate-limits login attempts per client address', async () => {
    // the limits count in one-minute windows: the attempts below must not straddle two
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const c = new TestClient(t.app);
    await c.get('/auth/status');
    let limited = 0;
    for (let i = 0; i < 32; i++) {
      const res = await c.post('/auth/login', {
        email: `x${i}@acme.test`,
        password: 'x',
        captcha_answer: 'x',
      });
      if (res.statusCode === 429) {
        limited++;
        expect(res.json().code).toBe('rate_limited');
        expect(res.headers['retry-after']).toBeDefined();
      }
    }
    expect(limited).toBe(2);
  });

  it('refuses a mutation without the CSRF header (403 csrf_missing) or with a stale one (csrf_expired)', async () => {
    const c = new TestClient(t.app);
    await c.login(admin.email, admin.password);
    const missing = await c.post('/auth/logout', undefined, { 'x-csrf-token': '' });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().code).toBe('csrf_missing');
    const stale = await c.post('/auth/logout', undefined, { 'x-csrf-token': 'stale-token' });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('csrf_expired');
    expect((await c.get('/auth/status')).json().user).not.toBeNull();
    const ok = await c.post('/auth/logout');
    expect(ok.statusCode).toBe(204);
    expect((await c.get('/auth/status')).json().user).toBeNull();
  });

  it('answers an idle-expired session with 401 token_expired', async () => {
    const c = new TestClient(t.app);
    await c.login(admin.email, admin.password);
    expect((await c.get(`/companies_single/${admin.company_id}`)).statusCode).toBe(200);
    await t.database.query(`UPDATE sessions SET last_seen_at = now() - interval '1 day'`);
    const res = await c.get(`/companies_single/${admin.company_id}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_expired');
  });

  it('gives 400 JSON for malformed JSON, wrong types and unknown fields, never 500', async () => {
    const c = new TestClient(t.app);
    await c.get('/auth/status');
    const malformed = await c.post('/auth/login', '{"email": "a@b.c",');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'bad_request', error: expect.any(String) });
    const types = await c.post('/auth/login', { email: 42, password: true, captcha_answer: [] });
    expect(types.statusCode).toBe(400);
    expect(types.json()).toMatchObject({ code: 'validation_failed', fields: { email: expect.any(String) } });
    const bad = await c.post('/auth/login', { email: 'not-an-email', password: 'x', captcha_answer: 'x' });
    expect(bad.json().fields.email).toBe('E-mail must be valid.');
    const unknown = await c.post('/auth/login', {
      email: 'a@b.co',
      password: 'x',
      captcha_answer: 'x',
      admin: true,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation_failed', fields: { admin: 'Unknown field.' } });
    expect(unknown.json().error).toContain('admin');
    const huge = await c.post(
      '/auth/login',
      JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1_100_000) }),
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('payload_too_large');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await new TestClient(t.app).get('/no/such/thing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('keeps a disabled user out and ends their sessions', async () => {
    const c = new TestClient(t.app);
    await c.login(admin.email, admin.password);
    await t.database.query('UPDATE users SET active = false WHERE id = $1', [admin.id]);
    const res = await c.get(`/companies_single/${admin.company_id}`);
    expect(res.statusCode).toBe(401);
    const again = await new TestClient(t.app).login(admin.email, admin.password);
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('account_disabled');
  });

  it("reads the user's own company, and another company is a 404", async () => {
    const other = await buildCompany(t.database, { name: 'Other Co' });
    const viewer = await buildUser(t.database, { company_id: admin.company_id, roles: ['viewer'] });
    const c = new TestClient(t.app);
    await c.login(viewer.email, viewer.password);
    const own = await c.get(`/companies_single/${admin.company_id}`);
    expect(own.json()).toMatchObject({ company: { name: 'Acme Rentals', currency_code: 'UGX' } });
    expect((await c.get(`/companies_single/${other.id}`)).statusCode).toBe(404);
  });
});
