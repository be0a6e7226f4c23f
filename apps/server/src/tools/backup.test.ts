import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { bootstrap } from '../modules/first-run.ts';
import { testConfig } from '../test/harness.ts';
import { rotateWebhookSecret } from '../modules/companies/payment-webhook.ts';
import { createSecretBox, parseSecretKey, purposeOf } from '../platform/secrets.ts';
import { backup, restore } from './backup.ts';

/** Every table with its row count and a digest of its rows in key order. */
const fingerprint = async (database: Database) => {
  const tables = await database.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const out: Record<string, { rows: number; digest: string }> = {};
  for (const { table_name } of tables) {
    const r = await database.query<{ rows: number; digest: string | null }>(
      `SELECT count(*)::int AS rows, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${table_name} t`,
    );
    out[table_name] = { rows: Number(r[0]?.rows), digest: r[0]?.digest ?? '' };
  }
  return out;
};

/**
 * Stores a TOTP secret and a webhook secret the way the server does (sealed) and answers what must
 * not be found in a backup (the secrets) and what must (the webhook's company key, in clear: proof
 * that the search reads the stored text).
 */
const storeSecrets = async (database: Database) => {
  const box = createSecretBox([parseSecretKey('c3'.repeat(32))]);
  const [user] = await database.query<{ id: number; company_id: number }>(
    'SELECT id, company_id FROM users WHERE company_id IS NOT NULL ORDER BY id LIMIT 1',
  );
  const totp = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  await database.query('UPDATE users SET mfa_secret = $2 WHERE id = $1', [
    user?.id,
    box.seal(totp, purposeOf('users', 'mfa_secret', Number(user?.id))),
  ]);
  const hook = await rotateWebhookSecret(database, box, 'http://kodi.test', Number(user?.company_id));
  return {
    secrets: [totp, hook.secret, hook.secret.slice('whsec_'.length)],
    key: hook.url.split('/').pop() ?? '',
  };
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-backup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('backup and restore', () => {
  it.skipIf(process.env.TEST_DB === 'pg')(
    'round-trips the embedded database and every table matches',
    async () => {
      const dataA = path.join(tmp, 'a');
      let db = await openPglite(path.join(dataA, 'pglite'));
      await bootstrap(db, testConfig({ demoData: true }));
      const stored = await storeSecrets(db);
      const before = await fingerprint(db);
      await db.close();
      expect(before.payments?.rows).toBeGreaterThan(100);

      const file = path.join(tmp, 'embedded.tar.gz');
      await backup(file, { DATA_DIR: dataA });
      // no secret in clear in the backup
      const text = zlib.gunzipSync(fs.readFileSync(file)).toString('latin1');
      expect(text).toContain(stored.key);
      for (const secret of stored.secrets) expect(text).not.toContain(secret);
      const dataB = path.join(tmp, 'b');
      await restore(file, { DATA_DIR: dataB });
      db = await openPglite(path.join(dataB, 'pglite'));
      expect(await fingerprint(db)).toEqual(before);
      await db.close();
    },
    120_000,
  );

  it.skipIf(!process.env.TEST_DATABASE_URL || process.env.TEST_DB !== 'pg')(
    'round-trips a PostgreSQL database with pg_dump and pg_restore',
    async () => {
      const base = process.env.TEST_DATABASE_URL as string;
      const names = [`kodi_backup_src_${process.pid}`, `kodi_backup_dst_${process.pid}`];
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      for (const n of names) {
        await admin.query(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${n}`);
      }
      const url = (n: string) => {
        const u = new URL(base);
        u.pathname = `/${n}`;
        return u.toString();
      };
      try {
        const src = await openPostgres(url(names[0]!), 2);
        await bootstrap(src, testConfig({ demoData: true }));
        const stored = await storeSecrets(src);
        const before = await fingerprint(src);
        await src.close();
        const file = path.join(tmp, 'pg.dump');
        await backup(file, { DATABASE_URL: url(names[0]!) });
        // no secret in clear in the backup (read as the SQL it restores)
        const text = execFileSync('pg_restore', ['--file=-', file], { maxBuffer: 1 << 30 }).toString('utf8');
        expect(text).toContain(stored.key);
        for (const secret of stored.secrets) expect(text).not.toContain(secret);
        await restore(file, { DATABASE_URL: url(names[1]!) });
        const dst = await openPostgres(url(names[1]!), 2);
        expect(await fingerprint(dst)).toEqual(before);
        await dst.close();
      } finally {
        for (const n of names) await admin.query(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
        await admin.end();
      }
    },
    120_000,
  );
});
