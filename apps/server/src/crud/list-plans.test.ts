import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { resetDatabase, testDatabase, testDriver } from '../test/harness.ts';
import { entityList } from '@kodi/domain';
import { serverEntities } from '../modules.ts';
import { PgDialect } from 'drizzle-orm/pg-core';
import { listRecords, listWhere } from './list.ts';
import type { ListQuery, ServerEntity } from './server-entity.ts';

const user: SessionUser = {
  id: 1,
  email: 'plans@kodi.test',
  first_name: 'Plan',
  last_name: 'Checker',
  company_id: 1,
  roles: ['admin'],
  active: true,
  country_code: null,
  last_login_at: null,
  mfa_enabled: false,
  mfa_required: false,
};

/** `$n` replaced by its value as a literal: the statement as one text EXPLAIN can take. */
const inline = (text: string, params: unknown[]) =>
  text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  });

/**
 * The plans of the statements a list runs, with sorting and full reads made prohibitively dear
 * (enable_sort, enable_seqscan off): a plan that still sorts, or still reads a whole table, has no
 * index to serve that order or that search. Every sortable field of every entity, both ways, and
 * every searched field.
 */
describe(`every list order and search is served by an index (${testDriver})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase();
    await resetDatabase(database);
  });

  const plansOf = async (e: ServerEntity, query: ListQuery): Promise<string[]> => {
    const plans: string[] = [];
    const explaining = {
      ...database,
      query: async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
        database.db.transaction(async (tx) => {
          await tx.execute('SET LOCAL enable_sort = off');
          await tx.execute('SET LOCAL enable_seqscan = off');
          const res = (await tx.execute(`EXPLAIN ${inline(text, params)}`)) as unknown as {
            rows: { 'QUERY PLAN': string }[];
          };
          plans.push(res.rows.map((r) => r['QUERY PLAN']).join('\n'));
          return [] as T[];
        }),
    } satisfies Database;
    await listRecords(explaining, e, user, query);
    return plans;
  };

  const companyOwned = serverEntities(entityList).filter((e) => e.def.scope === 'company' && !e.scope);

  it('sorts by every sortable field, both ways, from an index', async () => {
    for (const e of companyOwned) {
      for (const field of e.def.sort) {
        for (const sort of [field, `-${field}`]) {
          for (const plan of await plansOf(e, { page: 1, page_size: 25, sort })) {
            expect(plan, `${e.def.name} sort=${sort}\n${plan}`).not.toMatch(/\bSort\b/);
            expect(plan, `${e.def.name} sort=${sort}\n${plan}`).not.toMatch(/Seq Scan on (\w+) t\b/);
          }
        }
      }
    }
  });

  // A property's rows (`property_id`, kept on each row) newest first: the list's default order, from
  // `(company_id, property_id, id)` at any depth; another order sorts the property's rows.
  it("reads a property's rows in the default order from an index", async () => {
    const byProperty = companyOwned.filter((e) => e.def.byProperty);
    expect(byProperty.map((e) => e.def.name).sort()).toEqual([
      'expenses',
      'maintenance_requests',
      'meter_readings',
      'meters',
      'occupancy',
      'payments',
      'units',
    ]);
    for (const e of byProperty) {
      for (const page of [1, 60]) {
        for (const plan of await plansOf(e, { page, page_size: 25, property_id: 7 })) {
          expect(plan, `${e.def.name} property_id\n${plan}`).not.toMatch(/\bSort\b/);
          // the page's statement (its keys joined to their rows); a deep page's count first is
          // any index that finds the company's rows of the property on a test's empty table
          if (/Nested Loop|Join/.test(plan))
            expect(plan, `${e.def.name} property_id\n${plan}`).toMatch(/property_id_list_idx/);
          else expect(plan, `${e.def.name} property_id\n${plan}`).not.toMatch(/Seq Scan/);
        }
      }
    }
  });

  /** The definitions of the indexes of a table, as PostgreSQL writes them back. */
  const indexesOf = async (table: string) =>
    (
      await database.query<{ def: string }>(`SELECT indexdef AS def FROM pg_indexes WHERE tablename = $1`, [
        table,
      ])
    ).map((r) => r.def);

  // On a test's few rows the planner rightly prefers a plain scan, so the index is looked for.
  it('searches one lowercased search_text column through its trigram index, made of every searched field', async () => {
    for (const e of companyOwned) {
      const defs = await indexesOf(e.sql.table);
      const { where } = listWhere(e, user, { q: 'Nam' });
      expect(new PgDialect().sqlToQuery(where).sql).toContain('t.search_text LIKE lower(');
      expect(
        defs.some((d) => d.includes('USING gin (search_text gin_trgm_ops)')),
        e.def.name,
      ).toBe(true);
      const [column] = await database.query<{ expr: string }>(
        `SELECT pg_get_expr(d.adbin, d.adrelid) AS expr FROM pg_attrdef d
           JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
          WHERE d.adrelid = $1::regclass AND a.attname = 'search_text'`,
        [e.sql.table],
      );
      for (const field of e.def.search) {
        // a generated name is written as its expression: a person's from first_name, an owner's
        // from company_name (and first_name)
        const written =
          field === 'full_name' ? 'first_name' : field === 'display_name' ? 'company_name' : field;
        expect(column?.expr ?? '', `${e.def.name}.${field}`).toContain(written);
      }
    }
  });

  it('has an index leading with (company_id, <field>) for every enum a list filters by', async () => {
    for (const e of companyOwned) {
      const defs = await indexesOf(e.sql.table);
      for (const f of e.def.fields.filter((d) => d.kind === 'enum')) {
        expect(
          defs.some((d) => d.includes(`(company_id, ${f.name}, id)`)),
          `${e.def.name}.${f.name}`,
        ).toBe(true);
      }
    }
  });
});
