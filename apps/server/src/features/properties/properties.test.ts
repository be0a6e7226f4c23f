import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { todayIso, type RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';

type Row = Record<string, unknown>;

const property = (overrides: Row = {}): Row => ({
  name: 'Kololo Heights',
  address: 'Plot 14, Acacia Avenue, Kololo, Kampala',
  ...overrides,
});

describe(`properties (${testDriver})`, () => {
  let t: TestContext;
  let companyA: number;
  let companyB: number;
  let admin: TestClient;
  let stranger: TestClient;

  const as = async (role: RoleName, companyId = companyA) => {
    const u = await buildUser(t.database, { company_id: companyId, roles: [role] });
    const c = new TestClient(t.app);
    expect((await c.login(u.email, u.password)).statusCode).toBe(200);
    return c;
  };

  const make = async (c: TestClient, path: string, body: Row): Promise<Row> => {
    const res = await c.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json() as Row;
  };

  beforeEach(async () => {
    t = await setupApp();
    companyA = (await buildCompany(t.database, { name: 'A Estates' })).id;
    companyB = (await buildCompany(t.database, { name: 'B Estates' })).id;
    admin = await as('admin');
    stranger = await as('admin', companyB);
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('creates, reads, updates and deletes a property, with its defaults and no units yet', async () => {
    const created = await admin.post('/properties', {
      ...property(),
      units_count: 99,
      occupancy_percent: 50,
      company_id: companyB,
    });
    expect(created.statusCode).toBe(201);
    const p = created.json() as Row;
    expect(p).toMatchObject({
      name: 'Kololo Heights',
      property_type: 'residential',
      company_id: companyA,
      units_count: 0,
      occupied_count: 0,
      occupancy_percent: null,
      manager_name: null,
      version: 1,
    });

    const updated = await admin.put(`/properties/${String(p.id)}`, {
      ...p,
      property_type: 'MIXED',
      manager_name: 'Irene Nakato',
      manager_phone: '+256 772 410233',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      property_type: 'mixed',
      manager_name: 'Irene Nakato',
      version: 2,
    });
    expect((await admin.get(`/properties?q=irene`)).json()).toHaveLength(1);

    expect((await admin.delete(`/properties/${String(p.id)}`)).statusCode).toBe(204);
    expect((await admin.get(`/properties/${String(p.id)}`)).statusCode).toBe(404);
  });

  it('answers its validation messages, and refuses to delete a property that has units', async () => {
    const bad = await admin.post('/properties', {
      name: 'x'.repeat(256),
      address: '',
      property_type: 'castle',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'validation_failed',
      fields: {
        name: 'Maximum 255 characters.',
        address: 'This field is required.',
        property_type: 'Choose one of the listed values.',
      },
    });
    const missing = await admin.post('/properties', {});
    expect(missing.json().fields).toMatchObject({
      name: 'This field is required.',
      address: 'This field is required.',
    });

    const p = await make(admin, '/properties', property());
    const unit = await make(admin, '/units', validUnit({ property_id: p.id }));
    expect(unit).toMatchObject({ property_id: p.id, property_name: 'Kololo Heights' });
    const inUse = await admin.delete(`/properties/${String(p.id)}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toEqual({
      error: 'This record is still used by units. Remove those first.',
      code: 'in_use',
    });
    // a unit cannot name another company's property
    const theirs = await make(stranger, '/properties', property({ name: 'Theirs' }));
    const refused = await admin.post('/units', validUnit({ property_id: theirs.id }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('allows each role what it allows on units', async () => {
    const roles: RoleName[] = ['admin', 'company_admin', 'editor', 'viewer'];
    for (const role of roles) {
      const c = await as(role);
      const statuses = async (path: string, body: Row) => {
        const own = await make(admin, path, body);
        const create = (await c.post(path, body)).statusCode;
        const read = (await c.get(`${path}/${String(own.id)}`)).statusCode;
        const list = (await c.get(path)).statusCode;
        const update = (await c.put(`${path}/${String(own.id)}`, { ...own, name: `${role} edit` }))
          .statusCode;
        const remove = (await c.delete(`${path}/${String(own.id)}`)).statusCode;
        return { create, read, list, update, remove };
      };
      const ofProperties = await statuses('/properties', property({ name: `P ${role}` }));
      const ofUnits = await statuses('/units', validUnit({ name: `U ${role}` }));
      expect(ofProperties, role).toEqual(ofUnits);
      expect(ofProperties.read, role).toBe(200);
    }
    const viewer = await as('viewer');
    expect((await viewer.post('/properties', property())).statusCode).toBe(403);
  });

  it('documents property_id on the routes that take it, and the units of a property', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/rentapi/docs/json' })).json() as {
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    const takes = (path: string) =>
      (doc.paths[`/rentapi/api${path}`]?.get?.parameters ?? []).some(
        (p) => p.name === 'property_id' && p.in === 'query',
      );
    for (const path of [
      '/units',
      '/payments/export',
      '/occupancy',
      '/expenses',
      '/maintenance_requests',
      '/arrears',
      '/arrears/summary',
      '/arrears/export',
      '/dashboard',
      '/income-statement',
      '/cash-flow/export',
    ])
      expect(takes(path), path).toBe(true);
    expect(takes('/tenants')).toBe(false);
    expect(doc.paths['/rentapi/api/properties/{id}/units']?.get).toBeDefined();
  });

  it("keeps another company's property out of sight: 404 on its record and its units", async () => {
    const theirs = await make(stranger, '/properties', property({ name: 'Their Court' }));
    const id = String(theirs.id);
    expect((await admin.get(`/properties/${id}`)).statusCode).toBe(404);
    expect((await admin.put(`/properties/${id}`, { ...theirs, name: 'Mine' })).statusCode).toBe(404);
    expect((await admin.delete(`/properties/${id}`)).statusCode).toBe(404);
    expect((await admin.get(`/properties/${id}/units`)).statusCode).toBe(404);
    expect((await admin.get('/properties')).json()).toEqual([]);
    expect((await stranger.get(`/properties/${id}`)).json()).toMatchObject({ name: 'Their Court' });
  });

  it('counts units and occupied units, with the occupancy % computed in SQL, through every change', async () => {
    const a = await make(admin, '/properties', property({ name: 'Alpha Court' }));
    const b = await make(admin, '/properties', property({ name: 'Beta Court' }));
    const unit = (name: string, status: string, propertyId: unknown) =>
      make(admin, '/units', validUnit({ name, status, property_id: propertyId }));
    const u1 = await unit('A1', 'occupied', a.id);
    await unit('A2', 'occupied', a.id);
    const u3 = await unit('A3', 'available', a.id);
    await unit('B1', 'maintenance', b.id);
    await unit('Loose', 'occupied', null);
    const counts = async () =>
      ((await admin.get('/properties?sort=name')).json() as Row[]).map((p) => [
        p.name,
        p.units_count,
        p.occupied_count,
        p.occupancy_percent,
      ]);
    // 2 of 3 occupied: 66.7 %; 0 of 1: 0 %
    expect(await counts()).toEqual([
      ['Alpha Court', 3, 2, 66.7],
      ['Beta Court', 1, 0, 0],
    ]);
    // a unit let, a unit moved to another property, a unit deleted
    const u3now = (await admin.get(`/units/${String(u3.id)}`)).json() as Row;
    expect((await admin.put(`/units/${String(u3.id)}`, { ...u3now, status: 'occupied' })).statusCode).toBe(
      200,
    );
    expect(await counts()).toEqual([
      ['Alpha Court', 3, 3, 100],
      ['Beta Court', 1, 0, 0],
    ]);
    const u1now = (await admin.get(`/units/${String(u1.id)}`)).json() as Row;
    const moved = await admin.put(`/units/${String(u1.id)}`, { ...u1now, property_id: b.id });
    expect(moved.json()).toMatchObject({ property_name: 'Beta Court' });
    expect(await counts()).toEqual([
      ['Alpha Court', 2, 2, 100],
      ['Beta Court', 2, 1, 50],
    ]);
    expect((await admin.delete(`/units/${String(u1.id)}`)).statusCode).toBe(204);
    expect(await counts()).toEqual([
      ['Alpha Court', 2, 2, 100],
      ['Beta Court', 1, 0, 0],
    ]);
    // the list sorts by the kept counts (from their indexes: list-plans.test.ts)
    const byShare = (await admin.get('/properties?sort=-occupancy_percent')).json() as Row[];
    expect(byShare.map((p) => p.name)).toEqual(['Alpha Court', 'Beta Court']);
    const byUnits = (await admin.get('/properties?sort=units_count')).json() as Row[];
    expect(byUnits.map((p) => p.name)).toEqual(['Beta Court', 'Alpha Court']);
    // an empty property has no occupancy %: last going up
    await make(admin, '/properties', property({ name: 'Empty Court' }));
    const up = (await admin.get('/properties?sort=occupancy_percent')).json() as Row[];
    expect(up.map((p) => [p.name, p.occupancy_percent])).toEqual([
      ['Beta Court', 0],
      ['Alpha Court', 100],
      ['Empty Court', null],
    ]);
  });

  it("sorts the units list by property name, and a property's new name reaches its units", async () => {
    const a = await make(admin, '/properties', property({ name: 'Mango Court' }));
    const b = await make(admin, '/properties', property({ name: 'Apple Court' }));
    await make(admin, '/units', validUnit({ name: 'U1', property_id: a.id }));
    await make(admin, '/units', validUnit({ name: 'U2', property_id: b.id }));
    await make(admin, '/units', validUnit({ name: 'U3' }));
    await make(admin, '/units', validUnit({ name: 'U4', property_id: a.id }));
    const names = async (sort: string) =>
      ((await admin.get(`/units?sort=${sort}`)).json() as Row[]).map(
        (u) => `${String(u.name)}:${String(u.property_name)}`,
      );
    expect(await names('property_name')).toEqual([
      'U2:Apple Court',
      'U1:Mango Court',
      'U4:Mango Court',
      'U3:null',
    ]);
    expect(await names('-property_name')).toEqual([
      'U3:null',
      'U4:Mango Court',
      'U1:Mango Court',
      'U2:Apple Court',
    ]);
    const renamed = await admin.put(`/properties/${String(a.id)}`, { ...a, name: 'Banana Court' });
    expect(renamed.statusCode).toBe(200);
    expect(await names('property_name')).toEqual([
      'U2:Apple Court',
      'U1:Banana Court',
      'U4:Banana Court',
      'U3:null',
    ]);
    const filtered = await admin.get(`/units?property_id=${String(a.id)}&sort=name`);
    expect(filtered.headers['x-total-count']).toBe('2');
    expect((filtered.json() as Row[]).map((u) => u.name)).toEqual(['U1', 'U4']);
  });

  it("lists a property's units with their status and current tenant", async () => {
    const p = await make(admin, '/properties', property());
    const let_ = await make(
      admin,
      '/units',
      validUnit({ name: 'B let', status: 'occupied', property_id: p.id }),
    );
    const ended = await make(admin, '/units', validUnit({ name: 'C ended', property_id: p.id }));
    await make(admin, '/units', validUnit({ name: 'A free', property_id: p.id }));
    await make(admin, '/units', validUnit({ name: 'Elsewhere' }));
    const grace = await make(admin, '/tenants', validTenant({ first_name: 'Grace', last_name: 'Namuli' }));
    const moses = await make(admin, '/tenants', validTenant({ first_name: 'Moses', last_name: 'Okello' }));
    const lease = await make(admin, '/occupancy', {
      tenant_id: grace.id,
      unit_id: let_.id,
      start_date: '2024-01-01',
      rate: 500_000,
    });
    await make(admin, '/occupancy', {
      tenant_id: moses.id,
      unit_id: ended.id,
      start_date: '2024-01-01',
      end_date: '2024-12-31',
      rate: 500_000,
    });
    const res = await admin.get(`/properties/${String(p.id)}/units`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.json()).toEqual([
      expect.objectContaining({ name: 'A free', status: 'available', tenant_name: null, occupancy_id: null }),
      expect.objectContaining({
        name: 'B let',
        status: 'occupied',
        tenant_name: 'Grace Namuli',
        tenant_id: grace.id,
        occupancy_id: lease.id,
      }),
      expect.objectContaining({ name: 'C ended', tenant_name: null }),
    ]);
    const page2 = await admin.get(`/properties/${String(p.id)}/units?page=2&page_size=2`);
    expect(page2.headers['x-total-count']).toBe('3');
    expect((page2.json() as Row[]).map((u) => u.name)).toEqual(['C ended']);
    const past = await admin.get(`/properties/${String(p.id)}/units?page=9&page_size=2`);
    expect(past.headers['x-total-count']).toBe('3');
    expect(past.json()).toEqual([]);
  });

  describe('property_id on the lists, exports, arrears, dashboard and reports', () => {
    const today = todayIso();
    const month = today.slice(0, 7);
    let p1: Row;
    let p2: Row;
    let units: Record<string, Row>;

    beforeEach(async () => {
      p1 = await make(admin, '/properties', property({ name: 'One Court' }));
      p2 = await make(admin, '/properties', property({ name: 'Two Court' }));
      units = {
        one: await make(admin, '/units', validUnit({ name: 'One A', property_id: p1.id })),
        oneFree: await make(admin, '/units', validUnit({ name: 'One B', property_id: p1.id })),
        two: await make(admin, '/units', validUnit({ name: 'Two A', property_id: p2.id })),
        none: await make(admin, '/units', validUnit({ name: 'Lone', property_id: null })),
      };
      const vendor = await make(admin, '/vendors', {
        name: 'Fixit',
        service_offered: 'plumbing',
        phone: '+256700000000',
      });
      for (const [key, amount] of [
        ['one', 300_000],
        ['two', 700_000],
        ['none', 900_000],
      ] as const) {
        const unit = units[key] as Row;
        const tenant = await make(
          admin,
          '/tenants',
          validTenant({ first_name: `T${key}`, last_name: 'Tenant' }),
        );
        await make(admin, '/occupancy', {
          tenant_id: tenant.id,
          unit_id: unit.id,
          start_date: '2025-01-01',
          rate: 1_000_000,
        });
        for (const status of ['completed', 'pending']) {
          await make(admin, '/payments', {
            tenant_id: tenant.id,
            unit_id: unit.id,
            payment_date: today,
            amount_paid: amount,
            payment_method: 'cash',
            status,
            effective_start_date: today,
            effective_end_date: today,
          });
        }
        await make(admin, '/expenses', {
          unit_id: unit.id,
          expense_date: today,
          amount: amount / 10,
          category: 'repairs',
        });
        await make(admin, '/maintenance_requests', {
          unit_id: unit.id,
          tenant_id: tenant.id,
          vendor_id: vendor.id,
          request_date: today,
          description: `Leak in ${key}`,
          priority: 'low',
          status: 'open',
          estimated_cost: 1000,
        });
      }
      await make(admin, '/expenses', { expense_date: today, amount: 5_000, category: 'other' });
    });

    const ids = (res: { json: () => unknown }) => (res.json() as Row[]).map((r) => r.id);

    it('lists only the rows of the property, on every list and its export', async () => {
      const one = String(p1.id);
      const expected: Record<string, { total: number; check: (r: Row) => boolean }> = {
        units: { total: 2, check: (r) => r.property_id === p1.id },
        occupancy: { total: 1, check: (r) => r.unit_id === units.one?.id },
        payments: { total: 2, check: (r) => r.unit_id === units.one?.id },
        expenses: { total: 1, check: (r) => r.unit_id === units.one?.id },
        maintenance_requests: { total: 1, check: (r) => r.unit_id === units.one?.id },
      };
      for (const [entity, { total, check }] of Object.entries(expected)) {
        const res = await admin.get(`/${entity}?property_id=${one}`);
        expect(res.statusCode, entity).toBe(200);
        expect(res.headers['x-total-count'], entity).toBe(String(total));
        expect((res.json() as Row[]).every(check), entity).toBe(true);
        // with a search too, and all of them without it
        const all = await admin.get(`/${entity}`);
        expect(Number(all.headers['x-total-count']), entity).toBeGreaterThan(total);
        const xlsx = await admin.get(`/${entity}/export?fmt=xlsx&property_id=${one}`);
        expect(xlsx.statusCode, entity).toBe(200);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
        expect(wb.worksheets[0]?.rowCount, entity).toBe(total + 1);
        const pdf = await admin.get(`/${entity}/export?fmt=pdf&property_id=${one}`);
        expect(pdf.statusCode, entity).toBe(200);
      }
      const searched = await admin.get(`/payments?property_id=${String(p2.id)}&q=Ttwo`);
      expect(searched.headers['x-total-count']).toBe('2');
      // a property without rows of a kind answers an empty list, not a 404
      const empty = await make(admin, '/properties', property({ name: 'Empty' }));
      const none = await admin.get(`/payments?property_id=${String(empty.id)}`);
      expect(none.statusCode).toBe(200);
      expect(none.headers['x-total-count']).toBe('0');
      // other lists do not take it: like any parameter a route does not know, it is left aside
      const tenants = await admin.get(`/tenants?property_id=${one}`);
      expect(tenants.statusCode).toBe(200);
      expect(tenants.headers['x-total-count']).toBe('3');
      expect(ids(await admin.get(`/units?property_id=${one}&sort=name`))).toEqual([
        units.one?.id,
        units.oneFree?.id,
      ]);
    });

    it('narrows the arrears, their summary and export to the leases of the property', async () => {
      const all = await admin.get('/arrears');
      expect(all.headers['x-total-count']).toBe('3');
      const res = await admin.get(`/arrears?property_id=${String(p1.id)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('1');
      expect((res.json() as Row[]).map((r) => r.unit_id)).toEqual([units.one?.id]);
      const whole = (await admin.get('/arrears/summary')).json() as { total: number; leases: number };
      const one = (await admin.get(`/arrears/summary?property_id=${String(p1.id)}`)).json() as {
        total: number;
        leases: number;
      };
      expect(one.leases).toBe(1);
      expect(one.total).toBe((res.json() as Row[])[0]?.balance);
      expect(whole.total).toBeGreaterThan(one.total);
      const xlsx = await admin.get(`/arrears/export?fmt=xlsx&property_id=${String(p1.id)}`);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      // the heading, the property's one lease and the totals row
      expect(wb.worksheets[0]?.rowCount).toBe(3);
      expect(JSON.stringify(wb.worksheets[0]?.getRow(3).values)).toContain('Total (1 lease)');
    });

    it('answers the dashboard of the property', async () => {
      // the three let units are occupied (their leases let them today): 'One B' alone is available
      const whole = (await admin.get('/dashboard')).json() as { counts: Row };
      expect(whole.counts).toMatchObject({ available_units: 1, pending_repairs: 3, incomplete_payments: 3 });
      const res = await admin.get(`/dashboard?property_id=${String(p1.id)}`);
      expect(res.statusCode).toBe(200);
      const one = res.json() as {
        counts: Row;
        available_units: Row[];
        recent_payments: Row[];
        pending_payments: Row[];
        recent_expenses: Row[];
        pending_repairs: Row[];
      };
      expect(one.counts).toEqual({
        available_units: 1,
        pending_repairs: 1,
        payments_this_month: 1,
        incomplete_payments: 1,
      });
      expect(one.available_units.map((u) => u.name)).toEqual(['One B']);
      expect(one.recent_payments.map((p) => p.amount_paid)).toEqual([300_000]);
      expect(one.pending_payments.map((p) => p.unit_name)).toEqual(['One A']);
      expect(one.recent_expenses.map((e) => e.amount)).toEqual([30_000]);
      expect(one.pending_repairs.map((r) => r.description)).toEqual(['Leak in one']);
    });

    it("answers the income statement and cash flow of the property's units, and their exports", async () => {
      const range = `from=${month}&to=${month}`;
      const whole = (await admin.get(`/income-statement?${range}`)).json() as Row[];
      expect(whole[0]).toMatchObject({ rental_income: 1_900_000, total_expenses: 195_000 });
      const one = (
        await admin.get(`/income-statement?${range}&property_id=${String(p1.id)}`)
      ).json() as Row[];
      expect(one).toEqual([
        expect.objectContaining({
          month,
          rental_income: 300_000,
          expenses: { repairs: 30_000 },
          total_expenses: 30_000,
          net_income: 270_000,
        }),
      ]);
      const cash = (await admin.get(`/cash-flow?${range}&property_id=${String(p2.id)}`)).json() as Row[];
      expect(cash).toEqual([
        expect.objectContaining({
          inflows: { payment: 700_000 },
          total_inflow: 700_000,
          total_outflow: 70_000,
          opening_balance: 0,
          closing_balance: 630_000,
        }),
      ]);
      for (const path of ['/income-statement', '/cash-flow']) {
        const xlsx = await admin.get(`${path}/export?fmt=xlsx&${range}&property_id=${String(p1.id)}`);
        expect(xlsx.statusCode, path).toBe(200);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
        const values = wb.worksheets[0]?.getColumn(2).values ?? [];
        expect(values, path).toContain(300_000);
        expect(values, path).not.toContain(1_900_000);
      }
    });

    it("answers 404 for another company's property and 400 for a property_id that is not a whole number, everywhere", async () => {
      const theirs = String((await make(stranger, '/properties', property({ name: 'Theirs' }))).id);
      const paths = [
        '/units',
        '/occupancy',
        '/payments',
        '/expenses',
        '/maintenance_requests',
        '/units/export?fmt=xlsx',
        '/occupancy/export?fmt=pdf',
        '/payments/export?fmt=xlsx',
        '/expenses/export?fmt=xlsx',
        '/maintenance_requests/export?fmt=xlsx',
        '/arrears',
        '/arrears/summary',
        '/arrears/export?fmt=xlsx',
        '/dashboard',
        '/income-statement',
        '/cash-flow',
        '/income-statement/export?fmt=xlsx',
        '/cash-flow/export?fmt=pdf',
      ];
      const join = (path: string, param: string) => `${path}${path.includes('?') ? '&' : '?'}${param}`;
      for (const path of paths) {
        const res = await admin.get(join(path, `property_id=${theirs}`));
        expect(res.statusCode, path).toBe(404);
        expect(res.json(), path).toMatchObject({ code: 'not_found', error: 'Property not found.' });
        for (const bad of ['abc', '1.5', '-3', '0', '99999999999']) {
          const refused = await admin.get(join(path, `property_id=${bad}`));
          expect(refused.statusCode, `${path} ${bad}`).toBe(400);
          expect(refused.json(), `${path} ${bad}`).toMatchObject({
            code: 'validation_failed',
            fields: { property_id: 'Must be a whole number.' },
          });
        }
        // and theirs is theirs
        expect((await stranger.get(join(path, `property_id=${theirs}`))).statusCode, path).toBe(200);
      }
    });
  });
});
