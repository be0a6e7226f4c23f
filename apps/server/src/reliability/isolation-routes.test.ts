import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import type { TestClient } from '../test/client.ts';
import { buildUser } from '../test/factories.ts';
import { expectStatus } from '../test/rent-cycle.ts';
import { upload as importUpload, csv } from '../features/imports/import-test-kit.ts';
import { multipartBody } from '../features/imports/import-test-kit.ts';
import { entityList } from '@kodi/domain';
import { ROLES, buildWorld, type CompanyWorld, type Role } from './world.ts';

/**
 * The isolation matrix over every route of the OpenAPI document (issue 20): for every operation that
 * needs a session, each staff role of company A gets what the route's declared access says (403 when
 * it may not, never 401 or 403 when it may), and each role of company B, sent A's ids, never gets a 2xx
 * (404 where it may call the route, 403 where it may not), never sees A's records in a list, and changes
 * nothing of A's. Tenants against these routes: `isolation-portal.test.ts`.
 */

type Access = 'signedIn' | 'anyRole' | 'canEdit' | 'companyAdmin' | 'admin' | 'tenant' | 'owner' | 'public';
type Op = { method: string; path: string; access: Access; body: boolean };
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { description?: string; requestBody?: unknown; parameters?: { in: string; required?: boolean }[] }
    >
  >;
};

/** The declared access, as `plugins/openapi.ts` writes it at the start of the description's last paragraph. */
const WHO: [RegExp, Access][] = [
  [/^Public: no sign-in needed\./m, 'public'],
  [/^Any signed-in user, with or without a role\./m, 'signedIn'],
  [/^Any signed-in user with a role, in their own company\./m, 'anyRole'],
  [/^Admins and editors, in their own company\./m, 'canEdit'],
  [/^Admins and company admins, in their own company\./m, 'companyAdmin'],
  [/^Admins only\./m, 'admin'],
  [/^A tenant’s portal account/m, 'tenant'],
  [/^An owner’s portal account/m, 'owner'],
];

/** Which staff roles each access lets in (written out here, not taken from the code it checks). */
const LETS_IN: Record<Exclude<Access, 'public' | 'tenant' | 'owner'>, readonly Role[]> = {
  signedIn: ROLES,
  anyRole: ROLES,
  canEdit: ['admin', 'editor'],
  companyAdmin: ['admin', 'company_admin'],
  admin: ['admin'],
};

/** Calls that would end the caller's own session: not made (sign-out is covered by the auth tests). */
const SKIPPED = new Set(['POST /auth/logout']);

/**
 * Global records (companies, countries, currencies, users: 01-core §6) that admins see and change in every
 * company: B's admin reaching A's there is by design (`isolation.test.ts` checks their rules).
 */
const GLOBAL = new Set([
  ...entityList.filter((d) => d.scope !== 'company').map((d) => d.name),
  'companies_single',
  'users',
]);
/** Shared by every company: countries and currencies. */
const SHARED = new Set(['countries', 'currencies']);
const segmentOf = (p: string) => /^\/([^/]+)/.exec(p)?.[1] ?? '';
const seesAcross = (role: Role, p: string) =>
  SHARED.has(segmentOf(p)) || (role === 'admin' && GLOBAL.has(segmentOf(p)));

const samples = path.join(import.meta.dirname, '../features/collections/samples');
const NO_SUCH_ID = 2_000_000_000;

type Ids = Record<string, number>;

