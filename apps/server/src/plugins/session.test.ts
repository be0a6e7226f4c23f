import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { Database } from '../db/client.ts';
import { resetDatabase, testConfig, testDatabase, testDriver } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser, type BuiltUser } from '../test/factories.ts';
import { validUnit } from '../test/entities.ts';

/**
 * Every request reads its session, user and roles from the database (plugins/session.ts): these
 * tests change them behind the server's back, in SQL, as another server would, and check that the
 * very next request answers accordingly.
 */
describe(`sessions are read at every request (${testDriver})`, () => {
  let app: FastifyInstance;
  let database: Database;
  let user: BuiltUser;
  let otherCompany: number;
  let c: TestClient;

  beforeEach(async () => {
    const shared = await testDatabase();
    await resetDatabase(shared);
    database = shared;
    app = await buildApp(testConfig(), database);
    await app.ready();
    const company = await buildCompany(shared, { name: 'Acme Rentals' });
    otherCompany = (await buildCompany(shared, { name: 'Other Rentals' })).id;
    user = await buildUser(shared, { company_id: company.id, roles: ['admin'] });
    c = new TestClient(app);
    expect((await c.login(user.email, user.password)).statusCode).toBe(200);
    expect((await c.post('/units', validUnit({ name: 'Acme 1' }))).statusCode).toBe(201);
    // the other company's unit, written as that company's admin would
    await shared.query(
      `INSERT INTO units (company_id, name, address, unit_type, status, monthly_rate, weekly_rate, daily_rate)
       VALUES ($1, 'Other 1', 'Elsewhere', 'house', 'available', 5, 2, 1)`,
      [otherCompany],
    );
  });
  afterEach(async () => {
    await app.close();
  });

  it('refuses the next read of a session ended on another server', async () => {
    await c.get('/units');
    await database.query('DELETE FROM sessions WHERE user_id = $1', [user.id]);
    const list = await c.get('/units');
    expect(list.statusCode).toBe(401);
    expect(list.json()).toEqual({ error: 'You are not signed in.', code: 'unauthorized' });
    expect((await c.get('/dashboard')).statusCode).toBe(401);
  });

  it('refuses the next read once the user lost every role or was deactivated', async () => {
    await c.get('/units');
    await c.get('/dashboard');
    await database.query('DELETE FROM user_roles WHERE user_id = $1', [user.id]);
    expect((await c.get('/units')).json().code).toBe('no_role');
    expect((await c.get('/dashboard')).json().code).toBe('no_role');
    await database.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'viewer'`,
      [user.id],
    );
    expect((await c.get('/units')).statusCode).toBe(200);
    expect((await c.get('/dashboard')).statusCode).toBe(200);
    await database.query('UPDATE users SET active = false WHERE id = $1', [user.id]);
    const list = await c.get('/units');
    expect(list.statusCode).toBe(401);
    expect(list.json().code).toBe('token_expired');
  });

  it("shows the user's new company at the very next read after a move", async () => {
    expect((await c.get('/units')).json().map((u: { name: string }) => u.name)).toEqual(['Acme 1']);
    await database.query('UPDATE users SET company_id = $2 WHERE id = $1', [user.id, otherCompany]);
    const list = await c.get('/units');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((u: { name: string }) => u.name)).toEqual(['Other 1']);
    expect((await c.get('/dashboard')).json().available_units.map((u: { name: string }) => u.name)).toEqual([
      'Other 1',
    ]);
  });

  it('keeps working when the session was last seen over a minute ago (its last-seen is renewed)', async () => {
    await c.get('/units');
    await database.query(
      `UPDATE sessions SET last_seen_at = now() - interval '5 minutes' WHERE user_id = $1`,
      [user.id],
    );
    expect((await c.get('/units')).statusCode).toBe(200);
    const seen = await database.query<{ recent: boolean }>(
      `SELECT last_seen_at > now() - interval '1 minute' AS recent FROM sessions WHERE user_id = $1`,
      [user.id],
    );
    expect(seen[0]?.recent).toBe(true);
  });
});
