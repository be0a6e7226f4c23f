import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditAction, auditNoun, auditTitle, entityList } from '@kodi/domain';

// The audit log says what happened in words (issue 26): every table the server writes audit
// entries about must have a noun, and every action words. The tables and actions are read from
// the source of every call of an audit writer, so a new one without words fails here.

const src = path.resolve(import.meta.dirname, '../..');
const WRITERS =
  /\b(recordAuditEntry|recordAuditEntries|auditEntriesFrom|recordUserChange|recordSignIn|audit)\s*\(/;
const EXEMPT = [/\.test\.ts$/, /^(bench|test|reliability)\//, /^db\/seed\//];

const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    return d.isDirectory() ? files(full) : d.name.endsWith('.ts') ? [full] : [];
  });

/** The `entity: '...'` and `action: '...'` literals of the files that write audit entries. */
const written = () => {
  const entitiesSeen = new Set<string>();
  const actionsSeen = new Set<string>();
  for (const file of files(src)) {
    const rel = path.relative(src, file);
    if (EXEMPT.some((re) => re.test(rel))) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (!WRITERS.test(text) || !/audit/i.test(text)) continue;
    for (const m of text.matchAll(/\bentity:\s*'([a-z_]+)'/g)) entitiesSeen.add(m[1] as string);
    for (const m of text.matchAll(/\baction:\s*(?:[^,\n]*\?\s*)?'([a-z_]+)'(?:\s*:\s*'([a-z_]+)')?/g)) {
      actionsSeen.add(m[1] as string);
      if (m[2]) actionsSeen.add(m[2]);
    }
    // the SQL of modules/audit/audit.ts: sign-ins and access changes are about `users`
    for (const m of text.matchAll(/SELECT company_id, '([a-z_]+)', id/g)) entitiesSeen.add(m[1] as string);
  }
  // crud/ writes create, update and delete entries of every entity
  for (const e of entityList) entitiesSeen.add(e.name);
  return { entities: [...entitiesSeen].sort(), actions: [...actionsSeen].sort() };
};

describe('the audit log in words', () => {
  const seen = written();

  it('finds the audit writers of the code (the scan itself works)', () => {
    expect(seen.entities).toEqual(
      expect.arrayContaining(['charge_waivers', 'statement_lines', 'users', 'company_settings', 'payments']),
    );
    expect(seen.actions).toEqual(expect.arrayContaining(['match', 'ignore', 'unmatch', 'access', 'import']));
  });

  it('has a noun for every table the code writes audit entries about', () => {
    const missing = seen.entities.filter((e) => auditNoun(e) === undefined);
    expect(missing, `no words in packages/domain/src/audit-words.ts for: ${missing.join(', ')}`).toEqual([]);
  });

  it('has words for every action the code writes, and each is an action of the log', () => {
    expect(seen.actions.filter((a) => !(auditAction.values as readonly string[]).includes(a))).toEqual([]);
    for (const action of auditAction.values)
      for (const entity of seen.entities) {
        const title = auditTitle({ action, entity, before: null, after: null });
        // a sentence: capitalised, no table name with underscores
        expect(title).toMatch(/^[A-Z]/);
        expect(title).not.toMatch(/_/);
      }
  });
});
