import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allows, entities, type Access, type EntityName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import type { TestClient } from '../test/client.ts';
import {
  COMPANY_OWNED,
  ENTITY_NAMES,
  ROLES,
  buildWorld,
  created,
  editOf,
  errorShapeProblem,
  nextN,
  validBody,
  validPayment,
  type Body,
  type CompanyWorld,
  type Role,
} from './world.ts';
import { pdfText } from '../test/pdf-text.ts';

type Verb = 'list' | 'get' | 'create' | 'update' | 'delete' | 'export';
type Side = 'own' | 'other';
const VERBS: Verb[] = ['list', 'get', 'create', 'update', 'delete', 'export'];
const SIDES: Side[] = ['own', 'other'];

/**
 * The permission tables of the spec, written out by hand (01-core §6 for units, tenants, occupancy and
 * payments; 02-admin §6 for the rest; product-decisions for companies, countries and currencies).
 */
const SPEC_ACCESS: Record<EntityName, Record<'read' | 'create' | 'update' | 'delete', Access>> = {
  // 01-core §6: details and export for every user; canEdit adds and edits; delete is admin only.
  units: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  tenants: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  occupancy: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  payments: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  // 02-admin §6: canEdit adds, and edits maintenance requests; isAdmin edits and deletes the rest.
  maintenance_requests: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  expenses: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  vendors: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  employees: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  commission_wages: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  countries: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  currencies: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  // product-decisions: companies are created by canEdit, changed and deleted by admins only.
  companies: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
};

const accessOf = (entity: EntityName, verb: Verb): Access => {
  const a = entities[entity].access;
  return verb === 'list' || verb === 'get' || verb === 'export' ? a.read : a[verb];
};

const hasReferences = (entity: EntityName) =>
  entities[entity].scope === 'company' && entities[entity].fields.some((f) => f.kind === 'reference');

const filterOf = (companyId: number) =>
  encodeURIComponent(JSON.stringify({ field: 'company_id', value: companyId }));

