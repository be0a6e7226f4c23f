import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { validTenant, validUnit } from '../test/entities.ts';
import { keptFactsOf } from './kept-facts.ts';
import { pageKey, type JsonPage } from './service.ts';
import { todayIso } from '@kodi/domain';

type Row = Record<string, unknown>;

/**
 * List pages (and the dashboard) are kept as the JSON they were answered with, under the company's versions of the
 * tables their rows come from (crud/service.ts, `listPage`), and answered again while those stay.
 * These tests plant kept pages to prove they are what is answered, then write in SQL, as another
 * server would, to prove that any change to those tables is seen by the very next request.
 */
describe(`list pages kept under their tables' versions (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let grace: Row;
  let leaseId: number;

  const make = async (path: string, body: Row): Promise<Row> => {
    const res = await admin.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json() as Row;
  };

  const setup = async (keepPages: boolean) => {
    t = await setupApp({ keepPages });
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    admin = new TestClient(t.app);
    await admin.login((await buildUser(t.database, { company_id: companyId })).email, 'correct-horse-42');
    const unit = await make('/units', validUnit({ name: 'Kololo A' }));
    grace = await make('/tenants', validTenant({ first_name: 'Grace', last_name: 'Namuli' }));
    const lease = await make('/occupancy', {
      tenant_id: grace.id,
      unit_id: unit.id,
      start_date: '2025-01-01',
      rate: 500_000,
    });
    leaseId = Number(lease.id);
  };

  afterEach(async () => {
    await t.app.close();
  });

  const firstPage = { page: 1, page_size: 25 };
  const kept = () => keptFactsOf(t.database).get<JsonPage>(pageKey('occupancy', companyId, firstPage));
  /** Puts `rows` under the kept page's key and versions, as if they had been read. */
  const plant = (rows: Row[], total: number) => {
    const page = kept();
    if (!page) throw new Error('no page kept');
    keptFactsOf(t.database).set(pageKey('occupancy', companyId, firstPage), page.versions, {
      json: JSON.stringify(rows),
      total,
    });
  };

  describe('with pages kept (the default)', () => {
    beforeEach(() => setup(true));

    it('answers a page asked again as it was kept, while nothing it reads changed', async () => {
      const first = await admin.get('/occupancy');
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      expect((first.json() as Row[]).map((r) => r.tenant_name)).toEqual(['Grace Namuli']);
      expect(JSON.parse(kept()?.value.json ?? '[]')).toEqual(first.json());
      expect(kept()?.versions).toMatch(/^occupancy:\d+,tenants:\d+,units:\d+$/);

      plant([{ id: 999, tenant_name: 'Planted' }], 7);
      const again = await admin.get('/occupancy');
      expect(again.json()).toEqual([{ id: 999, tenant_name: 'Planted' }]);
      expect(again.headers['x-total-count']).toBe('7');
      // another query, another page: read
      expect((await admin.get('/occupancy?page_size=10')).json()).toHaveLength(1);
    });

    it('reads the page again after any write to a table its rows come from, by any server', async () => {
      await admin.get('/occupancy');
      plant([{ id: 999, tenant_name: 'Planted' }], 7);
      // a joined table: the tenant renamed in SQL, beyond this server
      await t.database.query(`UPDATE tenants SET last_name = 'Achieng' WHERE id = $1`, [grace.id]);
      const renamed = await admin.get('/occupancy');
      expect((renamed.json() as Row[]).map((r) => [r.id, r.tenant_name])).toEqual([
        [leaseId, 'Grace Achieng'],
      ]);
      expect(renamed.headers['x-total-count']).toBe('1');
      // its own table: a lease ended in SQL
      plant([{ id: 999, tenant_name: 'Planted' }], 7);
      await t.database.query(`DELETE FROM occupancy WHERE id = $1`, [leaseId]);
      const gone = await admin.get('/occupancy');
      expect(gone.json()).toEqual([]);
      expect(gone.headers['x-total-count']).toBe('0');
      // and through the API
      const unit = await make('/units', validUnit({ name: 'Ntinda B' }));
      await make('/occupancy', { tenant_id: grace.id, unit_id: unit.id, start_date: '2026-01-01', rate: 1 });
      expect((await admin.get('/occupancy')).headers['x-total-count']).toBe('1');
    });

    it('keeps the dashboard the same way, and sees a write or a new currency at once', async () => {
      const first = (await admin.get('/dashboard')).json() as { counts: { available_units: number } };
      const key = `dashboard\n${companyId}\n${todayIso().slice(0, 7)}-01`;
      const keptDashboard = keptFactsOf(t.database).get<{ json: string }>(key);
      expect(JSON.parse(keptDashboard?.value.json ?? '{}')).toEqual(first);
      const plantDashboard = () =>
        keptFactsOf(t.database).set(key, keptFactsOf(t.database).get(key)?.versions ?? '', {
          json: '{"planted":true}',
        });
      plantDashboard();
      expect((await admin.get('/dashboard')).json()).toEqual({ planted: true });
      await t.database.query(
        `INSERT INTO units (company_id, name, address, unit_type, status, monthly_rate, weekly_rate, daily_rate)
         VALUES ($1, 'Bugolobi C', 'Bugolobi', 'house', 'available', 5, 2, 1)`,
        [companyId],
      );
      const after = (await admin.get('/dashboard')).json() as { counts: { available_units: number } };
      expect(after.counts.available_units).toBe(first.counts.available_units + 1);
      plantDashboard();
      await t.database.query(`UPDATE companies SET currency_code = 'KES' WHERE id = $1`, [companyId]);
      expect((await admin.get('/dashboard')).json()).toMatchObject({
        currency_code: 'KES',
        currency_decimal_places: 2,
      });
      plantDashboard();
      await t.database.query(`UPDATE currencies SET decimal_places = 3 WHERE currency_code = 'KES'`);
      expect((await admin.get('/dashboard')).json()).toMatchObject({ currency_decimal_places: 3 });
    });

    it("keeps each company's pages apart", async () => {
      await admin.get('/occupancy');
      const other = await buildCompany(t.database, { name: 'Other Homes' });
      const stranger = new TestClient(t.app);
      await stranger.login((await buildUser(t.database, { company_id: other.id })).email, 'correct-horse-42');
      const theirs = await stranger.get('/occupancy');
      expect(theirs.statusCode).toBe(200);
      expect(theirs.json()).toEqual([]);
      expect(theirs.headers['x-total-count']).toBe('0');
    });

    it('still refuses a session ended elsewhere when the page is kept', async () => {
      await admin.get('/occupancy');
      await admin.get('/occupancy');
      await t.database.query('DELETE FROM sessions');
      expect((await admin.get('/occupancy')).statusCode).toBe(401);
    });
  });

  describe('with KEEP_PAGES=0', () => {
    beforeEach(() => setup(false));

    it('reads every page, and keeps none', async () => {
      const planted = { json: '[]', total: 0 };
      keptFactsOf(t.database).set(pageKey('occupancy', companyId, firstPage), 'planted', planted);
      expect((await admin.get('/occupancy')).json()).toHaveLength(1);
      expect((await admin.get('/occupancy')).json()).toHaveLength(1);
      expect(kept()).toMatchObject({ versions: 'planted', value: planted });
      const key = `dashboard\n${companyId}\n${todayIso().slice(0, 7)}-01`;
      keptFactsOf(t.database).set(key, 'planted', { json: '{"planted":true}' });
      expect((await admin.get('/dashboard')).json()).toMatchObject({ counts: { available_units: 1 } });
    });
  });
});
