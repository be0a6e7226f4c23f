import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildUser, type BuiltUser } from '../test/factories.ts';
import { validTenant } from '../test/entities.ts';
import { expectStatus } from '../test/rent-cycle.ts';
import { PORTAL_PASSWORD, portalCompany, portalTenant, tenantWithLease } from '../test/portal.ts';
import { hostileRuns } from './hostile.ts';

/**
 * Nothing answers whether an e-mail or a phone has an account in another company (issue 23). Company
 * B's editor invites tenants, and B's tenant changes its own addresses, with addresses that are free,
 * that A's staff or A's tenant sign in with, written in any usual way: every answer B can see (the
 * route's, the tenant's state, the company's message log, a wrong code's) is the same as a free
 * address's. Sign-in answers alike for every login, and five failures lock the account whatever
 * spelling or door (portal password, portal code, staff sign-in) they came through.
 */

const { runs: RUNS, scale: SCALE } = hostileRuns({ invite: 24, change: 30, signIn: 30, lock: 12 }, 20261203);
const TIMEOUT = 180_000 * SCALE;

type Who = 'fresh' | 'staffElsewhere' | 'tenantElsewhere';
type PortalWorld = Awaited<ReturnType<typeof portalCompany>>;

describe(`no answer tells whether an address has an account elsewhere (${testDriver})`, () => {
  let t: TestContext;
  let A: PortalWorld;
  let B: PortalWorld;
  let aTenant: Awaited<ReturnType<typeof tenantWithLease>>;
  let editor: TestClient;
  let tenantB: TestClient & { user: { id: number } };
  let bTenantId = 0;
  let freshN = 0;
  let requests = 0;

  /** An address of each kind, for a field: a free one (new each time), A's staff's, A's tenant's. */
  const address = (who: Who, field: 'email' | 'phone'): string => {
    if (who === 'fresh') {
      freshN += 1;
      return field === 'email'
        ? `free${freshN}@enumeration.test`
        : `+2567725${String(10000 + freshN).slice(-5)}`;
    }
    if (field === 'email') return who === 'staffElsewhere' ? A.admin.email : aTenant.email;
    // A's staff have no phone: its tenant's
    return aTenant.phone;
  };

  /**
   * The same address as people write it: capitals and spaces, a phone with its national 0, spaced, or
   * (at sign-in, which takes any writing; a tenant record's phone rule does not) with 00.
   */
  const writing = (field: 'email' | 'phone', anyWriting = false) =>
    field === 'email'
      ? fc.constantFrom(
          (v: string) => v,
          (v: string) => v.toUpperCase(),
          (v: string) => ` ${v} `,
          (v: string) => v.replace(/^./, (c) => c.toUpperCase()),
        )
      : fc.constantFrom(
          (v: string) => v,
          (v: string) => `0${v.slice(4)}`,
          (v: string) => `+${v.slice(1, 4)} ${v.slice(4, 7)} ${v.slice(7)}`,
          ...(anyWriting ? [(v: string) => `00${v.slice(1)}`] : []),
        );

  const send = async (p: Promise<LightMyRequestResponse>) => {
    requests += 1;
    return p;
  };

  /** A message of B's log as B's admins see it. */
  const logged = async (tenantId: number, messageId?: number) => {
    const rows = expectStatus(await B.staff.get(`/messages?tenant_id=${tenantId}&page_size=100`), 200).json<
      Record<string, unknown>[]
    >();
    const m = messageId === undefined ? rows[0] : rows.find((r) => r.id === messageId);
    return { kind: m?.kind, channel: m?.channel, status: m?.status, subject: m?.subject, body: m?.body };
  };

  beforeAll(async () => {
    t = await setupApp({ publicUrl: 'https://kodi.example', rateLimits: false });
    A = await portalCompany(t, 'Alpha Homes');
    B = await portalCompany(t, 'Bravo Homes');
    aTenant = await tenantWithLease(A.staff);
    await portalTenant(t, A.staff, aTenant.tenantId);
    const ed: BuiltUser = await buildUser(t.database, { company_id: B.company.id, roles: ['editor'] });
    editor = new TestClient(t.app);
    expectStatus(await editor.login(ed.email, ed.password), 200);
    const b = await tenantWithLease(B.staff);
    bTenantId = b.tenantId;
    tenantB = await portalTenant(t, B.staff, b.tenantId);
  }, TIMEOUT);
  afterAll(async () => {
    console.info(
      `[reliability] enumeration (${testDriver}): ${requests} requests (numRuns ${JSON.stringify(RUNS)}), ` +
        'every answer B can see alike for free and taken addresses',
    );
    await t.app.close();
  });

  it(
    'an invitation: the answer, the tenant’s state and the message log are those of a free address',
    async () => {
      let n = 0;
      const seen = async (who: Who, field: 'email' | 'phone', write: (v: string) => string) => {
        n += 1;
        const value = write(address(who, field));
        const tenant = expectStatus(
          await send(
            editor.post(
              '/tenants',
              validTenant({
                first_name: 'Sam',
                last_name: `Enum${n}`,
                email: field === 'email' ? value.trim() : `other${n}@enumeration.test`,
                phone: field === 'phone' ? value : `+2567726${String(10000 + n).slice(-5)}`,
              }),
            ),
          ),
          201,
        ).json<{ id: number }>();
        const res = await send(
          editor.post(`/tenants/${tenant.id}/invite`, { channel: field === 'email' ? 'email' : 'sms' }),
        );
        const body = res.json<Record<string, unknown>>();
        const status = expectStatus(await send(editor.get(`/tenants/${tenant.id}`)), 200).json<{
          portal_status: string;
        }>().portal_status;
        return {
          status: res.statusCode,
          keys: Object.keys(body).sort(),
          portal_status: body.portal_status,
          days: Math.round((Date.parse(String(body.expires_at)) - Date.now()) / 86_400_000),
          tenant: status,
          message: await logged(tenant.id, Number(body.message_id)),
        };
      };
      const reference = {
        email: await seen('fresh', 'email', (v) => v),
        phone: await seen('fresh', 'phone', (v) => v),
      };
      expect(reference.email).toMatchObject({
        status: 201,
        portal_status: 'invited',
        days: 7,
        tenant: 'invited',
      });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<Who>('fresh', 'staffElsewhere', 'tenantElsewhere'),
          fc
            .constantFrom('email' as const, 'phone' as const)
            .chain((field) => writing(field).map((write) => ({ field, write }))),
          async (who, { field, write }) => {
            expect(await seen(who, field, write), `${who} ${field}`).toEqual(reference[field]);
          },
        ),
        { numRuns: RUNS.invite },
      );
    },
    TIMEOUT,
  );

  it(
    'a tenant’s new e-mail or phone: the answer, the code’s message and a wrong code’s answer are a free address’s',
    async () => {
      type Me = { tenant: Record<string, unknown> & { version: number }; pending: unknown[] };
      const change = async (field: 'email' | 'phone', value: string) => {
        const me = expectStatus(await send(tenantB.get('/portal/me')), 200).json<Me>();
        const res = await send(tenantB.put('/portal/me', { version: me.tenant.version, [field]: value }));
        const after = res.json<Me>();
        const wrong = await send(tenantB.post('/portal/me/confirm', { code: '000000' }));
        const message = await logged(bTenantId);
        return {
          status: res.statusCode,
          // nothing saved yet but the version; the new address pending, as written
          unchanged: after.tenant[field] === me.tenant[field],
          version: after.tenant.version - me.tenant.version,
          pending: JSON.stringify(after.pending.filter((p) => (p as { field: string }).field === field))
            .replace(/"expires_at":"[^"]+"/g, '')
            .replaceAll(JSON.stringify(field === 'email' ? value.trim().toLowerCase() : value), '"V"')
            // a new phone waits in E.164, whichever way it was written
            .replace(/"value":"\+\d{6,15}"/g, '"value":"V"'),
          message: { ...message, body: String(message.body) },
          wrong: [wrong.statusCode, wrong.body],
        };
      };
      const reference = {
        email: await change('email', address('fresh', 'email')),
        phone: await change('phone', address('fresh', 'phone')),
      };
      expect(reference.email).toMatchObject({ status: 200, unchanged: true, version: 1 });
      expect(reference.email.message).toMatchObject({ kind: 'sign_in_code', status: 'queued' });
      expect(reference.email.message.body).toMatch(/••••••/);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<Who>('fresh', 'staffElsewhere', 'tenantElsewhere'),
          fc
            .constantFrom('email' as const, 'phone' as const)
            .chain((field) => writing(field).map((write) => ({ field, write }))),
          async (who, { field, write }) => {
            const value = write(address(who, field));
            expect(await change(field, value), `${who} ${field} ${value}`).toEqual(reference[field]);
          },
        ),
        { numRuns: RUNS.change },
      );
      // nobody else's address moved, and B's tenant still signs in as it did
      const c = new TestClient(t.app);
      await c.get('/auth/csrf-token');
      const aIn = await c.post('/portal/auth/login', { login: aTenant.email, password: PORTAL_PASSWORD });
      expect(aIn.json<{ user: { tenant_id: number } }>().user.tenant_id).toBe(aTenant.tenantId);
      expect((await new TestClient(t.app).login(A.admin.email, A.admin.password)).statusCode).toBe(200);
    },
    TIMEOUT,
  );

  it(
    'sign-in: a wrong password or code and a code request answer alike for every login',
    async () => {
      const c = new TestClient(t.app);
      await c.get('/auth/csrf-token');
      const answers = async (login: string) => {
        await t.database.query('DELETE FROM login_attempts');
        const password = await send(c.post('/portal/auth/login', { login, password: 'not-the-password-1' }));
        const code = await send(c.post('/portal/auth/code', { login, channel: 'email' }));
        const verify = await send(c.post('/portal/auth/code/verify', { login, code: '000000' }));
        return [
          password.statusCode,
          password.body,
          code.statusCode,
          code.body,
          verify.statusCode,
          verify.body,
        ];
      };
      const reference = await answers('nobody@enumeration.test');
      expect(reference.slice(0, 1)).toEqual([401]);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<Who>('fresh', 'staffElsewhere', 'tenantElsewhere'),
          fc
            .constantFrom('email' as const, 'phone' as const)
            .chain((field) => writing(field, true).map((write) => ({ field, write }))),
          async (who, { field, write }) => {
            expect(await answers(write(address(who, field))), `${who} ${field}`).toEqual(reference);
          },
        ),
        { numRuns: RUNS.signIn },
      );
      await t.database.query('DELETE FROM login_attempts');
    },
    TIMEOUT,
  );

  it(
    'the lock: five failures by any spellings and doors lock the account for all of them',
    async () => {
      type Door = 'password' | 'code' | 'staff';
      const doors = fc.constantFrom<Door>('password', 'code', 'staff');
      const aLogin = fc
        .constantFrom('email' as const, 'phone' as const)
        .chain((field) =>
          writing(field, true).map((write) => write(field === 'email' ? aTenant.email : aTenant.phone)),
        );
      const fail = async (how: Door, login: string) => {
        const c = new TestClient(t.app);
        await c.get('/auth/csrf-token');
        const res =
          how === 'staff'
            ? await send(c.login(aTenant.email, 'not-the-password-1'))
            : how === 'password'
              ? await send(c.post('/portal/auth/login', { login, password: 'not-the-password-1' }))
              : await send(c.post('/portal/auth/code/verify', { login, code: '000000' }));
        expect([401, 429], res.body).toContain(res.statusCode);
      };
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(doors, aLogin), { minLength: 5, maxLength: 5 }),
          aLogin,
          async (failures, rightLogin) => {
            await t.database.query('DELETE FROM login_attempts');
            for (const [how, login] of failures) await fail(how, login);
            const c = new TestClient(t.app);
            await c.get('/auth/csrf-token');
            const res = await send(
              c.post('/portal/auth/login', { login: rightLogin, password: PORTAL_PASSWORD }),
            );
            expect(res.statusCode, `${JSON.stringify(failures)} then ${rightLogin}`).toBe(429);
            expect(res.json<{ code: string }>().code).toBe('account_locked');
          },
        ),
        { numRuns: RUNS.lock },
      );
      await t.database.query('DELETE FROM login_attempts');
    },
    TIMEOUT,
  );
});
