import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAPTCHA, setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';

describe(`self-registration (${testDriver})`, () => {
  let t: TestContext;
  let company: { id: number; name: string };

  beforeEach(async () => {
    t = await setupApp();
    company = await buildCompany(t.database, { name: 'Acme Rentals' });
  });
  afterEach(async () => {
    await t.app.close();
  });

  const form = (overrides: Record<string, unknown> = {}) => ({
    email: 'new.person@example.com',
    first_name: 'New',
    last_name: 'Person',
    company_id: company.id,
    password: 'a-long-password',
    captcha_answer: CAPTCHA,
    ...overrides,
  });

  /** The register page: status (CSRF token), a captcha image, its answer validated. */
  const openRegisterPage = async () => {
    const c = new TestClient(t.app);
    await c.get('/auth/status');
    await c.get('/captcha');
    expect((await c.post('/captcha/validate', { answer: CAPTCHA })).json()).toEqual({ valid: true });
    return c;
  };

  it('creates an active user with no role after a validated captcha, signs them in, and data routes answer no_role', async () => {
    const c = await openRegisterPage();
    const before = c.cookie;
    const res = await c.post('/auth/register', form({ email: 'New.Person@Example.com' }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({
      email: 'new.person@example.com',
      first_name: 'New',
      last_name: 'Person',
      company_id: company.id,
      roles: [],
      active: true,
    });
    expect(body.user.last_login_at).toEqual(expect.any(String));
    expect(body.user).not.toHaveProperty('password_hash');
    expect(body.csrf_token).toEqual(expect.any(String));
    expect(c.cookie).not.toEqual(before);

    const rows = await t.database.query<{ password_hash: string; roles: number }>(
      `SELECT password_hash, (SELECT count(*)::int FROM user_roles ur WHERE ur.user_id = u.id) AS roles
         FROM users u WHERE email = 'new.person@example.com'`,
    );
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
    expect(Number(rows[0]?.roles)).toBe(0);

    expect((await c.get('/auth/status')).json().user.email).toBe('new.person@example.com');
    const units = await c.get('/units');
    expect(units.statusCode).toBe(403);
    expect(units.json().code).toBe('no_role');

    // the new password works at the login page
    const other = new TestClient(t.app);
    expect((await other.login('new.person@example.com', 'a-long-password')).statusCode).toBe(200);
  });

  it('refuses a registration without a captcha, or with a wrong one, and uses the captcha up', async () => {
    const c = new TestClient(t.app);
    await c.get('/auth/status');
    const none = await c.post('/auth/register', form());
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'captcha_failed', error: 'Invalid captcha answer' });

    await c.get('/captcha');
    const wrong = await c.post('/auth/register', form({ captcha_answer: 'nope' }));
    expect(wrong.json()).toMatchObject({ code: 'captcha_failed', error: 'Invalid captcha answer' });
    const again = await c.post('/auth/register', form());
    expect(again.json().code).toBe('captcha_failed');

    const count = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(Number(count[0]?.n)).toBe(0);
  });

  it('answers 409 duplicate for an e-mail already registered, whatever its case', async () => {
    await buildUser(t.database, { company_id: company.id, email: 'taken@example.com' });
    const c = await openRegisterPage();
    const res = await c.post('/auth/register', form({ email: 'TAKEN@example.com' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'duplicate',
      error: 'This e-mail address is already registered.',
    });
  });

  it("validates with the spec's messages", async () => {
    const c = await openRegisterPage();
    const res = await c.post(
      '/auth/register',
      form({ email: 'not-an-email', password: 'short', first_name: '  ' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      fields: {
        email: 'E-mail must be valid.',
        password: 'Minimum 8 characters.',
        first_name: 'This field is required.',
      },
    });
    const missing = await c.post('/auth/register', { captcha_answer: CAPTCHA });
    expect(missing.json().fields).toMatchObject({
      email: 'This field is required.',
      last_name: 'This field is required.',
      company_id: 'This field is required.',
      password: 'This field is required.',
    });
  });

  it('refuses a company that does not exist (or is inactive)', async () => {
    const c = await openRegisterPage();
    const res = await c.post('/auth/register', form({ company_id: company.id + 100 }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      fields: { company_id: expect.any(String) },
    });

    const closed = await buildCompany(t.database, { name: 'Closed Ltd' });
    await t.database.query('UPDATE companies SET status = false WHERE id = $1', [closed.id]);
    await c.get('/captcha');
    const inactive = await c.post('/auth/register', form({ company_id: closed.id }));
    expect(inactive.json().fields).toHaveProperty('company_id');
  });
});

describe(`GET /companies for the register page (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('answers a signed-out caller the active companies, id and name only, by name', async () => {
    const zeta = await buildCompany(t.database, { name: 'Zeta Homes' });
    const acme = await buildCompany(t.database, { name: 'Acme Rentals' });
    const closed = await buildCompany(t.database, { name: 'Closed Ltd' });
    await t.database.query('UPDATE companies SET status = false WHERE id = $1', [closed.id]);
    const res = await new TestClient(t.app).get('/companies');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: acme.id, name: 'Acme Rentals' },
      { id: zeta.id, name: 'Zeta Homes' },
    ]);
    expect(res.headers['x-total-count']).toBe('2');
    const searched = await new TestClient(t.app).get('/companies?q=zet');
    expect(searched.json()).toEqual([{ id: zeta.id, name: 'Zeta Homes' }]);
  });

  it('keeps the normal checks for signed-in callers', async () => {
    const company = await buildCompany(t.database, { name: 'Acme Rentals' });
    await buildCompany(t.database, { name: 'Other Co' });
    const waiting = await buildUser(t.database, { company_id: company.id, roles: [] });
    const viewer = await buildUser(t.database, { company_id: company.id, roles: ['viewer'] });

    const noRole = new TestClient(t.app);
    await noRole.login(waiting.email, waiting.password);
    const refused = await noRole.get('/companies');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('no_role');

    const c = new TestClient(t.app);
    await c.login(viewer.email, viewer.password);
    const res = await c.get('/companies');
    expect(res.statusCode).toBe(200);
    const rows = res.json() as { id: number; name: string; status?: boolean }[];
    expect(rows.map((r) => r.name)).toEqual(['Acme Rentals']);
    expect(rows[0]).toHaveProperty('status');
  });
});
