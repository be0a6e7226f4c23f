import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testConfig, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { bootstrap, DEMO_COMPANY_NAME } from './first-run.ts';
import { postBooksHistory } from './books/history.ts';

/** Issue 26: a real company starts clean; the demo data lives in its own company and is believable. */
describe(`the first run (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it("puts the demo data in 'Demo Properties', leaves the administrator's company empty, and keeps the demo's arrears modest", async () => {
    const admin = { email: 'owner@kodi.test', password: 'first-run-password-1' };
    const result = await bootstrap(
      t.database,
      testConfig({ demoData: true, adminEmail: admin.email, adminPassword: admin.password }),
    );
    expect(result.createdAdmin?.email).toBe(admin.email);
    await postBooksHistory(t.database);
    const c = new TestClient(t.app);
    await c.login(admin.email, admin.password);

    const companies = (await c.get('/companies')).json<{ id: number; name: string }[]>();
    expect(companies.map((x) => x.name).sort()).toEqual([DEMO_COMPANY_NAME, 'Kodi Properties']);
    // the administrator's own company: nothing in it
    for (const path of ['/properties', '/units', '/tenants', '/occupancy', '/payments', '/expenses']) {
      const res = await c.get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.json<unknown[]>(), path).toEqual([]);
    }
    expect((await c.get('/arrears/summary')).json()).toEqual({ total: 0, leases: 0 });

    // the demo company, as an admin sees it after choosing it in their profile
    const demo = companies.find((x) => x.name === DEMO_COMPANY_NAME);
    await t.database.query('UPDATE users SET company_id = $2 WHERE email = $1', [admin.email, demo?.id]);
    const leases = await c.get(
      '/occupancy?filter={"field":"occupancy_status","value":"active"}&page_size=100',
    );
    const active = Number(leases.headers['x-total-count']);
    expect(active).toBeGreaterThan(10);
    const arrears = (await c.get('/arrears/summary')).json<{ total: number; leases: number }>();
    // most tenants pay on time: a few owe, and in all less than a month's rent a lease on average
    // (before issue 26 its 35 leases owed UGX 453M between them)
    const rents = leases.json<{ rate: number; rent_cycle: string }[]>();
    const monthly = rents.reduce((sum, l) => sum + (l.rent_cycle === 'weekly' ? l.rate * 4 : l.rate), 0);
    expect(arrears.leases).toBeLessThan(active / 2);
    expect(arrears.total).toBeGreaterThan(0);
    expect(arrears.total).toBeLessThan(monthly / 2);
  }, 240_000);
});
