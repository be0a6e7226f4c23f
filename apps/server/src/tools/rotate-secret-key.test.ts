import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPglite } from '../db/client.ts';
import { loadConfig } from '../config.ts';
import { createSecretBox, dataDirKey, keyIdOf, parseSecretKey, purposeOf } from '../platform/secrets.ts';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { resealAll, rotateSecretKey } from './rotate-secret-key.ts';

const OLD = parseSecretKey('a1'.repeat(32));
const NEW = parseSecretKey('b2'.repeat(32));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-rotate-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe(`rotating the key of stored secrets (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('seals every stored secret again under the new key, in one transaction', async () => {
    const company = await buildCompany(t.database);
    const users = await Promise.all([1, 2].map(() => buildUser(t.database, { company_id: company.id })));
    const before = createSecretBox([OLD]);
    for (const u of users) {
      await t.database.query('UPDATE users SET mfa_secret = $2 WHERE id = $1', [
        u.id,
        before.seal(`SECRET${u.id}`, purposeOf('users', 'mfa_secret', u.id)),
      ]);
    }
    // webhook secrets: one sealed under the old key, one kept in clear from before sealing began
    const other = await buildCompany(t.database);
    await t.database.query(
      `INSERT INTO payment_webhooks (company_id, company_key, secret) VALUES ($1, $2, $3), ($4, $5, $6)`,
      [
        company.id,
        'a'.repeat(32),
        before.seal('whsec_sealed', purposeOf('payment_webhooks', 'secret', company.id)),
        other.id,
        'b'.repeat(32),
        'whsec_clear',
      ],
    );
    const count = await resealAll(t.database, createSecretBox([NEW, OLD]), createSecretBox([NEW]));
    expect(count).toBe(4);
    const after = createSecretBox([NEW]);
    const hooks = await t.database.query<{ company_id: number; secret: string }>(
      'SELECT company_id, secret FROM payment_webhooks ORDER BY company_id',
    );
    expect(
      hooks.map((h) => after.open(h.secret, purposeOf('payment_webhooks', 'secret', Number(h.company_id)))),
    ).toEqual(['whsec_sealed', 'whsec_clear']);
    for (const h of hooks) expect(h.secret.split('.')[1]).toBe(keyIdOf(NEW));
    for (const u of users) {
      const rows = await t.database.query<{ mfa_secret: string }>(
        'SELECT mfa_secret FROM users WHERE id = $1',
        [u.id],
      );
      const stored = rows[0]?.mfa_secret ?? '';
      expect(stored.split('.')[1]).toBe(keyIdOf(NEW));
      expect(after.open(stored, purposeOf('users', 'mfa_secret', u.id))).toBe(`SECRET${u.id}`);
      expect(() => before.open(stored, purposeOf('users', 'mfa_secret', u.id))).toThrow();
    }
    // a value no key opens: nothing is changed
    await t.database.query(`UPDATE users SET mfa_secret = 'v1.00000000.a.b.c' WHERE id = $1`, [users[0]?.id]);
    await expect(resealAll(t.database, after, createSecretBox([OLD]))).rejects.toThrow();
    const kept = await t.database.query<{ mfa_secret: string }>(
      'SELECT mfa_secret FROM users WHERE id = $1',
      [users[1]?.id],
    );
    expect(kept[0]?.mfa_secret.split('.')[1]).toBe(keyIdOf(NEW));
  });
});

describe('rotating the embedded database’s key file', () => {
  it.skipIf(testDriver === 'pg')(
    'makes a new DATA_DIR/secret.key, keeps the old one beside it, and the secrets open with the new one',
    async () => {
      const dataDir = path.join(tmp, 'data');
      const first = await dataDirKey(dataDir);
      let db = await openPglite(path.join(dataDir, 'pglite'));
      await db.query(`INSERT INTO companies (name) VALUES ('Rotating')`);
      const user = await db.query<{ id: number }>(
        `INSERT INTO users (email, first_name, last_name, company_id) SELECT 'r@x.test', 'R', 'X', id FROM companies RETURNING id`,
      );
      const id = Number(user[0]?.id);
      await db.query('UPDATE users SET mfa_secret = $2 WHERE id = $1', [
        id,
        createSecretBox([first]).seal('ROTATEME', purposeOf('users', 'mfa_secret', id)),
      ]);
      await db.close();

      const result = await rotateSecretKey(loadConfig({ DATA_DIR: dataDir }));
      expect(result.resealed).toBe(1);
      const now = await dataDirKey(dataDir);
      expect(now.equals(first)).toBe(false);
      expect(result.keyId).toBe(keyIdOf(now));
      expect(
        parseSecretKey(fs.readFileSync(path.join(dataDir, 'secret.key.old'), 'utf8')).equals(first),
      ).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'secret.key.next'))).toBe(false);
      db = await openPglite(path.join(dataDir, 'pglite'));
      const rows = await db.query<{ mfa_secret: string }>('SELECT mfa_secret FROM users WHERE id = $1', [id]);
      await db.close();
      expect(
        createSecretBox([now]).open(rows[0]?.mfa_secret ?? '', purposeOf('users', 'mfa_secret', id)),
      ).toBe('ROTATEME');
    },
    120_000,
  );
});
