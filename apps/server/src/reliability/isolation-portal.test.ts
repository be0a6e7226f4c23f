import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildUser } from '../test/factories.ts';
import { PNG_1PX } from '../test/entities.ts';
import { expectStatus } from '../test/rent-cycle.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../test/portal.ts';
import { ROLES } from './world.ts';

type Operation = { method: string; path: string; public: boolean };
type Doc = {
  paths: Record<string, Record<string, { responses?: Record<string, unknown>; security?: unknown[] }>>;
};

/**
 * The tenant role in the isolation matrix (issue 19): two tenants of one company and one of another,
 * against every staff route (a 403, whatever is sent) and every portal route (its own records only:
 * another tenant's, in the same company or not, is a 404); staff of every role against the portal (403).
 */
describe(`isolation: tenants × every staff and portal route (${testDriver})`, { timeout: 180_000 }, () => {
  let t: TestContext;
  let ops: Operation[];
  type World = Awaited<ReturnType<typeof tenantWithLease>> & {
    client: TestClient;
    requestId: number;
    photoId: number;
  };
  let a1: World;
  let a2: World;
  let b1: World;
  let staffA: Record<(typeof ROLES)[number], TestClient>;

  beforeAll(async () => {
    t = await setupApp();
    const A = await portalCompany(t, 'Alpha Homes');
    const B = await portalCompany(t, 'Bravo Homes');
    const make = async (staff: TestClient): Promise<World> => {
      const lease = await tenantWithLease(staff);
      const client = await portalTenant(t, staff, lease.tenantId);
      const req = expectStatus(
        await client.post('/portal/maintenance-requests', {
          occupancy_id: lease.leaseId,
          description: `Broken window of tenant ${lease.tenantId}`,
          photos: [{ data: PNG_1PX }],
        }),
        201,
      ).json<{ id: number; photos: { id: number }[] }>();
      return { ...lease, client, requestId: req.id, photoId: req.photos[0]!.id };
    };
    a1 = await make(A.staff);
    a2 = await make(A.staff);
    b1 = await make(B.staff);
    const entries = await Promise.all(
      ROLES.map(async (role) => {
        const u = await buildUser(t.database, { company_id: A.company.id, roles: [role] });
        const c = new TestClient(t.app);
        expectStatus(await c.login(u.email, u.password), 200);
        return [role, c] as const;
      }),
    );
    staffA = Object.fromEntries(entries) as typeof staffA;
    const doc = (await t.app.inject({ method: 'GET', url: '/rentapi/docs/json' })).json<Doc>();
    ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        // a route that needs a session answers 401 without one (plugins/openapi.ts documents it)
        // (sign-in and sign-out are public, though a wrong password answers 401; so is a route that
        // needs no session at all, as the payment webhook: its 401 is a bad signature)
        public:
          !op.responses?.['401'] ||
          /\/auth\//.test(path) ||
          (Array.isArray(op.security) && op.security.length === 0),
      })),
    );
  }, 180_000);
  afterAll(async () => {
    await t?.app.close();
  });

  const fill = (path: string, w: World) =>
    path
      .replace('/rentapi/api', '')
      .replace('{photoId}', String(w.photoId))
      .replace(/\{[a-zA-Z_]+\}/g, String(w.leaseId));
  const call = (c: TestClient, method: string, path: string) =>
    c.request(method as 'GET', path, method === 'GET' || method === 'DELETE' ? undefined : {});

  it('refuses a tenant on every staff route with 403, whatever it sends', async () => {
    const staffOps = ops.filter((o) => !o.public && !o.path.includes('/portal/'));
    expect(staffOps.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const o of staffOps) {
      for (const w of [a1, b1]) {
        const res = await call(w.client, o.method, fill(o.path, w));
        if (res.statusCode !== 403)
          problems.push(`${o.method} ${o.path}: ${res.statusCode} ${res.body.slice(0, 100)}`);
      }
    }
    expect(problems).toEqual([]);
    // and it is still signed in: the portal answers it
    expectStatus(await a1.client.get('/portal/me'), 200);
  });

  it('refuses an owner on every staff route and every tenant portal route, and a tenant and staff on the owner portal’s (issue 27)', async () => {
    const A = await portalCompany(t, 'Owner Homes');
    const owner = expectStatus(
      await A.staff.post('/owners', {
        company_name: 'Isolation Owner Ltd',
        email: 'isolation.owner@example.com',
      }),
      201,
    ).json<{ id: number }>();
    expectStatus(await A.staff.post(`/owners/${owner.id}/invite`, { channel: 'email' }), 201);
    const rows = await t.database.query<{ body: string }>(
      `SELECT body FROM messages WHERE kind = 'invitation' ORDER BY id DESC LIMIT 1`,
    );
    const token = /\/owner\/welcome\?token=([\w%-]+)/.exec(rows[0]?.body ?? '')?.[1] ?? '';
    const client = new TestClient(t.app);
    await client.get('/auth/csrf-token');
    expectStatus(
      await client.post('/portal/auth/accept', {
        token: decodeURIComponent(token),
        password: 'owner-pass-42x',
      }),
      200,
    );
    const ownerOps = ops.filter((o) => !o.public && o.path.includes('/owner-portal/'));
    expect(ownerOps.length).toBeGreaterThanOrEqual(3);
    const problems: string[] = [];
    for (const o of ops.filter((o) => !o.public && !ownerOps.includes(o))) {
      const res = await call(client, o.method, fill(o.path, a1));
      if (res.statusCode !== 403) problems.push(`owner ${o.method} ${o.path}: ${res.statusCode}`);
    }
    for (const o of ownerOps) {
      for (const c of [a1.client, ...ROLES.map((role) => staffA[role])]) {
        const res = await call(c, o.method, fill(o.path, a1));
        if (res.statusCode !== 403) problems.push(`${o.method} ${o.path}: ${res.statusCode}`);
      }
    }
    expect(problems).toEqual([]);
    expectStatus(await client.get('/owner-portal/me'), 200);
  });

  it('refuses staff of every role on every portal route but sign-in', async () => {
    const portalOps = ops.filter((o) => !o.public && o.path.includes('/portal/'));
    expect(portalOps.length).toBeGreaterThanOrEqual(10);
    for (const role of ROLES)
      for (const o of portalOps) {
        const res = await call(staffA[role], o.method, fill(o.path, a1));
        expect(res.statusCode, `${role} ${o.method} ${o.path}`).toBe(403);
      }
  });

  it("answers every portal route about the tenant's own records, another tenant's as 404 in the same company or not", async () => {
    const own = (w: World) => [
      `/portal/leases/${w.leaseId}/ledger`,
      `/portal/leases/${w.leaseId}/statement.pdf`,
      `/portal/payments/${w.paymentId}/receipt.pdf`,
      `/portal/maintenance-requests/${w.requestId}/photos/${w.photoId}`,
      `/portal/leases/${w.leaseId}/meter-readings`,
    ];
    // the routes of records this world does not make, each scoped in its feature's tests: a meter
    // reading's photo (features/utilities/billing.test.ts) and a payment prompt
    // (features/collections/payment-providers.test.ts), another tenant's a 404
    const elsewhere = ['/portal/meter-readings/{id}/photo', '/portal/payments/requests/{id}'];
    // every portal route with an id is among these
    const withIds = ops.filter((o) => o.path.includes('/portal/') && o.path.includes('{')).map((o) => o.path);
    expect(withIds.filter((p) => !elsewhere.some((e) => p.endsWith(e))).length).toBe(own(a1).length);
    expect(elsewhere.every((e) => withIds.some((p) => p.endsWith(e)))).toBe(true);
    for (const me of [a1, a2, b1]) {
      for (const url of own(me)) expect((await me.client.get(url)).statusCode, url).toBe(200);
      for (const other of [a1, a2, b1].filter((w) => w !== me)) {
        for (const url of own(other)) {
          const res = await me.client.get(url);
          expect(res.statusCode, `${me.tenantId} → ${url}`).toBe(404);
          expect(res.body).not.toContain(`tenant ${other.tenantId}`);
        }
        const req = await me.client.post('/portal/maintenance-requests', {
          occupancy_id: other.leaseId,
          description: 'Not mine',
        });
        expect(req.statusCode).toBe(404);
      }
      // the lists and the home: its own records only
      const home = expectStatus(await me.client.get('/portal/me'), 200).json<{
        tenant: { id: number };
        leases: { id: number }[];
      }>();
      expect(home.tenant.id).toBe(me.tenantId);
      expect(home.leases.map((l) => l.id)).toEqual([me.leaseId]);
      const pays = expectStatus(await me.client.get('/portal/payments'), 200).json<{
        rows: { id: number }[];
      }>();
      expect(pays.rows.map((p) => p.id)).toEqual([me.paymentId]);
      const reqs = expectStatus(await me.client.get('/portal/maintenance-requests'), 200).json<
        { id: number }[]
      >();
      expect(reqs.map((r) => r.id)).toEqual([me.requestId]);
    }
  });
});
