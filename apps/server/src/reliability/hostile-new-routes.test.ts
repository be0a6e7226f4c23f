import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../modules/companies/payment-webhook.ts';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { PNG_1PX } from '../test/entities.ts';
import { expectStatus, lateFee, setSettings } from '../test/rent-cycle.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../test/portal.ts';
import { multipartBody } from '../features/imports/import-test-kit.ts';
import { errorShapeProblem } from './world.ts';
import { isReceivedWhen } from '@kodi/domain';
import { WEBHOOK_VALUES, hostileBody, hostileRuns, hostileString } from './hostile.ts';

/**
 * Bad input on the routes of issues 15–19 (issue 20): import files, statements, the payment webhook,
 * the tenant portal, the company settings and the message templates. Whatever is sent: no 5xx, an
 * error is `{ error, code }`, and a refused request saves no row (the tables' counts before and after).
 */

const { runs: RUNS, scale: SCALE } = hostileRuns(
  { imports: 60, statements: 50, webhook: 150, portal: 25, portalAuth: 25, settings: 120, templates: 80 },
  20261127,
);
const TIMEOUT = 120_000 * SCALE;
const ALLOWED = [200, 201, 204, 400, 401, 403, 404, 409, 413, 415, 422, 429];

/** The tables a request of these routes may write. */
const TABLES = [
  'imports',
  'import_rows',
  'statements',
  'statement_lines',
  'statement_line_payments',
  'payments',
  'properties',
  'units',
  'tenants',
  'occupancy',
  'vendors',
  'expenses',
  'employees',
  'commission_wages',
  'charges',
  'maintenance_requests',
  'maintenance_request_photos',
  'message_templates',
  'messages',
  'company_settings',
] as const;
type Counts = Record<(typeof TABLES)[number], number>;

const samples = path.join(import.meta.dirname, '../features/collections/samples');

/** Cells no import should take as anything but text: formulas, DDE, huge, control characters. */
const HOSTILE_CELLS = [
  "=cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example","click")',
  '+SUM(1+1)',
  '-2+3',
  '@SUM(A1)',
  '=1+1',
  '"unterminated',
  'a"b"c',
  '\u0000',
  '\r\n',
  '\uFEFF',
  'x'.repeat(200_000),
  '1e309',
  'NaN',
  '-0',
  '2026-02-30',
  '31/12/2026',
  '99999999999999999999',
  '<script>alert(1)</script>',
];
const cell = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_CELLS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

/** A file: random bytes, a broken CSV, a CSV whose header is right and whose cells are hostile, an xlsx-looking zip. */
const hostileFile = (headers: readonly string[]) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.from(b)) },
    {
      weight: 3,
      arbitrary: fc
        .record({
          header: fc.oneof(fc.constant([...headers]), fc.array(cell, { maxLength: 6 })),
          rows: fc.array(fc.array(cell, { maxLength: 8 }), { maxLength: 6 }),
          sep: fc.constantFrom(',', ';', '\t', '|', ''),
          eol: fc.constantFrom('\n', '\r\n', '\r', ''),
        })
        .map(({ header, rows, sep, eol }) =>
          Buffer.from([header, ...rows].map((r) => r.join(sep)).join(eol), 'utf8'),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        Buffer.from('PK\u0003\u0004 not really a zip'),
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(''),
        Buffer.from('\u0000'.repeat(5000)),
        Buffer.from(`${headers.join(',')}\n${'"'.repeat(10_000)}`),
        Buffer.from(`${headers.join(',')}\n`.repeat(3)),
      ),
    },
  );
const fileName = fc.constantFrom(
  'x.csv',
  'x.xlsx',
  'x.txt',
  'x',
  '../../etc/passwd',
  'a'.repeat(300),
  'x.CSV',
);
const field = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom('{}', '[]', 'null', '{"a":"b"}', '{"__proto__":{"x":1}}') },
);
/** Mostly a known value (so that the file itself is judged), sometimes anything. */
const mostly = (...known: string[]) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: hostileString });

