import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase, testDriver } from '../test/harness.ts';
import type { Database } from './client.ts';
import { derivedScript, derivedTables, syncDerived } from './derived.ts';

/**
 * The triggers that keep totals and copied names are generated from one declaration (db/derived.ts):
 * what the database holds is compared with it, trigger by trigger and function by function, and no
 * other trigger of ours may exist (no migration writes one by hand any more).
 */
/**
 * The books' rules (issue 25), written by their migration (drizzle/0033_books_rules.sql), not by this
 * declaration: an entry balances at commit, posted entries never change, every company has its chart.
 */
const BOOKS_TRIGGERS = [
  'companies.companies_default_chart → books_company_created',
  'journal_entries.journal_entries_balanced → books_entry_balanced',
  'journal_entries.journal_entries_immutable → books_immutable',
  'journal_lines.journal_lines_balanced → books_entry_balanced',
  'journal_lines.journal_lines_immutable → books_immutable',
];
const BOOKS_FUNCTIONS = ['books_company_created', 'books_entry_balanced', 'books_immutable'];

describe(`derived data: the database holds what the declaration generates (${testDriver})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase();
  });

  it('has exactly the declared triggers, on the declared tables, calling the declared functions', async () => {
    const script = derivedScript();
    const rows = await database.query<{ name: string; table: string; fn: string; def: string }>(
      `SELECT t.tgname AS name, c.relname AS "table", p.proname AS fn, pg_get_triggerdef(t.oid) AS def
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
        ORDER BY 1`,
    );
    expect(rows.map((r) => `${r.table}.${r.name} → ${r.fn}`).sort()).toEqual(
      [...script.triggers.map((t) => `${t.table}.${t.name} → ${t.fn}`), ...BOOKS_TRIGGERS].sort(),
    );
    for (const t of script.triggers) {
      const def = rows.find((r) => r.name === t.name)?.def ?? '';
      expect(def, t.name).toContain(` ${t.timing} ${t.events} ON `);
      expect(def, t.name).toContain(`FOR EACH ${t.level}`);
    }
  });

  it('runs the generated function bodies, and nothing else of ours', async () => {
    const script = derivedScript();
    const rows = await database.query<{ name: string; src: string }>(
      `SELECT proname AS name, prosrc AS src FROM pg_proc
        WHERE pronamespace = 'public'::regnamespace AND prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql')
        ORDER BY 1`,
    );
    expect(rows.map((r) => r.name)).toEqual(
      [...script.functions.map((f) => f.name), ...BOOKS_FUNCTIONS].sort(),
    );
    for (const f of script.functions) expect(rows.find((r) => r.name === f.name)?.src, f.name).toBe(f.body);
  });

  it('installs once: a second start finds the same checksum and changes nothing', async () => {
    const before = await database.query<{ updated_at: string }>(
      `SELECT updated_at::text FROM derived_state WHERE name = 'derived'`,
    );
    expect(before).toHaveLength(1);
    expect(await syncDerived(database.db)).toBe(false);
    expect(await database.query(`SELECT updated_at::text FROM derived_state WHERE name = 'derived'`)).toEqual(
      before,
    );
  });

  it('copies names only along foreign keys: (company_id, <key>) references the copied table', async () => {
    const fks = await database.query<{ def: string; tbl: string }>(
      `SELECT conrelid::regclass::text AS tbl, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f'`,
    );
    for (const t of derivedTables()) {
      for (const [column, copy] of Object.entries(t.copies)) {
        expect(
          fks.some(
            (f) =>
              f.tbl === t.table &&
              f.def.startsWith(
                `FOREIGN KEY (company_id, ${copy.key}) REFERENCES ${copy.from}(company_id, id)`,
              ),
          ),
          `${t.table}.${column}`,
        ).toBe(true);
      }
    }
  });
});
