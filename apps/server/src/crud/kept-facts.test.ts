import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { validTenant, validUnit } from '../test/entities.ts';
import { keptFactsOf } from './kept-facts.ts';
import type { Database } from '../db/client.ts';

type Row = Record<string, unknown>;

describe(`kept search matches and page positions, checked by versions (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;

  beforeEach(async () => {
    // the facts below the pages kept (crud/kept-pages.test.ts): every page is read
    t = await setupApp({ keepPages: false });
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    admin = new TestClient(t.app);
    await admin.login((await buildUser(t.database, { company_id: companyId })).email, 'correct-horse-42');
  });
  afterEach(async () => {
    await t.app.close();
  });

  const make = async (path: string, body: Row): Promise<Row> => {
    const res = await admin.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json() as Row;
  };

  /** The versions of the company's tables now, as the list statements read them. */
  const versions = async (tables: string[]) =>
    (
      await t.database.query<{ v: string }>(
        `SELECT string_agg(table_name || ':' || data_version, ',' ORDER BY table_name) AS v
           FROM row_counts WHERE company_id = $1 AND table_name = ANY($2::text[])`,
        [companyId, `{${tables.join(',')}}`],
      )
    )[0]?.v ?? '';

  const ids = async (path: string) => ((await admin.get(path)).json() as Row[]).map((r) => Number(r.id));

  it('answers a search from its kept matches while nothing changed, and afresh after any write', async () => {
    const units = [
      await make('/units', validUnit({ name: 'Kololo A' })),
      await make('/units', validUnit({ name: 'Ntinda B' })),
    ];
    const grace = await make('/tenants', validTenant({ first_name: 'Grace', last_name: 'Namuli' }));
    const moses = await make('/tenants', validTenant({ first_name: 'Moses', last_name: 'Okello' }));
    const leases = [
      await make('/occupancy', {
        tenant_id: grace.id,
        unit_id: units[0]?.id,
        start_date: '2025-01-01',
        rate: 500_000,
      }),
      await make('/occupancy', {
        tenant_id: moses.id,
        unit_id: units[1]?.id,
        start_date: '2025-01-01',
        rate: 500_000,
      }),
    ];
    const [graceLease, mosesLease] = leases.map((l) => Number(l.id));

    expect(await ids('/occupancy?q=Namuli')).toEqual([graceLease]);
    const key = `search\noccupancy\n${companyId}\n\nNamuli`;
    const kept = keptFactsOf(t.database).get<{ ids: Record<string, number[]> }>(key);
    expect(kept?.versions).toBe(await versions(['occupancy', 'tenants', 'units']));

    // the page read is kept too, by its rows' ids
    const pageKey = `${key}\n\n1\n25`;
    expect(keptFactsOf(t.database).get<{ ids: number[] }>(pageKey)?.value.ids).toEqual([graceLease]);

    // while the versions are the same, the kept facts are what the search answers (here, planted
    // facts naming Moses prove they are read): a page read before by its ids, another page from
    // the kept matches
    keptFactsOf(t.database).set(pageKey, kept?.versions ?? '', { ids: [mosesLease], total: 1 });
    expect(await ids('/occupancy?q=Namuli')).toEqual([mosesLease]);
    keptFactsOf(t.database).set(key, kept?.versions ?? '', {
      ids: { tenant_name: [Number(moses.id)], unit_name: [] },
    });
    expect(await ids('/occupancy?q=Namuli&page_size=10')).toEqual([mosesLease]);

    // ...and any write to the tables it comes from, on any server (here, SQL beyond this one), is
    // seen at once: Moses becomes a Namuli, Grace no longer is
    await t.database.query(`UPDATE tenants SET last_name = 'Namuli' WHERE id = $1`, [moses.id]);
    await t.database.query(`UPDATE tenants SET last_name = 'Achieng' WHERE id = $1`, [grace.id]);
    expect(await ids('/occupancy?q=Namuli')).toEqual([mosesLease]);
    const res = await admin.get('/occupancy?q=Namuli');
    expect(res.headers['x-total-count']).toBe('1');
    // a unit renamed, a lease added: the search follows
    await t.database.query(`UPDATE units SET name = 'Namuli Court' WHERE id = $1`, [units[0]?.id]);
    expect(await ids('/occupancy?q=Namuli')).toEqual(
      [Number(mosesLease), Number(graceLease)].sort((a, b) => b - a),
    );
    await make('/occupancy', {
      tenant_id: grace.id,
      unit_id: units[0]?.id,
      start_date: '2026-01-01',
      rate: 600_000,
    });
    expect((await admin.get('/occupancy?q=Namuli')).headers['x-total-count']).toBe('3');
    // another company's search keeps its own
    const other = await buildCompany(t.database, { name: 'Other' });
    const stranger = new TestClient(t.app);
    await stranger.login((await buildUser(t.database, { company_id: other.id })).email, 'correct-horse-42');
    expect((await stranger.get('/occupancy?q=Namuli')).json()).toEqual([]);
  });

  it('starts deep pages from kept positions, in every order, and sees writes at once', async () => {
    // 620 units, monthly rates with many ties (the order's tie-break is the id)
    await t.database.query(
      `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate)
       SELECT $1, 'Unit ' || lpad(g::text, 4, '0'), 'Plot ' || g, (g % 7 + 1) * 1000, 1, 1
         FROM generate_series(1, 620) g`,
      [companyId],
    );
    const truth = async (order: string) =>
      (
        await t.database.query<{ id: number }>(
          `SELECT id FROM units WHERE company_id = $1 ORDER BY ${order}`,
          [companyId],
        )
      ).map((r) => Number(r.id));
    const orders: [string, string][] = [
      ['', 'id DESC'],
      ['-monthly_rate', 'monthly_rate DESC, id DESC'],
      ['monthly_rate', 'monthly_rate ASC, id ASC'],
    ];
    const check = async () => {
      for (const [sort, order] of orders) {
        const all = await truth(order);
        // forwards, backwards and jumping about: each page from the nearest kept position before it
        for (const page of [21, 22, 24, 23, 25, 21, 26]) {
          const got = await ids(`/units?page=${page}&page_size=25${sort ? `&sort=${sort}` : ''}`);
          expect(got, `${sort} page ${page}`).toEqual(all.slice((page - 1) * 25, page * 25));
        }
      }
    };
    await check();
    const kept = keptFactsOf(t.database).get<Map<number, number>>(
      `positions\nunits\n${companyId}\n-monthly_rate`,
    );
    expect([...(kept?.value.keys() ?? [])].sort((a, b) => a - b)).toEqual([500, 525, 550, 575, 600]);
    expect(kept?.versions).toBe(await versions(['units']));

    // a planted position is followed while the versions hold (the page starts at the row named)...
    const all = await truth('monthly_rate DESC, id DESC');
    keptFactsOf(t.database).set(
      `positions\nunits\n${companyId}\n-monthly_rate`,
      kept?.versions ?? '',
      new Map([[500, all[0]]]),
    );
    expect(await ids('/units?page=21&page_size=25&sort=-monthly_rate')).toEqual(all.slice(0, 25));

    // ...and a write anywhere moves every page: a unit added, one deleted, a rate changed
    await t.database.query(
      `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate) VALUES ($1, 'New', 'Plot 0', 3000, 1, 1)`,
      [companyId],
    );
    await check();
    await t.database.query(`DELETE FROM units WHERE company_id = $1 AND name = 'Unit 0100'`, [companyId]);
    await check();
    await t.database.query(
      `UPDATE units SET monthly_rate = 99000 WHERE company_id = $1 AND name = 'Unit 0300'`,
      [companyId],
    );
    await check();
    // past the end: no rows, the total still right
    const past = await admin.get('/units?page=40&page_size=25');
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('620');
  });
});

describe('kept facts: bounded by weight, least recently used out', () => {
  it('drops the least recently used past the bound, and keeps nothing too big', () => {
    const kept = keptFactsOf({} as Database);
    for (let i = 0; i < 10; i++) kept.set(`k${i}`, 'v', i, 100_000);
    expect(kept.get('k0')?.value).toBe(0); // now the most recently used
    kept.set('k10', 'v', 10, 100_000); // over 1,000,000: k1, the least recently used, goes
    expect(kept.get('k1')).toBeUndefined();
    expect(kept.get('k0')?.value).toBe(0);
    expect(kept.get('k10')?.value).toBe(10);
    kept.set('huge', 'v', 'x', 100_001);
    expect(kept.get('huge')).toBeUndefined();
    expect(kept.get('k2')?.value).toBe(2);
    // a fact set again replaces its weight
    kept.set('k2', 'w', 2, 1);
    expect(kept.get('k2')).toMatchObject({ versions: 'w', weight: 1 });
  });
});
