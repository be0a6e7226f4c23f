import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { entityList } from '@kodi/domain';
import * as schema from './db/schema.ts';
import { kodiModules } from './modules.ts';
import type { KodiModule } from './modules/kodi-module.ts';

// One writer per table (docs/architecture.md, "Modules"): each table is inserted into, updated and deleted from by
// the code of its owner only. The owners are the modules' `owns` (src/modules.ts lists them), the
// generic records (crud/: every entity's table) and the few tables of the request plugins and the
// database's own machinery below. The scan reads the server's source files, but tests and what
// sits at the top (bench/, tools/, test/, reliability/) and the demo and reference data
// (db/seed/): they make data for tests and measurements, they are not the application.

const src = import.meta.dirname;
const EXEMPT = [/\.test\.ts$/, /^(bench|tools|test|reliability)\//, /^db\/seed\//];

/** Owners that are no module: the request plugins' tables and what the database keeps itself. */
const otherOwners: Record<string, string> = {
  sessions: 'plugins/session.ts',
  rate_limits: 'plugins/rate-limit.ts',
  derived_state: 'db/derived.ts',
  // kept by the triggers db/derived.ts generates (totals, counts, a deleted payment's trail)
  row_counts: 'db/derived.ts',
  status_counts: 'db/derived.ts',
  monthly_totals: 'db/derived.ts',
  property_monthly_totals: 'db/derived.ts',
  lease_payment_totals: 'db/derived.ts',
  lease_charge_totals: 'db/derived.ts',
  revoked_receipts: 'db/derived.ts',
  // the roles are reference data (db/seed/reference-data.ts)
  roles: 'db/seed/',
};

/**
 * Writers that remain outside their table's owner, each with why; the test fails when one is gone
 * (remove it here) and when any other appears. None is left (issue 24): the identity tables' writes
 * are modules/identity's (accounts.ts, mfa.ts, sign-in.ts, the first run's administrator too), the
 * sessions' plugins/session.ts's, the templates' modules/messaging's, the audit entries
 * modules/audit's (`auditEntriesFrom` where an entry is written in its change's statement), and an
 * entity's table is written by crud/: its records through records.ts (the entity's `prepare` and an
 * audit entry), what is no record change through record-columns.ts (a flag, a lease's late-fee
 * policy, the portal's writes, the first run's company).
 */
const pending: readonly (readonly [table: string, file: string, why: string])[] = [];

type Write = { table: string; file: string; how: string };

const tableOf = new Map<string, string>(
  Object.entries(schema).flatMap(([name, value]) =>
    is(value, PgTable) ? [[name, getTableName(value)]] : [],
  ),
);
const tables = new Set(tableOf.values());

/** Comments say what code does ("INSERT INTO charges" in a sentence): only code is read. */
const withoutComments = (text: string) =>
  text.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');

/** The tables a source text inserts into, updates or deletes from: raw SQL, and Drizzle's `.insert(t)` / `.update(t)` / `.delete(t)`. */
export const writesIn = (text: string): { table: string; how: string }[] => {
  const code = withoutComments(text);
  const out: { table: string; how: string }[] = [];
  for (const m of code.matchAll(/\bINSERT\s+INTO\s+"?([a-z_][a-z0-9_]*)"?/gi))
    out.push({ table: (m[1] ?? '').toLowerCase(), how: 'INSERT' });
  for (const m of code.matchAll(
    /\bUPDATE\s+"?([a-z_][a-z0-9_]*)"?(?:\s+(?:AS\s+)?(?!SET\b)([a-z_]\w*))?\s+SET\b/gi,
  ))
    if (m[1]?.toLowerCase() !== 'set') out.push({ table: (m[1] ?? '').toLowerCase(), how: 'UPDATE' });
  for (const m of code.matchAll(/\bDELETE\s+FROM\s+"?([a-z_][a-z0-9_]*)"?/gi))
    out.push({ table: (m[1] ?? '').toLowerCase(), how: 'DELETE' });
  for (const m of code.matchAll(/\.(insert|update|delete)\(\s*(?:schema\.)?(\w+)\s*\)/g)) {
    const table = tableOf.get(m[2] ?? '');
    if (table) out.push({ table, how: `.${m[1]}()` });
  }
  return out.filter((w) => tables.has(w.table));
};

const sourceFiles = (dir = src): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(src, full).split(path.sep).join('/')] : [];
  });