describe(
  `isolation: every route of the OpenAPI document × staff role × two companies (${testDriver})`,
  {
    timeout: 240_000,
  },
  () => {
    let t: TestContext;
    let ops: Op[];
    let A: CompanyWorld;
    let B: CompanyWorld;
    let idsA: Ids;
    let idsB: Ids;

    /** The records beyond the entities' that the new routes take: imports, statement lines, charges, … */
    const extras = async (w: CompanyWorld): Promise<Ids> => {
      const admin = w.clients.admin;
      const preview = expectStatus(
        await importUpload(admin, 'tenants', {
          name: `${w.marker}.csv`,
          content: csv([
            ['first_name', 'last_name', 'phone'],
            [`${w.marker}`, 'Imported', '+256772123456'],
          ]),
        }),
        201,
      ).json<{ id: number }>();
      const statement = multipartBody(
        { source: 'mtn_momo' },
        { name: `${w.marker}.csv`, content: fs.readFileSync(path.join(samples, 'mtn_momo.csv')) },
      );
      const uploaded = expectStatus(
        await admin.post('/statements', statement.body, { 'content-type': statement.contentType }),
        201,
      ).json<{ id: number }>();
      const [line] = await t.database.query<{ id: number }>(
        'SELECT id FROM statement_lines WHERE company_id = $1 ORDER BY id LIMIT 1',
        [w.id],
      );
      const charge = expectStatus(
        await admin.post(`/occupancy/${w.refs.occupancy_id}/charges`, {
          date: '2025-02-01',
          category: 'utility',
          description: `${w.marker} water`,
          amount: 20_000,
        }),
        201,
      ).json<{ id: number }>();
      const template = expectStatus(
        await admin.post('/message-templates', {
          name: `${w.marker} reminder`,
          channel: 'sms',
          kind: 'due',
          body: 'Hi {{tenant_first_name}}, rent is due.',
        }),
        201,
      ).json<{ id: number }>();
      const message = expectStatus(
        await admin.post('/messages/test', { channel: 'sms', to: '+256700000050' }),
        201,
      ).json<{ id: number }>();
      // issue 29: an announcement to the company's tenants (B's list must never show it)
      const announcement = expectStatus(
        await admin.post('/announcements', {
          channels: ['sms'],
          subject: `${w.marker} notice`,
          body: `${w.marker} water off`,
          idempotency_key: `${w.marker}-announcement`,
        }),
        201,
      ).json<{ id: number }>();
      // the books (issue 25): an account of its own and a manual entry on it
      const account = expectStatus(
        await admin.post('/ledger-accounts', { code: '1090', name: `${w.marker} safe`, type: 'asset' }),
        201,
      ).json<{ id: number }>();
      const cash = (await admin.get('/ledger-accounts'))
        .json<{ id: number; role: string | null }[]>()
        .find((a) => a.role === 'cash');
      const entry = expectStatus(
        await admin.post('/journal', {
          date: '2025-02-01',
          memo: `${w.marker} float`,
          lines: [
            { account_id: account.id, debit: 10 },
            { account_id: cash?.id, credit: 10 },
          ],
        }),
        201,
      ).json<{ id: number }>();
      // a user of the company to reset and sign out (not one of the signed-in clients)
      const spare = await buildUser(t.database, {
        company_id: w.id,
        roles: ['viewer'],
        first_name: w.marker,
      });
      const [session] = await t.database.query<{ id: string }>(
        'SELECT ref AS id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
        [w.users.viewer.id],
      );
      return {
        ...w.records,
        imports: preview.id,
        'statement-lines': Number(line?.id),
        statements: uploaded.id,
        charges: charge.id,
        'ledger-accounts': account.id,
        journal: entry.id,
        'message-templates': template.id,
        messages: message.id,
        announcements: announcement.id,
        users: spare.id,
        companies: w.id,
        companies_single: w.id,
        session: Number(session?.id),
      };
    };

    beforeAll(async () => {
      t = await setupApp();
      A = await buildWorld(t, 'Alphaiso');
      B = await buildWorld(t, 'Bravoiso');
      idsA = await extras(A);
      idsB = await extras(B);
      const doc = (await t.app.inject({ method: 'GET', url: '/rentapi/docs/json' })).json<Doc>();
      ops = Object.entries(doc.paths).flatMap(([p, methods]) =>
        Object.entries(methods).map(([method, op]) => {
          const access = WHO.find(([re]) => re.test(op.description ?? ''))?.[1];
          if (!access) throw new Error(`${method} ${p}: no declared access in its description`);
          return {
            method: method.toUpperCase(),
            // a payment provider is named, not numbered (issue 29): the company's own settings, as /company-settings
            path: p.replace('/rentapi/api', '').replace('{provider}', 'mpesa'),
            access,
            // an input the request must carry: a body, or a required query parameter
            body: !!op.requestBody || !!op.parameters?.some((q) => q.in === 'query' && q.required),
          };
        }),
      );
    }, 240_000);
    afterAll(async () => {
      await t?.app.close();
    });

    /** The first segment of a path names the record its ids are of; sessions are the caller's own. */
    const fill = (p: string, ids: Ids | 'none'): string => {
      const segment = segmentOf(p);
      const kind = p.startsWith('/auth/sessions/') ? 'session' : segment;
      return p.replace(/\{[a-zA-Z_]+\}/g, () => {
        if (ids === 'none') return String(NO_SUCH_ID);
        const id = ids[kind];
        if (id === undefined || Number.isNaN(id))
          throw new Error(`${p}: no record of ${kind} to fill it with`);
        return String(id);
      });
    };
    const call = (c: TestClient, method: string, url: string) =>
      c.request(method as 'GET', url, method === 'GET' || method === 'DELETE' ? undefined : {});
    const staffOps = () =>
      ops.filter(
        (o) =>
          o.access !== 'public' &&
          o.access !== 'tenant' &&
          o.access !== 'owner' &&
          !SKIPPED.has(`${o.method} ${o.path}`),
      ) as (Op & { access: keyof typeof LETS_IN })[];
    /**
     * A refusal by role: 403. The guard authorizes after validation (a malformed request is a 400 for
     * everyone), so a route that needs a body or a query, sent none, may answer its 400 first.
     */
    const refused = (o: Op, res: { statusCode: number; body: string }) =>
      res.statusCode === 403 ||
      (o.body && res.statusCode === 400 && res.body.includes('"validation_failed"'));
    const readAll = async (c: TestClient, gets: string[]) =>
      Promise.all(gets.map(async (url) => `${url} ${(await c.get(url)).statusCode}`));

    it('gives each role of each company exactly its declared access, and company B nothing of company A', async () => {
      const staff = staffOps();
      expect(staff.length).toBeGreaterThan(150);
      // every path's ids can be filled (a new route whose records this test cannot name fails here)
      for (const o of staff) fill(o.path, idsA);

      const problems: string[] = [];
      let cells = 0;
      let byRole = 0;
      // company A's own records, read by its admin: the ids are real
      const getsWithIds = staff
        .filter((o) => o.method === 'GET' && o.path.includes('{'))
        .map((o) => fill(o.path, idsA));
      const before = await readAll(A.clients.admin, getsWithIds);
      const readable = before.filter((s) => / 2\d\d$/.test(s)).map((s) => s.split(' ')[0] ?? '');
      expect(readable.length).toBeGreaterThan(getsWithIds.length * 0.8);

      // 1. company B, every role, on company A's ids: never a 2xx; a 404 where the role may call the route
      for (const o of staff.filter((x) => x.path.includes('{'))) {
        const url = fill(o.path, idsA);
        for (const role of ROLES.filter((r) => !seesAcross(r, o.path))) {
          cells += 1;
          const res = await call(B.clients[role], o.method, url);
          const allowed = LETS_IN[o.access].includes(role);
          const ok = !allowed
            ? refused(o, res)
            : o.method === 'GET' || o.method === 'DELETE'
              ? res.statusCode === 404 ||
                (o.method === 'GET' &&
                  !readable.includes(url) &&
                  res.statusCode < 500 &&
                  res.statusCode >= 400)
              : res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 401;
          if (!ok) problems.push(`B ${role} ${o.method} ${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
          if (res.statusCode < 300 && res.body.includes(A.marker))
            problems.push(`B ${role} ${o.method} ${url}: shows ${A.marker}`);
        }
      }
      // 2. company B's lists and reads without ids: never A's records
      for (const o of staff.filter((x) => x.method === 'GET' && !x.path.includes('{'))) {
        for (const role of LETS_IN[o.access].filter((r) => !seesAcross(r, o.path))) {
          cells += 1;
          const res = await B.clients[role].get(o.path);
          if (res.statusCode >= 500) problems.push(`B ${role} GET ${o.path}: ${res.statusCode}`);
          if (res.body.includes(A.marker)) problems.push(`B ${role} GET ${o.path}: shows ${A.marker}`);
        }
      }
      // nothing of A's changed: every record still reads as it did
      expect(await readAll(A.clients.admin, getsWithIds)).toEqual(before);

      // 3. company A, every role: 403 exactly where the declared access does not let it in. Calls it may
      // make go to ids that do not exist (or send an empty body), so that they change nothing.
      for (const o of staff) {
        for (const role of ROLES) {
          cells += 1;
          const allowed = LETS_IN[o.access].includes(role);
          const own = o.method === 'GET' ? fill(o.path, idsA) : fill(o.path, 'none');
          const res = await call(A.clients[role], o.method, allowed ? own : fill(o.path, idsA));
          const ok = allowed
            ? res.statusCode < 500 && res.statusCode !== 401 && res.statusCode !== 403
            : refused(o, res);
          if (!allowed && res.statusCode === 403) byRole += 1;
          if (!ok)
            problems.push(`A ${role} ${o.method} ${o.path}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
      expect(await readAll(A.clients.admin, getsWithIds)).toEqual(before);
      expect(problems).toEqual([]);
      console.info(
        `[reliability] isolation over the OpenAPI document: ${staff.length} staff operations, ${readable.length} reads by id, ${cells} cells, ${byRole} refused by role with 403 (${testDriver})`,
      );
    });

    it('keeps company B’s own records reachable to B (the ids are not refused for every company)', async () => {
      const res = await B.clients.admin.get(`/imports/${idsB.imports}`);
      expect(res.statusCode).toBe(200);
      expect((await A.clients.admin.get(`/imports/${idsB.imports}`)).statusCode).toBe(404);
    });
  },
);
