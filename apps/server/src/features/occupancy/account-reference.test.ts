import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMonths } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { signInAs } from '../../test/sign-in.ts';
import { buildCompany } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { unitsToLet } from '../../test/units-to-let.ts';
import { serverRoot } from '../../db/client.ts';
import { ACCOUNT_REFERENCE_TAKEN, referenceBase } from './account-reference.ts';

/** The upgrade's statement that gives every lease its account number (the migration's second). */
const upgradeFill = () => {
  const dir = path.join(serverRoot, 'drizzle');
  const file = fs.readdirSync(dir).find((f) => f.endsWith('_account_reference.sql'));
  if (!file) throw new Error('the account_reference migration is missing');
  const statement = fs.readFileSync(path.join(dir, file), 'utf8').split('--> statement-breakpoint')[1];
  if (!statement?.includes('UPDATE occupancy')) throw new Error('the migration has no fill');
  return statement;
};

type Lease = { id: number; version: number; account_reference: string | null } & Record<string, unknown>;

const TAKEN = { code: 'validation_failed', fields: { account_reference: ACCOUNT_REFERENCE_TAKEN } };

describe(`a lease's account number (issue 29) (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let lease: Awaited<ReturnType<typeof unitsToLet>>['lease'];
  let today: string;
  let start: string;

  beforeEach(async () => {
    t = await setupApp();
    ({ admin, companyId, lease, today, start } = await unitsToLet(t, [
      'A-12',
      'a 12',
      'B7',
      'Flat 3',
      'C1',
      'C2',
    ]));
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('makes one from the unit, numbered when taken, and keeps it through edits', async () => {
    expect(referenceBase('Block A-12')).toBe('BLOCKA12');
    expect(referenceBase('—')).toBe('L');
    const first = await lease(admin, 'A-12');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<Lease>().account_reference).toBe('A12');
    // another unit whose name makes the same number
    const second = await lease(admin, 'a 12');
    expect(second.json<Lease>().account_reference).toBe('A12-2');

    // an edit that leaves it empty keeps it; a person may change it (upper-cased)
    const l = second.json<Lease>();
    const kept = await admin.put(`/occupancy/${l.id}`, { ...l, account_reference: '', rate: 550000 });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<Lease>().account_reference).toBe('A12-2');
    const changed = await admin.put(`/occupancy/${l.id}`, {
      ...kept.json<Lease>(),
      account_reference: 'kol-a12',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Lease>().account_reference).toBe('KOL-A12');
    // saving it again unchanged is no clash with itself
    const again = await admin.put(`/occupancy/${l.id}`, changed.json<Lease>());
    expect(again.statusCode, again.body).toBe(200);
    expect((await admin.get(`/occupancy/${l.id}`)).json<Lease>().account_reference).toBe('KOL-A12');

    // editors may change it (canEdit); a viewer may not
    const editor = await signInAs(t, companyId, ['editor']);
    const byEditor = await editor.put(`/occupancy/${l.id}`, {
      ...again.json<Lease>(),
      account_reference: 'E-7',
    });
    expect(byEditor.statusCode, byEditor.body).toBe(200);
    expect(byEditor.json<Lease>().account_reference).toBe('E-7');
    const viewer = await signInAs(t, companyId, ['viewer']);
    const byViewer = await viewer.put(`/occupancy/${l.id}`, {
      ...byEditor.json<Lease>(),
      account_reference: 'V-7',
    });
    expect(byViewer.statusCode).toBe(403);
    expect((await admin.get(`/occupancy/${l.id}`)).json<Lease>().account_reference).toBe('E-7');
  });

  it('refuses one another lease of the company holds, or one that is not letters, digits and dashes', async () => {
    expect((await lease(admin, 'B7', { account_reference: 'b7' })).json<Lease>().account_reference).toBe(
      'B7',
    );
    const clash = await lease(admin, 'Flat 3', { account_reference: 'B7' });
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toMatchObject(TAKEN);
    const bad = await lease(admin, 'Flat 3', { account_reference: 'B 7!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'validation_failed',
      fields: { account_reference: 'Use 1 to 20 letters, digits or dashes.' },
    });
    // an edit onto another lease's number
    const flat = (await lease(admin, 'Flat 3')).json<Lease>();
    expect(flat.account_reference).toBe('FLAT3');
    const onto = await admin.put(`/occupancy/${flat.id}`, { ...flat, account_reference: 'B7' });
    expect(onto.statusCode).toBe(400);
    expect(onto.json()).toMatchObject(TAKEN);

    // another company has its own numbers
    const other = await buildCompany(t.database, { name: 'Other Homes' });
    const theirs = await signInAs(t, other.id, ['admin']);
    const unit = (await theirs.post('/units', validUnit({ name: 'B7' }))).json<{ id: number }>();
    const tenant = (await theirs.post('/tenants', validTenant())).json<{ id: number }>();
    const res = await theirs.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: start,
      rate: 400000,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Lease>().account_reference).toBe('B7');
  });

  it('numbers leases created together apart', async () => {
    const [one, two] = await Promise.all([lease(admin, 'A-12'), lease(admin, 'a 12')]);
    expect([one?.json<Lease>().account_reference, two?.json<Lease>().account_reference].sort()).toEqual([
      'A12',
      'A12-2',
    ]);
  });

  it('the upgrade gives every lease one: the current lease of a unit keeps it plain', async () => {
    const old = (
      await lease(admin, 'C1', { start_date: addMonths(today, -24), end_date: addMonths(today, -13) })
    ).json<Lease>();
    const current = (await lease(admin, 'C1')).json<Lease>();
    const ended = await admin.put(`/occupancy/${old.id}`, { ...old, occupancy_status: 'terminated' });
    expect(ended.statusCode, ended.body).toBe(200);
    const other = (await lease(admin, 'Flat 3')).json<Lease>();
    await t.database.query('UPDATE occupancy SET account_reference = NULL');
    await t.database.query(upgradeFill());
    const rows = await t.database.query<{ id: number; account_reference: string }>(
      'SELECT id, account_reference FROM occupancy ORDER BY id',
    );
    expect(rows.map((r) => [Number(r.id), r.account_reference])).toEqual([
      [old.id, 'C1-2'],
      [current.id, 'C1'],
      [other.id, 'FLAT3'],
    ]);
  });
});
