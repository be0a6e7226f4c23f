import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { HttpClient, startServerProcess, type ServerProcess } from '../../test/processes.ts';

const base = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.TEST_DB === 'pg' && !!base;

describe.skipIf(!onPostgres)('two server processes on one PostgreSQL', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  const dbName = `kodi_two_servers_${process.pid}`;
  const email = 'two@servers.test';
  const password = 'two-servers-password';

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(base as string);
    url.pathname = `/${dbName}`;
    const env = {
      DATABASE_URL: url.toString(),
      CAPTCHA_TEST_ANSWER: 'twin1',
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: password,
      DEMO_DATA: '0',
    };
    a = await startServerProcess(env);
    b = await startServerProcess(env); // the same migrations and first-run, already done: must be a no-op
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  it('shares sessions, captchas and CSRF tokens: a session made on one works on the other', async () => {
    const c = new HttpClient();
    await c.call(a.url, 'GET', '/auth/status');
    await c.call(a.url, 'GET', '/captcha'); // the answer is kept on server A's session...
    const login = await c.call(b.url, 'POST', '/auth/login', { email, password, captcha_answer: 'twin1' }); // ...and checked on B
    expect(login.status).toBe(200);
    const onA = await c.call(a.url, 'GET', '/auth/status');
    expect((onA.json.user as { email: string }).email).toBe(email);
    const company = await c.call(
      a.url,
      'GET',
      `/companies_single/${(onA.json.user as { company_id: number }).company_id}`,
    );
    expect(company.status).toBe(200);
    const created = await c.call(b.url, 'POST', '/units', {
      name: 'Shared',
      address: 'Somewhere',
      unit_type: 'house',
      status: 'available',
      monthly_rate: 10,
      weekly_rate: 3,
      daily_rate: 1,
    });
    expect(created.status).toBe(201); // CSRF token issued by B at login, session row shared
    // B keeps the session in memory for its lists, which confirm it in their own statement
    expect((await c.call(b.url, 'GET', '/units')).status).toBe(200);
    expect((await c.call(b.url, 'GET', '/units')).status).toBe(200);
    const logout = await c.call(a.url, 'POST', '/auth/logout');
    expect(logout.status).toBe(204);
    expect((await c.call(b.url, 'GET', '/units')).status).toBe(401);
    expect((await c.call(b.url, 'GET', '/dashboard')).status).toBe(401);
    expect((await c.call(b.url, 'GET', '/auth/status')).json.user).toBeNull();
  });

  it('sees a write made on one server in the lists the other keeps (search matches, pages read)', async () => {
    const c = new HttpClient();
    await c.call(a.url, 'GET', '/auth/status');
    await c.call(a.url, 'GET', '/captcha');
    expect(
      (await c.call(a.url, 'POST', '/auth/login', { email, password, captcha_answer: 'twin1' })).status,
    ).toBe(200);
    const unit = (name: string) => ({
      name,
      address: 'Kololo Hill',
      unit_type: 'house',
      status: 'available',
      monthly_rate: 10,
      weekly_rate: 3,
      daily_rate: 1,
    });
    const names = async () =>
      ((await c.call(b.url, 'GET', '/units?q=Mbuya')).json as unknown as { name: string }[]).map(
        (u) => u.name,
      );
    expect((await c.call(a.url, 'POST', '/units', unit('Mbuya One'))).status).toBe(201);
    expect(await names()).toEqual(['Mbuya One']);
    expect(await names()).toEqual(['Mbuya One']); // answered from what B keeps
    const two = await c.call(a.url, 'POST', '/units', unit('Mbuya Two'));
    expect(two.status).toBe(201);
    expect(await names()).toEqual(['Mbuya Two', 'Mbuya One']);
    const renamed = await c.call(a.url, 'PUT', `/units/${String(two.json.id)}`, {
      ...(two.json as Record<string, unknown>),
      name: 'Naguru Two',
    });
    expect(renamed.status).toBe(200);
    expect(await names()).toEqual(['Mbuya One']);
    expect((await c.call(a.url, 'POST', '/auth/logout')).status).toBe(204);
  });

  it('shares the lockout: failures on both servers add up', async () => {
    for (let i = 0; i < 5; i++) {
      const c = new HttpClient();
      const server = i % 2 === 0 ? a : b;
      await c.call(server.url, 'GET', '/auth/status');
      await c.call(server.url, 'GET', '/captcha');
      expect(
        (
          await c.call(server.url, 'POST', '/auth/login', {
            email,
            password: 'wrong',
            captcha_answer: 'twin1',
          })
        ).status,
      ).toBe(401);
    }
    const c = new HttpClient();
    await c.call(a.url, 'GET', '/auth/status');
    await c.call(b.url, 'GET', '/captcha');
    const locked = await c.call(b.url, 'POST', '/auth/login', { email, password, captcha_answer: 'twin1' });
    expect(locked.status).toBe(429);
    expect(locked.json.code).toBe('account_locked');
  });

  it('printed the first-run credentials once, on one server only', () => {
    const printed = [a.output(), b.output()].filter((o) => o.includes('First administrator')).length;
    expect(printed).toBe(1);
  });
});
