import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeredNullable, entityList, listRowSchema, recordSchema } from '@kodi/domain';
import { seedDemoData } from '../db/seed/demo.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { setupApp, type TestContext } from '../test/harness.ts';
import { serverEntities } from '../modules.ts';
import { buildWorld } from '../reliability/world.ts';

/**
 * What the entity routes answer is what their schemas (record-schema.ts, derived from the definitions)
 * say. Records are checked on the way out by the routes themselves; list pages are JSON text made by
 * the SQL and sent as they are, so they are checked here: on the demo company's data, and on a
 * company of the reliability world, whose records of every entity of the list are made from their
 * definitions (its optional fields left out: nulls) — an entity added to the list is checked without
 * a line for it here or in the demo.
 */
let t: TestContext;
/** the demo company's admin, and the world company's */
let clients: TestClient[];

beforeAll(async () => {
  t = await setupApp();
  const company = await buildCompany(t.database);
  await seedDemoData(t.database.db, company.id, new Date('2026-11-22T09:30:00Z'));
  // a currency of a monetary union has no country
  await t.database.query(
    `INSERT INTO currencies (currency_code, currency_name, symbol, decimal_places, country)
     VALUES ('XOF', 'CFA Franc BCEAO', 'CFA', 0, NULL)`,
  );
  const admin = await buildUser(t.database, { company_id: company.id, roles: ['admin'] });
  const client = new TestClient(t.app);
  await client.login(admin.email, admin.password);
  clients = [client, (await buildWorld(t, 'Shapes')).clients.admin];
}, 120_000);

afterAll(async () => {
  await t.app.close();
});

describe.each(serverEntities(entityList).map((e) => [e.def.name, e] as const))('%s', (name, e) => {
  it('answers list rows and records in the shape of their schemas', async () => {
    const listRow = listRowSchema(e.def);
    for (const client of clients) {
      const list = await client.get(`/${name}?page_size=500`);
      expect(list.statusCode, list.body).toBe(200);
      const rows = list.json<Record<string, unknown>[]>();
      // the world's company has its record of every entity; the demo's, of those it makes
      if (client === clients.at(-1)) expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const parsed = listRow.safeParse(row);
        expect(parsed.error?.issues ?? [], JSON.stringify(row)).toEqual([]);
      }
      // a record is checked by its route's response schema: a mismatch would be a 500
      for (const row of rows.slice(0, 20)) {
        const one = await client.get(`/${name}/${String(row.id)}`);
        expect(one.statusCode, one.body).toBe(200);
        expect(recordSchema(e.def).safeParse(one.json()).success).toBe(true);
      }
    }
  });

  // answered non-null where the column may be null: a 500 some day; the other way round, a type
  // the web must check for null for nothing (joined names, stored or not, are left out of that)
  it('answers null exactly where the table allows it', async () => {
    const table = e.sql.table;
    const columns = await t.database.query<{ column_name: string; is_nullable: string }>(
      `SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = $1`,
      [table],
    );
    const nullable = new Map(columns.map((c) => [c.column_name, c.is_nullable === 'YES']));
    const plain = e.def.fields.filter(
      (f) => !e.sql.expressions?.[f.name] && f.kind !== 'file' && nullable.has(f.name),
    );
    expect(plain.length).toBeGreaterThan(0);
    const wrong = plain.filter(
      (f) => answeredNullable(f) !== nullable.get(f.name) && !(f.readOnly && answeredNullable(f)),
    );
    expect(wrong.map((f) => `${table}.${f.name} answered nullable: ${String(answeredNullable(f))}`)).toEqual(
      [],
    );
  });
});