const xlsxRows = async (payload: Buffer): Promise<string[][]> => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0]?.eachRow((row) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    rows.push(values.map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return rows;
};

describe(
  `isolation and roles: 12 entities × 6 verbs × 4 roles × 2 companies (${testDriver})`,
  { timeout: 120_000 },
  () => {
    let t: TestContext;
    let A: CompanyWorld;
    let B: CompanyWorld;

    beforeAll(async () => {
      t = await setupApp();
      A = await buildWorld(t, 'Alpha');
      B = await buildWorld(t, 'Bravo');
      // Money of B that A's reports and dashboard must never show.
      const today = new Date().toISOString().slice(0, 10);
      await created(B.clients.admin, '/payments', validPayment(B.refs, { amount_paid: 777_777 }));
      await created(
        B.clients.admin,
        '/payments',
        validPayment(B.refs, { amount_paid: 777_778, status: 'pending' }),
      );
      await created(B.clients.admin, '/expenses', {
        ...validBody('expenses', B.refs, 'Bravo'),
        amount: 888_888,
        expense_date: today,
      });
      await created(B.clients.admin, '/commission_wages', {
        ...validBody('commission_wages', B.refs, 'Bravo'),
        amount: 666_666,
        payment_date: today,
      });
    }, 120_000);
    afterAll(async () => {
      await t?.app.close();
    });

    it("gives every entity the spec's permission table in its definition", () => {
      expect(ENTITY_NAMES).toHaveLength(12);
      for (const entity of ENTITY_NAMES)
        expect({ entity, ...entities[entity].access }).toEqual({ entity, ...SPEC_ACCESS[entity] });
    });

    it('answers every entity × verb × role × company exactly as the definitions say, never with the other company', async () => {
      const problems: string[] = [];
      let cells = 0;
      const ownerOf = (side: Side) => (side === 'own' ? A : B);
      /** What the owner's admin reads of a record (404 once it is gone). */
      const ownerRead = (side: Side, entity: EntityName, id: number) =>
        ownerOf(side).clients.admin.get(`/${entity}/${id}`);
      const fresh = async (side: Side, entity: EntityName) => {
        const owner = ownerOf(side);
        return Number(
          (await created(owner.clients.admin, `/${entity}`, validBody(entity, owner.refs, owner.marker))).id,
        );
      };

      for (const entity of ENTITY_NAMES) {
        const def = entities[entity];
        const scoped = def.scope === 'company';
        for (const role of ROLES) {
          const me: TestClient = A.clients[role];
          for (const side of SIDES) {
            for (const verb of VERBS) {
              cells++;
              const cell = `${entity} ${verb} ${role} ${side}`;
              const fail = (detail: string) => problems.push(`${cell}: ${detail}`);
              const allowed = allows(accessOf(entity, verb), { roles: [role] });
              const visible = side === 'own' || (!scoped && (entity !== 'companies' || role === 'admin'));
              const expectStatus = (status: number, expected: number, body: string) => {
                if (status !== expected)
                  fail(`status ${status}, expected ${expected}: ${body.slice(0, 200)}`);
                return status === expected;
              };
              const leaks = (text: string) => scoped && text.includes(B.marker);

              if (verb === 'list') {
                const url = `/${entity}?page_size=500${side === 'other' ? `&filter=${filterOf(B.id)}` : ''}`;
                const res = await me.get(url);
                if (!expectStatus(res.statusCode, allowed ? 200 : 403, res.body) || !allowed) continue;
                const rows = res.json() as Body[];
                const ids = rows.map((r) => Number(r.id));
                if (leaks(res.body)) fail('the list shows the other company');
                if (scoped) {
                  if (rows.some((r) => r.company_id !== A.id)) fail('a row of another company');
                  if (ids.includes(B.records[entity])) fail("the other company's record is listed");
                  if (side === 'own' && !ids.includes(A.records[entity])) fail('its own record is missing');
                  if (side === 'other' && (rows.length !== 0 || res.headers['x-total-count'] !== '0'))
                    fail(`the company_id filter widened the scope: ${rows.length} rows`);
                } else if (entity === 'companies') {
                  const expected = role === 'admin' ? [A.id, B.id] : [A.id];
                  if (role !== 'admin' && ids.length !== 1) fail(`a non-admin sees ${ids.length} companies`);
                  for (const id of expected) if (!ids.includes(id)) fail(`company ${id} is missing`);
                } else {
                  for (const id of [A.records[entity], B.records[entity]])
                    if (!ids.includes(id)) fail(`global record ${id} is missing`);
                }
              } else if (verb === 'get') {
                const id = ownerOf(side).records[entity];
                const res = await me.get(`/${entity}/${id}`);
                const expected = !allowed ? 403 : visible ? 200 : 404;
                if (!expectStatus(res.statusCode, expected, res.body)) continue;
                if (expected === 200 && scoped && res.json().company_id !== A.id) fail('wrong company_id');
                if (expected !== 200 && errorShapeProblem(res))
                  fail(`error shape: ${errorShapeProblem(res)}`);
                if (expected !== 200 && res.body.includes(B.marker))
                  fail('the error shows the other company');
              } else if (verb === 'create') {
                // "other": the body names the other company and, where it has references, the other company's records.
                const refs = side === 'other' && hasReferences(entity) ? B.refs : A.refs;
                const body = {
                  ...validBody(entity, refs, A.marker),
                  ...(side === 'other' ? { company_id: B.id } : {}),
                };
                const res = await me.post(`/${entity}`, body);
                const expected = !allowed ? 403 : side === 'other' && hasReferences(entity) ? 400 : 201;
                if (!expectStatus(res.statusCode, expected, res.body)) continue;
                if (expected === 201 && scoped && res.json().company_id !== A.id)
                  fail(`stored in company ${String(res.json().company_id)}`);
                if (expected === 400 && res.json().code !== 'validation_failed') fail(res.body);
              } else if (verb === 'update') {
                const id = ownerOf(side).records[entity];
                const before = (await ownerRead(side, entity, id)).json() as Body;
                const res = await me.put(`/${entity}/${id}`, { ...before, ...editOf(entity, nextN()) });
                const expected = !allowed ? 403 : visible ? 200 : 404;
                if (!expectStatus(res.statusCode, expected, res.body)) continue;
                const after = (await ownerRead(side, entity, id)).json() as Body;
                if (expected === 200 && after.version !== Number(before.version) + 1) fail('not stored');
                if (expected !== 200 && JSON.stringify(after) !== JSON.stringify(before))
                  fail('changed anyway');
              } else if (verb === 'delete') {
                const id = await fresh(side, entity);
                const res = await me.delete(`/${entity}/${id}`);
                const expected = !allowed ? 403 : visible ? 204 : 404;
                if (!expectStatus(res.statusCode, expected, res.body)) continue;
                const still = (await ownerRead(side, entity, id)).statusCode;
                if (still !== (expected === 204 ? 404 : 200)) fail(`afterwards the owner reads ${still}`);
              } else {
                const filter = side === 'other' ? `&filter=${filterOf(B.id)}` : '';
                const list = await me.get(`/${entity}?page_size=1${filter}`);
                const res = await me.get(`/${entity}/export?fmt=xlsx${filter}`);
                if (!expectStatus(res.statusCode, allowed ? 200 : 403, res.body) || !allowed) continue;
                const rows = await xlsxRows(res.rawPayload);
                const dataRows = rows.length - 1;
                if (leaks(rows.flat().join('\n'))) fail('the export shows the other company');
                if (dataRows !== Number(list.headers['x-total-count']))
                  fail(`${dataRows} rows exported, the list counts ${String(list.headers['x-total-count'])}`);
                if (scoped && side === 'other' && dataRows !== 0)
                  fail(`${dataRows} rows with the other company's filter`);
              }
            }
          }
        }
      }
      console.info(`[reliability] isolation matrix (${testDriver}): ${cells} cells checked`);
      expect(problems).toEqual([]);
      expect(cells).toBe(12 * 6 * 4 * 2);
    });

    it('never shows the other company in reports, the dashboard, receipts, PDF exports, searches or guessed ids', async () => {
      const month = new Date().toISOString().slice(0, 7);
      const secret = ['777777', '777778', '888888', '666666', B.marker];
      const shows = (text: string) => secret.filter((s) => text.includes(s));
      // sanity: B sees its own money, so the probe below can see a leak
      const bReport = await B.clients.viewer.get(`/income-statement?from=${month}&to=${month}`);
      expect((bReport.json() as { rental_income: number }[])[0]?.rental_income).toBeGreaterThan(777_777);
      expect(bReport.body).toContain('888888');
      expect((await B.clients.viewer.get('/dashboard')).body).toContain(B.marker);

      for (const role of ROLES) {
        const me = A.clients[role];
        for (const url of [
          `/income-statement?from=${month}&to=${month}`,
          `/cash-flow?from=${month}&to=${month}`,
          '/dashboard',
        ]) {
          const res = await me.get(url);
          expect(res.statusCode, `${role} ${url}`).toBe(200);
          expect(shows(res.body), `${role} ${url}`).toEqual([]);
        }
        const income = (await me.get(`/income-statement?from=${month}&to=${month}`)).json() as {
          rental_income: number;
        }[];
        const own = await t.database.query<{ s: string }>(
          `SELECT COALESCE(sum(amount_paid), 0)::text AS s FROM payments
          WHERE company_id = $1 AND status = 'completed' AND to_char(payment_date, 'YYYY-MM') = $2`,
          [A.id, month],
        );
        expect(income[0]?.rental_income).toBe(Number(own[0]?.s));
        for (const fmt of ['xlsx', 'pdf']) {
          const exp = await me.get(`/cash-flow/export?fmt=${fmt}&from=${month}&to=${month}`);
          expect(exp.statusCode).toBe(200);
          const text =
            fmt === 'pdf' ? pdfText(exp.rawPayload) : (await xlsxRows(exp.rawPayload)).flat().join(' ');
          expect(shows(text.replace(/[,\s]/g, '')), `${role} cash-flow ${fmt}`).toEqual([]);
        }
      }

      // A PDF export of every company-owned list, and a search for the other company's marker.
      for (const entity of COMPANY_OWNED) {
        const pdf = await A.clients.viewer.get(`/${entity}/export?fmt=pdf`);
        expect(pdf.statusCode).toBe(200);
        expect(pdfText(pdf.rawPayload)).not.toContain(B.marker);
        const search = await A.clients.viewer.get(`/${entity}?q=${B.marker}`);
        expect(search.statusCode).toBe(200);
        expect(search.body).not.toContain(B.marker);
      }

      // A receipt of its own, with its own names only.
      const receipt = await A.clients.viewer.get(`/payments/${A.records.payments}/receipt.pdf`);
      expect(receipt.statusCode).toBe(200);
      const receiptText = pdfText(receipt.rawPayload);
      expect(receiptText).toContain(A.marker);
      expect(receiptText).not.toContain(B.marker);

      // Ids guessed in sequence: every id of every table, then each of the other company's ids, every route.
      let guessed = 0;
      const fingerprint = async () =>
        JSON.stringify(
          await Promise.all(
            COMPANY_OWNED.map((e) =>
              t.database.query(
                `SELECT count(*)::int AS n, COALESCE(sum(version), 0)::int AS v FROM ${e} WHERE company_id = $1`,
                [B.id],
              ),
            ),
          ),
        );
      const before = await fingerprint();
      for (const entity of COMPANY_OWNED) {
        const max = Number(
          (await t.database.query<{ m: number }>(`SELECT COALESCE(max(id), 0)::int AS m FROM ${entity}`))[0]
            ?.m,
        );
        const theirs = (
          await t.database.query<{ id: number }>(
            `SELECT id FROM ${entity} WHERE company_id = $1 ORDER BY id`,
            [B.id],
          )
        ).map((r) => Number(r.id));
        expect(theirs.length).toBeGreaterThan(0);
        for (let id = 1; id <= max + 2; id++) {
          const res = await A.clients.viewer.get(`/${entity}/${id}`);
          guessed++;
          if (res.statusCode === 200) expect(res.json().company_id, `${entity} ${id}`).toBe(A.id);
          else expect(res.statusCode, `${entity} ${id}`).toBe(404);
        }
        const admin = A.clients.admin;
        for (const id of theirs) {
          const theirRecord = (await B.clients.admin.get(`/${entity}/${id}`)).json() as Body;
          const answers = [
            await admin.get(`/${entity}/${id}`),
            await admin.put(`/${entity}/${id}`, { ...theirRecord, ...editOf(entity, nextN()) }),
            await admin.delete(`/${entity}/${id}`),
            await admin.get(`/${entity}/${id}/history`),
            await A.clients.editor.put(`/${entity}/${id}`, { ...theirRecord, ...editOf(entity, nextN()) }),
            ...(entity === 'payments' ? [await admin.get(`/payments/${id}/receipt.pdf`)] : []),
            ...(entity === 'occupancy' ? [await admin.get(`/occupancy/${id}/lease_doc`)] : []),
          ];
          guessed += answers.length;
          for (const res of answers) {
            // 404 whoever asks; an editor without the update right is refused before the lookup (403)
            expect([403, 404], `${entity} ${id}: ${res.body}`).toContain(res.statusCode);
            expect(res.body).not.toContain(B.marker);
          }
          expect(answers[0]?.statusCode).toBe(404);
          expect(answers[1]?.statusCode).toBe(404);
          expect(answers[2]?.statusCode).toBe(404);
        }
      }
      // companies: a non-admin reads only their own, whatever id they try
      const companyMax = Number(
        (await t.database.query<{ m: number }>('SELECT max(id)::int AS m FROM companies'))[0]?.m,
      );
      for (let id = 1; id <= companyMax + 1; id++) {
        for (const role of ['company_admin', 'editor', 'viewer'] as Role[]) {
          const res = await A.clients[role].get(`/companies/${id}`);
          const single = await A.clients[role].get(`/companies_single/${id}`);
          guessed += 2;
          expect(res.statusCode, `companies ${id} ${role}`).toBe(id === A.id ? 200 : 404);
          expect(single.statusCode, `companies_single ${id} ${role}`).toBe(id === A.id ? 200 : 404);
        }
      }
      expect(await fingerprint()).toBe(before);
      console.info(
        `[reliability] isolation (${testDriver}): ${guessed} guessed-id requests, none answered another company`,
      );
    });
  },
);
