import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { FAKE_PNG, PNG_1PX, validTenant, validUnit } from '../test/entities.ts';
import type { RoleName } from '@kodi/domain';

describe(`generic entity routes: units and tenants (${testDriver})`, () => {
  let t: TestContext;
  let companyA: number;
  let companyB: number;
  const as = async (role: RoleName | null, companyId = companyA) => {
    const u = await buildUser(t.database, { company_id: companyId, roles: role ? [role] : [] });
    const c = new TestClient(t.app);
    const res = await c.login(u.email, u.password);
    expect(res.statusCode).toBe(200);
    return c;
  };

  beforeEach(async () => {
    t = await setupApp();
    companyA = (await buildCompany(t.database, { name: 'A' })).id;
    companyB = (await buildCompany(t.database, { name: 'B' })).id;
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('creates, reads, updates and deletes a unit, with numbers as numbers', async () => {
    const admin = await as('admin');
    const created = await admin.post('/units', {
      ...validUnit(),
      id: 999,
      company_id: companyB,
      has_image_1: true,
    });
    expect(created.statusCode).toBe(201);
    const unit = created.json();
    expect(unit).toMatchObject({
      name: 'Kololo Heights A1',
      monthly_rate: 1500000,
      company_id: companyA,
      version: 1,
    });
    expect(unit.id).not.toBe(999);

    const read = await admin.get(`/units/${unit.id}`);
    expect(read.json()).toMatchObject({ id: unit.id, daily_rate: 50000, status: 'available' });

    const updated = await admin.put(`/units/${unit.id}`, {
      ...unit,
      monthly_rate: '1600000.50',
      status: 'OCCUPIED',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ monthly_rate: 1600000.5, status: 'occupied', version: 2 });

    const stale = await admin.put(`/units/${unit.id}`, { ...unit, name: 'Old copy' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      error: 'This record was changed by someone else. Reload to see the latest version.',
      code: 'conflict',
    });

    expect((await admin.delete(`/units/${unit.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/units/${unit.id}`)).statusCode).toBe(404);
    const audit = await t.database.query<{ action: string }>(
      "SELECT action FROM audit_entries WHERE entity = 'units' AND record_id = $1 ORDER BY id",
      [unit.id],
    );
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });

  it("answers the spec's validation messages", async () => {
    const admin = await as('admin');
    const res = await admin.post('/units', {
      name: 'x'.repeat(256),
      address: '',
      monthly_rate: 0,
      weekly_rate: -1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      fields: {
        name: 'Maximum 255 characters.',
        address: 'This field is required.',
        monthly_rate: 'Must be a positive number > 0.',
        weekly_rate: 'Must be a positive number > 0.',
        daily_rate: 'This field is required.',
        unit_type: 'This field is required.',
      },
    });
    const tenant = await admin.post(
      '/tenants',
      validTenant({ phone: '12', country_code: '256', first_name: '' }),
    );
    expect(tenant.json().fields).toMatchObject({
      phone: 'Invalid phone number format.',
      country_code: 'Invalid country code (e.g. +256).',
      first_name: 'This field is required.',
    });
    const unknown = await admin.post('/tenants', validTenant({ nickname: 'G' }));
    expect(unknown.json()).toMatchObject({
      code: 'validation_failed',
      fields: { nickname: 'Unknown field.' },
    });
  });

  it('applies the role rules: viewer reads only, editor cannot delete, no role gets no_role', async () => {
    const admin = await as('admin');
    const unit = (await admin.post('/units', validUnit())).json();
    const viewer = await as('viewer');
    expect((await viewer.get('/units')).statusCode).toBe(200);
    const denied = await viewer.post('/units', validUnit());
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('forbidden');
    expect((await viewer.get('/auth/status')).json().user).not.toBeNull(); // still signed in
    const editor = await as('editor');
    expect((await editor.put(`/units/${unit.id}`, { ...unit, name: 'Renamed' })).statusCode).toBe(200);
    expect((await editor.delete(`/units/${unit.id}`)).statusCode).toBe(403);
    const nobody = await as(null);
    const none = await nobody.get('/units');
    expect(none.statusCode).toBe(403);
    expect(none.json().code).toBe('no_role');
    expect((await new TestClient(t.app).get('/units')).statusCode).toBe(401);
  });

  it("makes another company's records a 404 for every verb, whatever the filter says", async () => {
    const adminA = await as('admin', companyA);
    const adminB = await as('admin', companyB);
    const unitB = (await adminB.post('/units', validUnit({ name: 'B unit' }))).json();
    await adminA.post('/units', validUnit({ name: 'A unit' }));
    expect((await adminA.get(`/units/${unitB.id}`)).statusCode).toBe(404);
    expect((await adminA.put(`/units/${unitB.id}`, { ...unitB, name: 'hijack' })).statusCode).toBe(404);
    expect((await adminA.delete(`/units/${unitB.id}`)).statusCode).toBe(404);
    const list = await adminA.get('/units');
    expect(list.json().map((u: { name: string }) => u.name)).toEqual(['A unit']);
    const filtered = await adminA.get(
      `/units?filter=${encodeURIComponent(JSON.stringify({ field: 'company_id', value: companyB }))}`,
    );
    expect(filtered.statusCode).toBe(200);
    expect(filtered.json()).toEqual([]);
    expect(filtered.headers['x-total-count']).toBe('0');
    const own = await adminA.get(
      `/units?filter=${encodeURIComponent(JSON.stringify({ field: 'company_id', value: companyA }))}`,
    );
    expect(own.json()).toHaveLength(1);
    expect((await adminB.get(`/units/${unitB.id}`)).json().name).toBe('B unit');
  });

  it('pages, searches and sorts in SQL with X-Total-Count', async () => {
    const admin = await as('admin');
    for (let i = 1; i <= 30; i++) {
      await admin.post(
        '/tenants',
        validTenant({
          first_name: `Name${String(i).padStart(2, '0')}`,
          last_name: i % 3 === 0 ? 'Okello' : 'Auma',
        }),
      );
    }
    const first = await admin.get('/tenants');
    expect(first.headers['x-total-count']).toBe('30');
    expect(first.json()).toHaveLength(25);
    expect(first.json()[0].first_name).toBe('Name30'); // newest first
    expect(first.json()[0].full_name).toBe('Name30 Okello');
    const second = await admin.get('/tenants?page=2&page_size=25');
    expect(second.json()).toHaveLength(5);
    const search = await admin.get('/tenants?q=okELLo&page_size=100');
    expect(search.headers['x-total-count']).toBe('10');
    const full = await admin.get(`/tenants?q=${encodeURIComponent('Name07 Auma')}`);
    expect(full.json()).toHaveLength(1);
    const sorted = await admin.get('/tenants?sort=first_name&page_size=3');
    expect(sorted.json().map((x: { first_name: string }) => x.first_name)).toEqual([
      'Name01',
      'Name02',
      'Name03',
    ]);
    const desc = await admin.get('/tenants?sort=-first_name&page_size=1');
    expect(desc.json()[0].first_name).toBe('Name30');
    const badSort = await admin.get('/tenants?sort=password_hash');
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().fields).toEqual({ sort: 'Unknown field.' });
    expect((await admin.get('/tenants?page_size=501')).statusCode).toBe(400);
    const wild = await admin.get('/tenants?q=%25');
    expect(wild.json()).toHaveLength(0);
  });

  it('keeps images out of lists, checks them by content, and leaves absent ones untouched', async () => {
    const admin = await as('admin');
    const unit = (
      await admin.post('/units', validUnit({ image_1_base64: `data:image/png;base64,${PNG_1PX}` }))
    ).json();
    expect(unit.image_1_base64).toBe(PNG_1PX);
    const list = (await admin.get('/units')).json();
    expect(list[0]).toMatchObject({ has_image_1: true, has_image_2: false });
    expect(list[0]).not.toHaveProperty('image_1_base64');
    const fake = await admin.post('/units', validUnit({ image_2_base64: FAKE_PNG }));
    expect(fake.statusCode).toBe(400);
    expect(fake.json().fields.image_2_base64).toBe('Images must be png, jpeg or webp.');
    const { image_1_base64: _omit, ...withoutImage } = unit;
    const kept = (await admin.put(`/units/${unit.id}`, { ...withoutImage, name: 'Same image' })).json();
    expect(kept.image_1_base64).toBe(PNG_1PX);
    const cleared = (await admin.put(`/units/${unit.id}`, { ...kept, image_1_base64: '' })).json();
    expect(cleared.image_1_base64).toBeNull();
  });

  it('refuses deleting a unit that a lease refers to with 409 in_use naming it', async () => {
    const admin = await as('admin');
    const unit = (await admin.post('/units', validUnit())).json();
    const tenant = (await admin.post('/tenants', validTenant())).json();
    await t.database.query(
      `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate) VALUES ($1, $2, $3, '2026-01-01', 100)`,
      [companyA, tenant.id, unit.id],
    );
    const res = await admin.delete(`/units/${unit.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'This record is still used by occupancy records. Remove those first.',
      code: 'in_use',
    });
  });
});

describe(`record history (${testDriver})`, () => {
  it('answers who changed a record, newest first, to admins only, and keeps it after delete', async () => {
    const t = await setupApp();
    try {
      const companyId = (await buildCompany(t.database)).id;
      const otherId = (await buildCompany(t.database)).id;
      const mk = async (role: RoleName, company = companyId) => {
        const u = await buildUser(t.database, { company_id: company, roles: [role] });
        const c = new TestClient(t.app);
        await c.login(u.email, u.password);
        return { c, u };
      };
      const { c: admin, u } = await mk('admin');
      const unit = (await admin.post('/units', validUnit())).json();
      const renamed = (await admin.put(`/units/${unit.id}`, { ...unit, name: 'Renamed' })).json();
      await admin.delete(`/units/${unit.id}`);
      const res = await admin.get(`/units/${unit.id}/history`);
      expect(res.statusCode).toBe(200);
      const h = res.json();
      expect(h.map((x: { action: string }) => x.action)).toEqual(['delete', 'update', 'create']);
      expect(h[1]).toMatchObject({
        user_email: u.email,
        before: { name: 'Kololo Heights A1' },
        after: { name: 'Renamed' },
      });
      expect(h[0].after).toBeNull();
      expect(h[2].before).toBeNull();
      expect(renamed.version).toBe(2);
      const { c: editor } = await mk('editor');
      expect((await editor.get(`/units/${unit.id}/history`)).statusCode).toBe(403);
      const { c: stranger } = await mk('admin', otherId);
      expect((await stranger.get(`/units/${unit.id}/history`)).statusCode).toBe(404);
    } finally {
      await t.app.close();
    }
  });
});
