import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import {
  ENTITY_NAMES,
  buildWorld,
  created,
  editOf,
  nextN,
  referencedRecords,
  validBody,
  type Body,
  type CompanyWorld,
} from './world.ts';

type Entry = { action: string; before: Body | null; after: Body | null; user_email: string; at: string };

describe(
  `history: every create, update and delete leaves an entry in the same transaction (${testDriver})`,
  { timeout: 120_000 },
  () => {
    let t: TestContext;
    let A: CompanyWorld;

    const entriesOf = async (entity: string, id: number) =>
      Number(
        (
          await t.database.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM audit_entries WHERE entity = $1 AND record_id = $2',
            [entity, id],
          )
        )[0]?.n,
      );

    beforeAll(async () => {
      t = await setupApp();
      A = await buildWorld(t, 'Alpha');
    }, 120_000);
    afterAll(async () => {
      await t?.app.close();
    });

    it('shows create, update and delete newest first with before and after, to admins only', async () => {
      const admin = A.clients.admin;
      for (const entity of ENTITY_NAMES) {
        // (a pending payment: deleting a completed one voids it, an update of its own)
        const body = validBody(entity, A.refs, A.marker);
        const record = await created(
          admin,
          `/${entity}`,
          entity === 'payments' ? { ...body, status: 'pending' } : body,
        );
        const id = Number(record.id);
        const edit = editOf(entity, nextN());
        const updated = await admin.put(`/${entity}/${id}`, { ...record, ...edit });
        expect(updated.statusCode, updated.body).toBe(200);
        expect((await admin.delete(`/${entity}/${id}`)).statusCode).toBe(204);

        const res = await admin.get(`/${entity}/${id}/history`);
        expect(res.statusCode, res.body).toBe(200);
        const history = res.json() as Entry[];
        expect(
          history.map((h) => h.action),
          entity,
        ).toEqual(['delete', 'update', 'create']);
        const [deleted, update, create] = history as [Entry, Entry, Entry];
        expect(create.before).toBeNull();
        expect(create.after).toMatchObject({ id, version: 1 });
        const [field, value] = Object.entries(edit)[0] as [string, unknown];
        expect(update.before?.[field], entity).toEqual(record[field]);
        expect(update.after?.[field], entity).toEqual(value);
        expect(update.after?.version).toBe(2);
        expect(deleted.before).toMatchObject({ id, version: 2, [field]: value });
        expect(deleted.after).toBeNull();
        for (const h of history) expect(h.user_email).toBe(A.users.admin.email);
        expect(history.map((h) => h.at)).toEqual([...history.map((h) => h.at)].sort().reverse());

        for (const role of ['company_admin', 'editor', 'viewer'] as const) {
          const denied = await A.clients[role].get(`/${entity}/${id}/history`);
          expect(denied.statusCode, `${entity} ${role}`).toBe(403);
          expect(denied.json().code).toBe('forbidden');
        }
      }
    });

    it('writes no entry for a refused save or delete (409 conflict, 400 invalid, 409 in use)', async () => {
      const admin = A.clients.admin;
      let refused = 0;
      for (const entity of ENTITY_NAMES) {
        // (a pending payment: deleting a completed one voids it, an update of its own)
        const body = validBody(entity, A.refs, A.marker);
        const record = await created(
          admin,
          `/${entity}`,
          entity === 'payments' ? { ...body, status: 'pending' } : body,
        );
        const id = Number(record.id);
        expect(await entriesOf(entity, id)).toBe(1);
        const ok = await admin.put(`/${entity}/${id}`, { ...record, ...editOf(entity, nextN()) });
        expect(ok.statusCode).toBe(200);
        expect(await entriesOf(entity, id)).toBe(2);
        const stale = await admin.put(`/${entity}/${id}`, { ...record, ...editOf(entity, nextN()) });
        expect(stale.statusCode).toBe(409);
        expect(stale.json().code).toBe('conflict');
        const invalid = await admin.put(`/${entity}/${id}`, { ...(ok.json() as Body), version: 'x' });
        expect(invalid.statusCode).toBe(400);
        const unknown = await admin.put(`/${entity}/${id}`, { ...(ok.json() as Body), no_such_field: 1 });
        expect(unknown.statusCode).toBe(400);
        refused += 3;
        expect(await entriesOf(entity, id), entity).toBe(2);
      }
      const referenced = await referencedRecords(A);
      expect(referenced.map((r) => r.entity)).toContain('units');
      for (const { entity, id } of referenced) {
        const before = await entriesOf(entity, id);
        const res = await admin.delete(`/${entity}/${id}`);
        expect(res.statusCode, `${entity}: ${res.body}`).toBe(409);
        expect(res.json().code).toBe('in_use');
        expect(await entriesOf(entity, id)).toBe(before);
        refused++;
      }
      console.info(`[reliability] history (${testDriver}): ${refused} refused writes left no entry`);
    });

    it('rolls the change back when its history entry cannot be written (fault injected into the audit table)', async () => {
      const admin = A.clients.admin;
      const count = async (entity: string) =>
        Number((await t.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${entity}`))[0]?.n);
      const counters = async () =>
        JSON.stringify(await t.database.query('SELECT company_id, name, value FROM counters ORDER BY 1, 2'));
      // records to update and delete, made before the fault is switched on
      const targets: Record<string, Body> = {};
      for (const entity of ENTITY_NAMES) {
        // (a lease of the other unit, so that no payment made here refers to it)
        const refs = entity === 'occupancy' ? { ...A.refs, unit_id: A.refs.other_unit_id } : A.refs;
        // (a pending payment, whose figures may change; a lease's answer without its back rent)
        const body = validBody(entity, refs, A.marker);
        const { back_rent: _backRent, ...record } = await created(
          admin,
          `/${entity}`,
          entity === 'payments' ? { ...body, status: 'pending' } : body,
        );
        targets[entity] = record;
      }
      const countersBefore = await counters();
      let faults = 0;
      await t.database.query(`CREATE OR REPLACE FUNCTION kodi_test_audit_fault() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'injected fault: the history entry cannot be written'; END $$ LANGUAGE plpgsql`);
      await t.database.query(`CREATE TRIGGER kodi_test_audit_fault BEFORE INSERT ON audit_entries
      FOR EACH ROW EXECUTE FUNCTION kodi_test_audit_fault()`);
      try {
        for (const entity of ENTITY_NAMES) {
          const target = targets[entity] as Body;
          const id = Number(target.id);
          const rows = await count(entity);
          const create = await admin.post(`/${entity}`, validBody(entity, A.refs, A.marker));
          const update = await admin.put(`/${entity}/${id}`, { ...target, ...editOf(entity, nextN()) });
          const del = await admin.delete(`/${entity}/${id}`);
          faults += 3;
          for (const res of [create, update, del]) {
            expect(res.statusCode, `${entity}: ${res.body}`).toBe(500);
            expect(res.json()).toEqual({
              error: 'Something went wrong on our side. Please try again.',
              code: 'internal_error',
            });
          }
          expect(await count(entity), `${entity}: the create was rolled back`).toBe(rows);
          const stored = await admin.get(`/${entity}/${id}`);
          expect(stored.statusCode, `${entity}: the delete was rolled back`).toBe(200);
          expect(stored.json(), `${entity}: the update was rolled back`).toEqual(target);
        }
      } finally {
        await t.database.query('DROP TRIGGER IF EXISTS kodi_test_audit_fault ON audit_entries');
        await t.database.query('DROP FUNCTION IF EXISTS kodi_test_audit_fault()');
      }
      // the failed payment gave its serial and receipt numbers back
      expect(await counters()).toBe(countersBefore);
      console.info(
        `[reliability] history (${testDriver}): ${faults} faults injected, every change rolled back`,
      );
    });
  },
);
