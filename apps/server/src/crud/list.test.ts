import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';

/**
 * Deep pages are read from the nearer end of the list (crud/list.ts): every page, forward or read
 * backwards and turned round, must hold exactly the rows the whole ordered list holds there,
 * NULLs included, with the list's total.
 */
describe(`list pages at any depth (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  const ROWS = 1_634;
  const LAST = Math.ceil(ROWS / 25);

  beforeAll(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Deep Lists' })).id;
    const other = await buildCompany(t.database, { name: 'Other' });
    admin = new TestClient(t.app);
    await admin.login((await buildUser(t.database, { company_id: companyId })).email, 'correct-horse-42');
    await t.database.query(
      `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate)
       SELECT $1, 'Unit ' || g, 'Road ' || g, 100, 30, 5 FROM generate_series(1, 7) g`,
      [companyId],
    );
    // expenses with repeated amounts and dates (ties broken by id) and a third without a unit (NULLs)
    await t.database.query(
      `INSERT INTO expenses (company_id, unit_id, expense_date, amount, category)
       SELECT $1, CASE WHEN g % 3 = 0 THEN NULL ELSE (SELECT min(id) FROM units WHERE company_id = $1) + g % 7 END,
              date '2025-01-01' + (g % 40), 1000 * (g % 13), (ARRAY['plumbing','fixes','other'])[1 + g % 3]
         FROM generate_series(1, $2::int) g`,
      [companyId, ROWS],
    );
    await t.database.query(
      `INSERT INTO expenses (company_id, expense_date, amount, category) VALUES ($1, '2025-01-01', 5, 'other')`,
      [other.id],
    );
  });
  afterAll(async () => {
    await t.app.close();
  });

  const orders: Record<string, string> = {
    '': 'id DESC',
    amount: 'amount ASC, id ASC',
    '-amount': 'amount DESC, id DESC',
    unit_name: 'unit_name ASC, id ASC',
    '-unit_name': 'unit_name DESC, id DESC',
    '-expense_date': 'expense_date DESC, id DESC',
  };

  it('answers every page, near the start, in the middle and near the end, as the whole list has it', async () => {
    for (const [sort, order] of Object.entries(orders)) {
      const all = (
        await t.database.query<{ id: number }>(
          `SELECT id FROM expenses WHERE company_id = $1 ORDER BY ${order}`,
          [companyId],
        )
      ).map((r) => Number(r.id));
      expect(all).toHaveLength(ROWS);
      for (const [page, size] of [
        [1, 25],
        [40, 25],
        [41, 25],
        [LAST - 5, 25],
        [LAST - 1, 25],
        [LAST, 25], // the last, partial page
        [LAST + 1, 25], // past the end
        [3, 500],
        [13, 100],
      ] as const) {
        const res = await admin.get(`/expenses?page=${page}&page_size=${size}${sort ? `&sort=${sort}` : ''}`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-total-count'], `${sort} page ${page}`).toBe(String(ROWS));
        expect(
          res.json().map((r: { id: number }) => r.id),
          `${sort} page ${page} of ${size}`,
        ).toEqual(all.slice((page - 1) * size, page * size));
      }
    }
  });

  it('counts a search up to 1,000 rows, says there are more, and pages it to its end', async () => {
    const all = (
      await t.database.query<{ id: number }>(
        `SELECT id FROM expenses WHERE company_id = $1 AND (category ILIKE '%nit%' OR unit_name ILIKE '%nit%')
          ORDER BY amount DESC, id DESC`,
        [companyId],
      )
    ).map((r) => Number(r.id));
    expect(all.length).toBeGreaterThan(1_050);
    expect(all.length).toBeLessThan(ROWS);
    const last = Math.ceil(all.length / 25);
    for (const page of [1, 2, 40, 41, last - 1, last, last + 1]) {
      const res = await admin.get(`/expenses?q=nit&sort=-amount&page=${page}`);
      expect(res.headers['x-total-count'], `page ${page}`).toBe('1000');
      expect(res.headers['x-total-count-exact'], `page ${page}`).toBe('false');
      expect(res.json().map((r: { id: number }) => r.id)).toEqual(all.slice((page - 1) * 25, page * 25));
    }
    // a narrower search is counted exactly
    const few = await admin.get(`/expenses?q=fixes&page=2`);
    const fixes = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM expenses WHERE company_id = $1 AND category = 'fixes'`,
      [companyId],
    );
    expect(few.headers['x-total-count']).toBe(String(fixes[0]?.n));
    expect(few.headers['x-total-count-exact']).toBeUndefined();
  });
});