/** Every module.ts of features/ and modules/, with the module it exports and its folder. */
const moduleFiles = async (): Promise<{ home: string; module: KodiModule }[]> => {
  const found = sourceFiles().filter((f) => /^(features|modules)\/[^/]+\/module\.ts$/.test(f));
  const out: { home: string; module: KodiModule }[] = [];
  for (const file of found) {
    const exported = (await import(pathToFileURL(path.join(src, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(exported))
      out.push({ home: `${path.posix.dirname(file)}/`, module: value as KodiModule });
  }
  return out;
};

/** Each table's owner: the folder (or file) whose code alone writes it. */
const ownersOf = async () => {
  const owners = new Map<string, string[]>();
  const own = (table: string, home: string) => owners.set(table, [...(owners.get(table) ?? []), home]);
  for (const { home, module } of await moduleFiles()) for (const t of module.owns ?? []) own(t, home);
  for (const def of entityList) own(def.name, 'crud/');
  for (const [t, home] of Object.entries(otherOwners)) own(t, home);
  return owners;
};

const isExempt = (file: string) => EXEMPT.some((re) => re.test(file));

/** The writes of the source files (the exempt ones left out) that are not their table's owner's. */
const strangers = (owners: Map<string, string[]>, files: readonly { file: string; text: string }[]) =>
  files.flatMap(({ file, text }) =>
    isExempt(file)
      ? []
      : writesIn(text)
          .filter((w) => !(owners.get(w.table) ?? []).some((home) => file === home || file.startsWith(home)))
          .map((w): Write => ({ ...w, file })),
  );

const readSources = () =>
  sourceFiles().map((file) => ({ file, text: fs.readFileSync(path.join(src, file), 'utf8') }));

describe('one writer per table', () => {
  it('lists every module.ts once in the composition root, each in its own folder', async () => {
    const found = await moduleFiles();
    expect(found.map((f) => f.module).every((m) => kodiModules.includes(m))).toBe(true);
    expect(new Set(kodiModules).size).toBe(kodiModules.length);
    expect(kodiModules.length).toBe(found.length);
  });

  it('gives every table of the schema exactly one owner, and no owner a table that does not exist', async () => {
    const owners = await ownersOf();
    expect([...tables].filter((t) => (owners.get(t) ?? []).length !== 1)).toEqual([]);
    expect([...owners.keys()].filter((t) => !tables.has(t))).toEqual([]);
  });

  it('finds raw INSERT, UPDATE (with or without an alias) and DELETE and Drizzle writes, not reads, locks nor comments', () => {
    const text = [
      'await db.execute(sql`INSERT INTO charges (a) VALUES (1)`);',
      "await db.query('UPDATE messages m SET status = $1');",
      'await db.query(`UPDATE rate_changes AS r SET rate = 1`);',
      'await tx.insert(users).values({});',
      'await tx.update(schema.userRoles).set({});',
      '// INSERT INTO payments: a comment',
      '/* UPDATE tenants SET x */',
      'sql`SELECT 1 FROM occupancy FOR UPDATE OF o`;',
      'sql`INSERT INTO counters (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET value = 2`;',
      "createHmac('sha256', secret).update(body);",
      'await tx.execute(sql`DELETE FROM sessions WHERE mfa_user_id = ${id}`);',
      'await db.delete(loginAttempts).where(x);',
      'pending.delete(p);',
    ].join('\n');
    expect(writesIn(text)).toEqual([
      { table: 'charges', how: 'INSERT' },
      { table: 'counters', how: 'INSERT' },
      { table: 'messages', how: 'UPDATE' },
      { table: 'rate_changes', how: 'UPDATE' },
      { table: 'sessions', how: 'DELETE' },
      { table: 'users', how: '.insert()' },
      { table: 'user_roles', how: '.update()' },
      { table: 'login_attempts', how: '.delete()' },
    ]);
  });

  it('refuses a write outside its owner: a feature inserting a charge, or a message, breaks the rule', async () => {
    const owners = await ownersOf();
    const planted = [
      {
        file: 'features/rent-cycle/zz-writers.ts',
        text: 'sql`INSERT INTO charges (company_id) VALUES (1)`;',
      },
      { file: 'features/portal/zz-writers.ts', text: 'sql`INSERT INTO messages (company_id) VALUES (1)`;' },
      { file: 'crud/zz-writers.ts', text: "db.query('UPDATE audit_entries SET summary = 1');" },
      { file: 'features/security/zz-writers.ts', text: 'sql`DELETE FROM sessions WHERE user_id = 1`;' },
      // the owners' own files, and a test, may
      { file: 'modules/leases/zz-writers.ts', text: 'sql`INSERT INTO charges (company_id) VALUES (1)`;' },
      {
        file: 'features/portal/zz-writers.test.ts',
        text: 'sql`INSERT INTO messages (company_id) VALUES (1)`;',
      },
    ];
    expect(strangers(owners, planted)).toEqual([
      { table: 'charges', how: 'INSERT', file: 'features/rent-cycle/zz-writers.ts' },
      { table: 'messages', how: 'INSERT', file: 'features/portal/zz-writers.ts' },
      { table: 'audit_entries', how: 'UPDATE', file: 'crud/zz-writers.ts' },
      { table: 'sessions', how: 'DELETE', file: 'features/security/zz-writers.ts' },
    ]);
  });

  it('finds no write of a table outside its owner in the sources, but the pending ones listed', async () => {
    const found = strangers(await ownersOf(), readSources());
    const key = (table: string, file: string) => `${table} ${file}`;
    const allowed = new Set(pending.map(([table, file]) => key(table, file)));
    expect(found.filter((w) => !allowed.has(key(w.table, w.file)))).toEqual([]);
    // a pending writer that is gone is taken off the list
    const seen = new Set(found.map((w) => key(w.table, w.file)));
    expect(pending.filter(([table, file]) => !seen.has(key(table, file)))).toEqual([]);
  });

  it('names every advisory lock once (db/advisory-locks.ts): no lock number written elsewhere', () => {
    const literal = /pg_advisory(?:_xact)?_(?:un)?lock(?:_shared)?\(\s*\d/;
    const offenders = readSources()
      .filter(({ file }) => !isExempt(file) && file !== 'db/advisory-locks.ts')
      .filter(({ text }) => literal.test(withoutComments(text)))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
    expect(literal.test("client.query('SELECT pg_advisory_lock(4241)')")).toBe(true);
    expect(literal.test('sql`SELECT pg_advisory_xact_lock(${advisoryLocks.startUp})`')).toBe(false);
  });
});
