import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser, type BuiltUser } from '../../test/factories.ts';
import { portalTenant, tenantWithLease } from '../../test/portal.ts';

describe(`users and roles (${testDriver})`, () => {
  let t: TestContext;
  let acme: { id: number; name: string };
  let other: { id: number; name: string };
  let admin: BuiltUser;
  let editor: BuiltUser;
  let c: TestClient;

  beforeEach(async () => {
    t = await setupApp();
    acme = await buildCompany(t.database, { name: 'Acme Rentals' });
    other = await buildCompany(t.database, { name: 'Other Homes' });
    admin = await buildUser(t.database, { company_id: acme.id, roles: ['admin'], email: 'boss@acme.test' });
    editor = await buildUser(t.database, { company_id: other.id, roles: ['editor'], email: 'ed@other.test' });
    c = new TestClient(t.app);
    expect((await c.login(admin.email, admin.password)).statusCode).toBe(200);
  });
  afterEach(async () => {
    await t.app.close();
  });

  const newUser = (overrides: Record<string, unknown> = {}) => ({
    email: 'added@example.com',
    first_name: 'Added',
    last_name: 'Person',
    company_id: acme.id,
    country_code: 'KEN',
    password: 'a-long-password',
    roles: ['viewer', 'editor'],
    ...overrides,
  });

  const profile = (u: { email: string; company_id: number }, overrides: Record<string, unknown> = {}) => ({
    email: u.email,
    first_name: 'Changed',
    last_name: 'Name',
    company_id: u.company_id,
    country_code: 'UGA',
    ...overrides,
  });

  const calls = (id: number): [string, string, unknown?][] => [
    ['GET', '/users'],
    ['GET', `/users/${id}`],
    ['GET', '/roles'],
    [
      'PUT',
      `/users/${id}`,
      { email: 'x@example.com', first_name: 'X', last_name: 'Y', company_id: 1, country_code: 'UGA' },
    ],
    ['PUT', `/users/${id}/roles`, { roles: ['admin'] }],
    ['PUT', `/users/${id}/password`, { password: 'a-long-password' }],
    ['POST', '/auth/register_as_admin', newUser()],
  ];

  describe.each(['company_admin', 'editor', 'viewer'] as RoleName[])('as %s', (role) => {
    it('refuses every users route with 403', async () => {
      const u = await buildUser(t.database, { company_id: acme.id, roles: [role] });
      const client = new TestClient(t.app);
      await client.login(u.email, u.password);
      for (const [method, path, body] of calls(editor.id)) {
        const res = await client.request(method as 'GET' | 'PUT' | 'POST', path, body);
        expect(res.statusCode, `${method} ${path}`).toBe(403);
        expect(res.json().code, `${method} ${path}`).toBe('forbidden');
      }
      // nothing changed
      expect((await c.get(`/users/${editor.id}`)).json()).toMatchObject({
        email: editor.email,
        roles: ['editor'],
      });
    });
  });

  it('refuses a user without a role (no_role) and a signed-out caller (401)', async () => {
    const waiting = await buildUser(t.database, { company_id: acme.id, roles: [] });
    const client = new TestClient(t.app);
    await client.login(waiting.email, waiting.password);
    const anonymous = new TestClient(t.app);
    await anonymous.get('/auth/status');
    for (const [method, path, body] of calls(editor.id)) {
      const res = await client.request(method as 'GET' | 'PUT' | 'POST', path, body);
      expect(res.json().code, `${method} ${path}`).toBe('no_role');
      const out = await anonymous.request(method as 'GET' | 'PUT' | 'POST', path, body);
      expect(out.statusCode, `${method} ${path}`).toBe(401);
    }
  });

  it('lists every user of the installation with their company and roles, never the hash', async () => {
    const res = await c.get('/users');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    const rows = res.json() as Record<string, unknown>[];
    expect(rows.map((r) => r.email)).toEqual([editor.email, admin.email]); // newest first
    expect(rows[0]).toEqual({
      id: editor.id,
      email: editor.email,
      first_name: 'Test',
      last_name: 'Tester',
      company_id: other.id,
      company_name: 'Other Homes',
      active: true,
      country_code: 'UGA',
      roles: ['editor'],
      last_login_at: null,
      mfa_enabled: false,
      mfa_required: false,
      language: 'en',
      version: 1,
    });
    expect(rows[1]?.last_login_at).toEqual(expect.any(String));
    expect(JSON.stringify(rows)).not.toContain('argon2');

    const searched = await c.get('/users?q=OTHER.test');
    expect((searched.json() as { email: string }[]).map((r) => r.email)).toEqual([editor.email]);
    const paged = await c.get('/users?page=2&page_size=1&sort=email');
    expect(paged.headers['x-total-count']).toBe('2');
    expect((paged.json() as { email: string }[]).map((r) => r.email)).toEqual([editor.email]);
    expect((await c.get('/users?sort=password_hash')).statusCode).toBe(400);

    expect((await c.get(`/users/${editor.id}`)).json()).toMatchObject({
      email: editor.email,
      company_name: 'Other Homes',
    });
    expect((await c.get('/users/9999')).statusCode).toBe(404);
  });

  it("leaves tenants' portal accounts out of the list, its total and its search", async () => {
    const lease = await tenantWithLease(c);
    const portal = await portalTenant(t, c, lease.tenantId);
    // the account exists (a user row of the tenant role) ...
    const stored = await t.database.query<{ n: string }>(
      'SELECT count(*) AS n FROM users WHERE tenant_id = $1',
      [lease.tenantId],
    );
    expect(Number(stored[0]?.n)).toBe(1);
    // ... and the staff list does not show it
    const res = await c.get('/users');
    expect(res.headers['x-total-count']).toBe('2');
    expect((res.json() as { email: string }[]).map((r) => r.email)).toEqual([editor.email, admin.email]);
    const searched = await c.get(`/users?q=${encodeURIComponent(lease.email)}`);
    expect(searched.headers['x-total-count']).toBe('0');
    expect(searched.json()).toEqual([]);
    expect(portal.user.id).toBeGreaterThan(0);
  });

  it('lists the roles', async () => {
    const res = await c.get('/roles');
    expect(res.json()).toEqual([
      { id: 1, name: 'admin', readable_name: 'Admin' },
      { id: 2, name: 'company_admin', readable_name: 'Company admin' },
      { id: 3, name: 'editor', readable_name: 'Editor' },
      { id: 4, name: 'viewer', readable_name: 'Viewer' },
    ]);
  });

  it('edits a profile; the country must exist, the e-mail be free, the version current', async () => {
    const res = await c.put(`/users/${editor.id}`, {
      ...profile(editor, { company_id: acme.id, country_code: 'ken' }),
      id: editor.id,
      company_name: 'ignored',
      roles: ['ignored'],
      version: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      first_name: 'Changed',
      last_name: 'Name',
      company_id: acme.id,
      company_name: 'Acme Rentals',
      country_code: 'KEN',
      active: true,
      roles: ['editor'],
      version: 2,
    });

    const stale = await c.put(`/users/${editor.id}`, { ...profile(editor), version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('conflict');

    const country = await c.put(`/users/${editor.id}`, profile(editor, { country_code: 'ZZZ' }));
    expect(country.statusCode).toBe(400);
    expect(country.json().fields).toHaveProperty('country_code');

    const company = await c.put(`/users/${editor.id}`, profile(editor, { company_id: 9999 }));
    expect(company.statusCode).toBe(400);
    expect(company.json().fields).toHaveProperty('company_id');

    const taken = await c.put(`/users/${editor.id}`, profile(editor, { email: 'BOSS@acme.test' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'duplicate',
      error: 'This e-mail address is already registered.',
    });

    const invalid = await c.put(`/users/${editor.id}`, { email: 'nope', company_id: acme.id });
    expect(invalid.json().fields).toMatchObject({
      email: 'E-mail must be valid.',
      first_name: 'This field is required.',
      country_code: 'This field is required.',
    });
    expect((await c.put('/users/9999', profile(editor))).statusCode).toBe(404);
  });

  it('disabling a user ends their sessions and they cannot sign in; an admin cannot disable themselves', async () => {
    const theirs = new TestClient(t.app);
    await theirs.login(editor.email, editor.password);
    expect((await theirs.get('/units')).statusCode).toBe(200);

    const res = await c.put(`/users/${editor.id}`, profile(editor, { active: false }));
    expect(res.statusCode).toBe(200);
    expect(res.json().active).toBe(false);
    expect((await theirs.get('/units')).statusCode).toBe(401);
    const sessions = await t.database.query('SELECT 1 FROM sessions WHERE user_id = $1', [editor.id]);
    expect(sessions).toHaveLength(0);
    const login = await new TestClient(t.app).login(editor.email, editor.password);
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('account_disabled');

    const self = await c.put(`/users/${admin.id}`, profile(admin, { active: false }));
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({
      code: 'validation_failed',
      error: 'You cannot disable your own account.',
    });
    expect((await c.get('/users')).statusCode).toBe(200);

    // enabled again, they can sign in
    await c.put(`/users/${editor.id}`, profile(editor, { active: true }));
    expect((await new TestClient(t.app).login(editor.email, editor.password)).statusCode).toBe(200);
  });

  it('replaces roles (at least one, from the roles table); an admin cannot remove their own admin role', async () => {
    const theirs = new TestClient(t.app);
    await theirs.login(editor.email, editor.password);

    const res = await c.put(`/users/${editor.id}/roles`, { roles: ['viewer', 'company_admin', 'viewer'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().roles).toEqual(['company_admin', 'viewer']);
    expect((await theirs.get('/auth/status')).json().user.roles).toEqual(['company_admin', 'viewer']);

    const none = await c.put(`/users/${editor.id}/roles`, { roles: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().fields).toEqual({ roles: 'User must have at least one role.' });

    const unknown = await c.put(`/users/${editor.id}/roles`, { roles: ['superuser'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('validation_failed');

    const own = await c.put(`/users/${admin.id}/roles`, { roles: ['editor'] });
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({
      code: 'validation_failed',
      error: 'You cannot remove your own admin role.',
    });
    expect((await c.get(`/users/${admin.id}`)).json().roles).toEqual(['admin']);
    // keeping admin and adding another is fine
    expect((await c.put(`/users/${admin.id}/roles`, { roles: ['admin', 'editor'] })).json().roles).toEqual([
      'admin',
      'editor',
    ]);
    expect((await c.put('/users/9999/roles', { roles: ['viewer'] })).statusCode).toBe(404);
  });

  it("sets a user's password: at least 8 characters, their sessions end, the new one works", async () => {
    const theirs = new TestClient(t.app);
    await theirs.login(editor.email, editor.password);

    const short = await c.put(`/users/${editor.id}/password`, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toEqual({ password: 'Minimum 8 characters.' });

    const res = await c.put(`/users/${editor.id}/password`, { password: 'set-by-the-admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Password updated' });
    expect((await theirs.get('/units')).statusCode).toBe(401);
    expect((await new TestClient(t.app).login(editor.email, 'set-by-the-admin')).statusCode).toBe(200);

    // their own: this session stays
    expect((await c.put(`/users/${admin.id}/password`, { password: 'admin-new-password' })).statusCode).toBe(
      200,
    );
    expect((await c.get('/users')).statusCode).toBe(200);
  });

  it('adds a user with roles (register_as_admin)', async () => {
    const res = await c.post(
      '/auth/register_as_admin',
      newUser({ email: 'Added@Example.com', active: false }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      email: 'added@example.com',
      first_name: 'Added',
      company_id: acme.id,
      company_name: 'Acme Rentals',
      country_code: 'KEN',
      active: false,
      roles: ['editor', 'viewer'],
      last_login_at: null,
    });
    expect(c.cookie).toBeDefined();
    // the admin is still the one signed in
    expect((await c.get('/auth/status')).json().user.email).toBe(admin.email);

    const active = await c.post(
      '/auth/register_as_admin',
      newUser({ email: 'second@example.com', roles: undefined }),
    );
    expect(active.json()).toMatchObject({ active: true, roles: [] });
    expect((await new TestClient(t.app).login('second@example.com', 'a-long-password')).statusCode).toBe(200);

    const dup = await c.post('/auth/register_as_admin', newUser());
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'duplicate',
      error: 'This e-mail address is already registered.',
    });

    const missing = await c.post('/auth/register_as_admin', { email: 'x@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toMatchObject({
      first_name: 'This field is required.',
      last_name: 'This field is required.',
      company_id: 'This field is required.',
      country_code: 'This field is required.',
      password: 'This field is required.',
    });
    const badRole = await c.post(
      '/auth/register_as_admin',
      newUser({ email: 'third@example.com', roles: ['root'] }),
    );
    expect(badRole.statusCode).toBe(400);
    const count = await t.database.query("SELECT 1 FROM users WHERE email = 'third@example.com'");
    expect(count).toHaveLength(0);
  });
});
