import { describe, expect, it } from 'vitest';
import { getTableName, is } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { entityList, field, type EntityDefinition } from '@kodi/domain';
import { gadgets } from '@kodi/domain/testing';
import * as schema from '../db/schema.ts';
import { derivedTables, type TableDerived } from '../db/derived.ts';
import { serverEntities } from '../modules.ts';
import type { ServerEntity } from './server-entity.ts';

/**
 * A field a list shows, sorts or searches by that the client does not write is filled by something:
 * a copy the database keeps (`copyOf` on the field: db/derived.ts makes its trigger), an expression
 * or a join of the entity's server part (`sql.expressions`), a column PostgreSQL computes (generated),
 * a total kept on the row (an `onRow` aggregate of db/derived.ts), or a value the server part's
 * `prepare` writes (`writes`). Otherwise it is answered null while every other test passes (issue 24:
 * a copied `unit_name` without its trigger).
 */
const tables = new Map(
  (Object.values(schema) as unknown[]).flatMap((v) =>
    is(v, PgTable) ? [[getTableName(v), v] as const] : [],
  ),
);
const generatedColumns = (table: string): Set<string> => {
  const t = tables.get(table);
  return new Set(t ? getTableConfig(t).columns.flatMap((c) => (c.generated ? [c.name] : [])) : []);
};

/** The list's fields the client does not write: its columns, sorts and searches, not in its shape. */
const readOnlyListFields = (def: EntityDefinition): string[] =>
  [...new Set([...def.columns.map((c) => c.field), ...def.sort, ...def.search])].filter(
    (name) => !(name in def.shape) && name !== 'id' && name !== 'company_id',
  );

/** Where each of them comes from, or undefined: the fields nothing fills. */
const unaccounted = (e: ServerEntity, derived: readonly TableDerived[]): string[] => {
  const own = derived.find((t) => t.table === e.sql.table);
  const copies = new Set(Object.keys(own?.copies ?? {}));
  const totals = new Set(
    derived.flatMap((t) =>
      t.aggregates
        .filter((a) => a.onRow && a.into === e.sql.table)
        .flatMap((a) => [...(a.count ? [a.count] : []), ...(a.sums ?? []).map(([c]) => c)]),
    ),
  );
  const generated = generatedColumns(e.sql.table);
  const filled = (name: string) =>
    copies.has(name) ||
    e.sql.expressions?.[name] !== undefined ||
    generated.has(name) ||
    totals.has(name) ||
    (e.writes ?? []).includes(name);
  return readOnlyListFields(e.def)
    .filter((name) => !filled(name))
    .map((name) => `${e.def.name}.${name}`);
};

describe('read-only list fields', () => {
  it('of every entity are a copy, an expression, a join, a computed column, a kept total or written by its rules', () => {
    const derived = derivedTables();
    const served = serverEntities(entityList);
    expect(served.flatMap((e) => unaccounted(e, derived))).toEqual([]);
    // and there are some of each kind, so the test above reads what it means to
    const fields = served.flatMap((e) => readOnlyListFields(e.def).map((n) => `${e.def.name}.${n}`));
    expect(fields).toEqual(
      expect.arrayContaining([
        'payments.unit_name', // a copy
        'properties.units_count', // a total kept on the row
        'properties.occupancy_percent', // a computed column
        'tenants.full_name',
        'payments.receipt_number', // written by its rules
      ]),
    );
  });

  it('copied names are columns of their tables', () => {
    for (const t of derivedTables()) {
      const table = tables.get(t.table);
      expect(table, t.table).toBeDefined();
      const columns = table ? getTableConfig(table).columns.map((c) => c.name) : [];
      for (const column of Object.keys(t.copies)) expect(columns, `${t.table}.${column}`).toContain(column);
    }
  });

  it('of an added entity: its copied name is accounted for by its definition alone, a plain read-only one is not', () => {
    const plain = (def: EntityDefinition): ServerEntity => ({ def, sql: { table: def.name } });
    const withGadgets = [...entityList, gadgets];
    expect(unaccounted(plain(gadgets), derivedTables(withGadgets))).toEqual([]);
    expect(Object.keys(derivedTables(withGadgets).find((t) => t.table === 'gadgets')?.copies ?? {})).toEqual([
      'unit_name',
    ]);

    // the same name declared read-only but not a copy: nothing fills it, and the test says so
    const uncopied: EntityDefinition = {
      ...gadgets,
      fields: gadgets.fields.map((f) => (f.name === 'unit_name' ? field.readOnly('unit_name', 'Unit') : f)),
    };
    const withUncopied = [...entityList, uncopied];
    expect(unaccounted(plain(uncopied), derivedTables(withUncopied))).toEqual(['gadgets.unit_name']);
    // a read-only column of its own, with nothing to fill it
    const serial: EntityDefinition = {
      ...gadgets,
      fields: [...gadgets.fields, field.readOnly('serial', 'Serial')],
      columns: [...gadgets.columns, { field: 'serial', label: 'Serial' }],
    };
    expect(unaccounted(plain(serial), derivedTables([...entityList, serial]))).toEqual(['gadgets.serial']);
    expect(
      unaccounted({ ...plain(serial), writes: ['serial'] }, derivedTables([...entityList, serial])),
    ).toEqual([]);
  });
});
