import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityList, type Access } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import {
  COMPANY_OWNED,
  ROLES,
  buildWorld,
  created,
  editOf,
  entityNamed,
  nextN,
  recordId,
  validBody,
  validPayment,
  type Body,
  type CompanyWorld,
  type Role,
} from './world.ts';
import { VERBS, isolationMatrix, xlsxRows } from './matrix.ts';
import { pdfText } from '../test/pdf-text.ts';

/**
 * The permission tables of the spec, written out by hand (01-core §6 for units, tenants, occupancy and
 * payments; 02-admin §6 for the rest; product-decisions for companies, countries and currencies): the
 * spec's entities, checked against their definitions (the matrix then checks the routes against these).
 */
const SPEC_ACCESS: Record<string, Record<'read' | 'create' | 'update' | 'delete', Access>> = {
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

describe(
  `isolation and roles: every entity × 6 verbs × 4 roles × 2 companies (${testDriver})`,
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

    it("gives every entity of the spec the spec's permission table in its definition", () => {
      for (const [entity, access] of Object.entries(SPEC_ACCESS))
        expect({ entity, ...entityNamed(entity).access }).toEqual({ entity, ...access });
    });

    it('answers every entity × verb × role × company exactly as the definitions say, never with the other company', async () => {
      const { problems, cells } = await isolationMatrix(A, B, entityList);
      console.info(`[reliability] isolation matrix (${testDriver}): ${cells} cells checked`);
      expect(problems).toEqual([]);
      expect(cells).toBe(entityList.length * VERBS.length * ROLES.length * 2);
    });

    it('never shows the other company in reports, the dashboard, receipts, PDF exports, searches or guessed ids', async () => {
      const month = new Date().toISOString().slice(0, 7);
      const secret = ['777777', '777778', '888888', '666666', B.marker];
      const shows = (text: string) => secret.filter((s) => text.includes(s));
      // sanity: B sees its own money (this month: the completed payment alone), so the probe below can see a leak
      const bReport = await B.clients.viewer.get(`/income-statement?from=${month}&to=${month}`);
      expect((bReport.json() as { rental_income: number }[])[0]?.rental_income).toBe(777_777);
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
      const receipt = await A.clients.viewer.get(`/payments/${recordId(A, 'payments')}/receipt.pdf`);
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