describe(`bad input on the new routes: imports, statements, webhook, portal, settings, templates (${testDriver})`, () => {
  let t: TestContext;
  let staff: TestClient;
  let tenant: TestClient;
  let world: Awaited<ReturnType<typeof tenantWithLease>>;
  let webhook: { key: string; secret: string };
  let templateId: number;
  let requests = 0;
  const figures: Record<string, { tried: number; accepted: number }> = {};

  const counts = async (): Promise<Counts> => {
    const rows = await t.database.query<Record<string, string>>(
      `SELECT ${TABLES.map((name) => `(SELECT count(*) FROM ${name}) AS ${name}`).join(', ')}`,
    );
    return Object.fromEntries(TABLES.map((name) => [name, Number(rows[0]?.[name])])) as Counts;
  };
  /** The answer is one a client can live with: no 5xx, and errors in the `{ error, code }` shape. */
  const judge = (where: string, res: LightMyRequestResponse) => {
    requests += 1;
    expect(ALLOWED, `${where}: ${res.statusCode} ${res.body.slice(0, 300)}`).toContain(res.statusCode);
    if (res.statusCode >= 400)
      expect(errorShapeProblem(res), `${where}: ${res.body.slice(0, 200)}`).toBeUndefined();
  };
  const tally = (name: string, res: LightMyRequestResponse) => {
    const f = (figures[name] ??= { tried: 0, accepted: 0 });
    f.tried += 1;
    if (res.statusCode < 300) f.accepted += 1;
  };
  const diff = (a: Counts, b: Counts) =>
    TABLES.filter((k) => a[k] !== b[k]).map((k) => `${k} ${a[k]}→${b[k]}`);

  beforeAll(async () => {
    t = await setupApp();
    const company = await portalCompany(t, 'Hostile Homes');
    staff = company.staff;
    world = await tenantWithLease(staff);
    tenant = await portalTenant(t, staff, world.tenantId);
    await setSettings(staff, { auto_post_matches: true, late_fee: lateFee() });
    const made = expectStatus(await staff.post('/company-settings/webhook-secret'), 200).json<{
      url: string;
      secret: string;
    }>();
    webhook = { key: made.url.split('/').pop() ?? '', secret: made.secret };
    templateId = expectStatus(
      await staff.post('/message-templates', {
        name: 'Hostile base',
        channel: 'sms',
        kind: 'due',
        body: 'Hi {{tenant_first_name}}, rent is due.',
      }),
      201,
    ).json<{ id: number }>().id;
  }, 120_000);
  afterAll(async () => {
    console.info(
      `[reliability] hostile input on the new routes: ${requests} requests; ${Object.entries(figures)
        .map(([k, f]) => `${k} ${f.tried} (${f.accepted} accepted)`)
        .join(', ')} (${testDriver})`,
    );
    await t?.app.close();
  });

  it(
    'import files: random bytes, broken CSV, huge cells and formulas never give a 5xx; a refused one saves nothing',
    { timeout: TIMEOUT },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            entity: mostly('tenants', 'units', 'payments', 'expenses'),
            file: fc.option(hostileFile(['first_name', 'last_name', 'phone', 'email']), {
              nil: undefined,
              freq: 8,
            }),
            name: fileName,
            mapping: field,
            date_format: field,
            commit: fc.boolean(),
          }),
          async (input) => {
            const fields: Record<string, string> = { entity: input.entity };
            if (input.mapping !== undefined) fields.mapping = input.mapping;
            if (input.date_format !== undefined) fields.date_format = input.date_format;
            const { body, contentType } = multipartBody(
              fields,
              input.file ? { name: input.name, content: input.file } : undefined,
            );
            const before = await counts();
            const res = await staff.post('/imports', body, { 'content-type': contentType });
            judge('POST /imports', res);
            tally('import uploads', res);
            const after = await counts();
            // a preview saves the import and its rows, nothing else
            const expected = { ...before };
            if (res.statusCode === 201) {
              expected.imports += 1;
              expected.import_rows = after.import_rows;
            }
            expect(diff(expected, after)).toEqual([]);
            if (res.statusCode !== 201 || !input.commit) return;
            const { id } = res.json<{ id: number }>();
            const committed = await staff.post(`/imports/${id}/commit`, {});
            judge('POST /imports/{id}/commit', committed);
            tally('import commits', committed);
            const end = await counts();
            if (committed.statusCode === 200) {
              const c = committed.json<{ created: number; entity?: string }>();
              const grown = TABLES.filter((k) => !k.startsWith('import')).reduce(
                (s, k) => s + end[k] - after[k],
                0,
              );
              // what it says it made: rows of the entity (a payment's lease is one row, no more)
              expect(grown).toBeGreaterThanOrEqual(c.created);
            } else {
              expect(diff({ ...after, import_rows: end.import_rows, imports: end.imports }, end)).toEqual([]);
            }
          },
        ),
        { numRuns: RUNS.imports },
      );
    },
  );

  it(
    'statements: random files, sources and mappings never give a 5xx; a refused one saves nothing',
    { timeout: TIMEOUT },
    async () => {
      const momo = fs.readFileSync(path.join(samples, 'mtn_momo.csv'));
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            source: mostly('mtn_momo', 'mtn_momo', 'airtel_money', 'bank', 'custom'),
            file: fc.option(
              fc.oneof(
                hostileFile(['Id', 'Date', 'Status', 'Amount', 'Currency', 'From', 'From Name']),
                // the real sample with a hostile cell put in
                fc
                  .tuple(fc.nat({ max: momo.length }), cell)
                  .map(([at, c]) => Buffer.concat([momo.subarray(0, at), Buffer.from(c), momo.subarray(at)])),
              ),
              { nil: undefined },
            ),
            name: fileName,
            mapping: field,
          }),
          async (input) => {
            const fields: Record<string, string> = { source: input.source };
            if (input.mapping !== undefined) fields.mapping = input.mapping;
            const { body, contentType } = multipartBody(
              fields,
              input.file ? { name: input.name, content: input.file } : undefined,
            );
            const before = await counts();
            const res = await staff.post('/statements', body, { 'content-type': contentType });
            judge('POST /statements', res);
            tally('statements', res);
            if (res.statusCode >= 300) expect(diff(before, await counts())).toEqual([]);
          },
        ),
        { numRuns: RUNS.statements },
      );
    },
  );

  it(
    'the payment webhook: random bodies and signatures never give a 5xx; a refused call saves nothing',
    { timeout: TIMEOUT },
    async () => {
      let n = 0;
      const base = () => ({
        transaction_id: `HOSTILE-${++n}`,
        amount: 1000,
        currency: 'UGX',
        payer_phone: '0772100001',
        payer_name: 'GRACE',
        reference: 'A1',
        paid_at: '2026-02-10T08:30:00Z',
      });
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            body: fc.oneof(
              { weight: 3, arbitrary: hostileBody(Object.keys(base()), base) },
              // a right payment but for one value the webhook once took (issue 23): refused
              {
                weight: 2,
                arbitrary: fc
                  .constantFrom(
                    ...Object.entries(WEBHOOK_VALUES).flatMap(([k, values]) =>
                      values.map((v) => [k, v] as const),
                    ),
                  )
                  .map(([k, v]) => JSON.stringify({ ...base(), [k]: v })),
              },
              // a right payment whose texts are hostile: taken, and its texts kept as text
              {
                weight: 1,
                arbitrary: fc
                  .record({ payer_name: hostileString, reference: hostileString })
                  .map((texts) => JSON.stringify({ ...base(), ...texts })),
              },
            ),
            signature: fc.constantFrom(
              'right',
              'right',
              'right',
              'right',
              'right',
              'wrong-secret',
              'old',
              'none',
              'garbage',
            ),
            garbage: hostileString,
            key: fc.constantFrom('right', 'right', 'right', 'right', 'other', 'short'),
            contentType: fc.constantFrom(
              'application/json',
              'application/json',
              'application/json; charset=utf-8',
              'text/plain',
              'application/x-www-form-urlencoded',
            ),
          }),
          async (input) => {
            const now = Math.floor(Date.now() / 1000);
            const headers: Record<string, string> = { 'content-type': input.contentType };
            if (input.signature === 'right')
              headers['x-kodi-signature'] = signWebhook(webhook.secret, input.body, now);
            if (input.signature === 'wrong-secret')
              headers['x-kodi-signature'] = signWebhook('whsec_wrong', input.body, now);
            if (input.signature === 'old')
              headers['x-kodi-signature'] = signWebhook(webhook.secret, input.body, now - 3600);
            if (input.signature === 'garbage')
              headers['x-kodi-signature'] = input.garbage.replace(/[^\x20-\x7e]/g, '').slice(0, 600);
            const key = input.key === 'right' ? webhook.key : input.key === 'other' ? 'f'.repeat(32) : 'abc';
            const before = await counts();
            const res = await t.app.inject({
              method: 'POST',
              url: `/rentapi/api/webhooks/payments/${key}`,
              headers,
              payload: input.body,
            });
            judge('POST /webhooks/payments', res);
            tally('webhook calls', res);
            const after = await counts();
            if (res.statusCode >= 300) expect(diff(before, after)).toEqual([]);
            else if (!res.json<{ duplicate: boolean }>().duplicate) {
              expect(after.statement_lines).toBe(before.statement_lines + 1);
              // what was kept is a day money can come in on, and reads back
              const line = await staff.get(`/statement-lines/${res.json<{ id: number }>().id}`);
              judge('GET /statement-lines/{id}', line);
              expect(isReceivedWhen(line.json<{ date: string }>().date), line.body).toBe(true);
            }
            // only a right signature of the right company's key can be taken
            if (res.statusCode < 300) expect([input.signature, input.key]).toEqual(['right', 'right']);
          },
        ),
        { numRuns: RUNS.webhook },
      );
      // every page of what was kept still answers
      expect((await staff.get('/statement-lines?page_size=500&sort=date')).statusCode).toBe(200);
    },
  );

  it(
    'the portal: random bodies and queries on every portal route never give a 5xx; a refused one saves nothing',
    { timeout: TIMEOUT },
    async () => {
      type Doc = { paths: Record<string, Record<string, { description?: string }>> };
      const doc = (await t.app.inject({ method: 'GET', url: '/rentapi/docs/json' })).json<Doc>();
      const ops = Object.entries(doc.paths).flatMap(([p, methods]) =>
        Object.entries(methods)
          .filter(() => p.includes('/portal/'))
          .map(([method, op]) => ({
            method: method.toUpperCase(),
            path: p.replace('/rentapi/api', ''),
            public: /^Public:/m.test(op.description ?? ''),
          })),
      );
      expect(ops.length).toBeGreaterThanOrEqual(10);
      const [photo] = await t.database.query<{ id: number }>(
        'SELECT id FROM maintenance_request_photos LIMIT 1',
      );
      for (const op of ops) {
        // signed-in routes as the tenant; sign-in routes as a stranger (who has a CSRF token), never signing the tenant out
        if (/logout|sign-out/.test(op.path)) continue;
        const base = () =>
          op.path.includes('maintenance-requests')
            ? { occupancy_id: world.leaseId, description: 'Leak', photos: [{ data: PNG_1PX }] }
            : {
                email: world.email,
                password: 'tenant-pass-42',
                code: '123456',
                token: 'x',
                phone: world.phone,
              };
        await fc.assert(
          fc.asyncProperty(
            hostileBody(Object.keys(base()), base),
            fc.oneof(
              fc.constant(''),
              hostileString.map((v) => `?${new URLSearchParams({ q: v, page: v }).toString()}`),
            ),
            fc.oneof(
              fc.constant(String(world.leaseId)),
              fc.constantFrom('0', '-1', '2147483648', 'abc', '1e3', '%00'),
            ),
            async (body, query, id) => {
              const url =
                op.path.replace('{photoId}', String(photo?.id ?? 1)).replace(/\{[a-zA-Z_]+\}/g, id) +
                (op.method === 'GET' ? query : '');
              const client = op.public ? new TestClient(t.app) : tenant;
              if (op.public) await client.get('/auth/csrf-token');
              const before = await counts();
              const res =
                op.method === 'GET' || op.method === 'DELETE'
                  ? await client.request(op.method as 'GET', url)
                  : await client.request(op.method as 'POST', url, body, {
                      'content-type': 'application/json',
                    });
              judge(`${op.method} ${op.path}`, res);
              tally('portal', res);
              const after = await counts();
              // a sign-in code or an invitation is a message the server may queue, refused or not
              if (res.statusCode >= 300)
                expect(diff({ ...before, messages: after.messages }, after)).toEqual([]);
            },
          ),
          { numRuns: op.public ? RUNS.portalAuth : RUNS.portal },
        );
      }
      // the tenant is still signed in
      expectStatus(await tenant.get('/portal/me'), 200);
    },
  );

  it(
    'company settings (late fee, reminders, require_mfa, auto_post_matches, …): never a 5xx; a refused change changes nothing',
    { timeout: TIMEOUT },
    async () => {
      const read = async () =>
        expectStatus(await staff.get('/company-settings'), 200).json<Record<string, unknown>>();
      const base = () => ({
        timezone: 'Africa/Kampala',
        daily_run_hour: 6,
        late_fee: lateFee(),
        reminders: [
          { event: 'before_due', days: 3, channels: ['sms'], template_id: templateId },
          { event: 'due', days: 0, channels: ['email', 'sms'] },
        ],
        receipt_notification: { email: true, sms: false },
        sms_sender_id: 'KODI',
        auto_post_matches: true,
        require_mfa: false,
        version: 0,
      });
      await fc.assert(
        fc.asyncProperty(
          hostileBody(Object.keys(base()), base),
          fc.constantFrom(true, true, true, false),
          async (raw, rightVersion) => {
            const was = await read();
            // most bodies carry the version just read, so that their contents are judged
            const text = rightVersion
              ? raw.replace(/"version":0\b/, `"version":${Number(was.version)}`)
              : raw;
            const before = await counts();
            const res = await staff.request('PUT', '/company-settings', text, {
              'content-type': 'application/json',
            });
            judge('PUT /company-settings', res);
            tally('settings', res);
            const now = await read();
            if (res.statusCode >= 300) {
              expect(now).toEqual(was);
              expect(diff(before, await counts())).toEqual([]);
            } else {
              expect(now.version).toBe(Number(was.version) + 1);
              // a second factor required of everyone would lock this admin out of the next runs
              if (now.require_mfa === true)
                await t.database.query('UPDATE company_settings SET require_mfa = false');
            }
          },
        ),
        { numRuns: RUNS.settings },
      );
    },
  );

  it(
    'message templates: create, change and preview with random bodies never give a 5xx; a refused one saves nothing',
    { timeout: TIMEOUT },
    async () => {
      // the version first: a create sends the same body without it
      const base = () => ({
        version: 1,
        name: 'Reminder',
        channel: 'email',
        kind: 'overdue',
        subject: 'Rent {{tenant_first_name}}',
        body: 'Dear {{tenant_first_name}}, you owe {{balance}}.',
      });
      await fc.assert(
        fc.asyncProperty(
          hostileBody(Object.keys(base()), base),
          fc.constantFrom('create', 'update', 'preview'),
          async (raw, what) => {
            const current = expectStatus(await staff.get(`/message-templates/${templateId}`), 200).json<
              Record<string, unknown>
            >();
            const before = await counts();
            const res =
              what === 'create'
                ? await staff.request('POST', '/message-templates', raw.replace(/"version":1,?/, ''), {
                    'content-type': 'application/json',
                  })
                : what === 'update'
                  ? await staff.request(
                      'PUT',
                      `/message-templates/${templateId}`,
                      raw.replace(/"version":1\b/, `"version":${Number(current.version)}`),
                      { 'content-type': 'application/json' },
                    )
                  : await staff.request('POST', `/message-templates/${templateId}/preview`, raw, {
                      'content-type': 'application/json',
                    });
            judge(`${what} message template`, res);
            tally('templates', res);
            const after = await counts();
            if (res.statusCode >= 300 || what === 'preview') {
              expect(diff(before, after)).toEqual([]);
              if (what === 'update')
                expect(expectStatus(await staff.get(`/message-templates/${templateId}`), 200).json()).toEqual(
                  current,
                );
            } else if (what === 'create') expect(after.message_templates).toBe(before.message_templates + 1);
          },
        ),
        { numRuns: RUNS.templates },
      );
    },
  );
});
