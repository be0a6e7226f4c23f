/**
 * `npm run rotate-secret-key`: seals every stored secret (lib/secrets.ts `sealedColumns`: TOTP and
 * webhook secrets) again under a new key, in one transaction (webhook secrets still in clear get sealed).
 * - Embedded database (DATA_DIR, no SECRET_KEY): a new random key is written to `secret.key.next`,
 *   the secrets are sealed again under it, then it becomes `secret.key` (the old one kept as
 *   `secret.key.old`). A server reads all three, so a rotation stopped half-way loses nothing. Stop the
 *   server first (PGlite is one process).
 * - PostgreSQL: set SECRET_KEY to the new key and OLD_SECRET_KEYS to the old one(s), on this command
 *   and on the servers; once it has run, OLD_SECRET_KEYS can go.
 */
import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig, type Config } from '../config.ts';
import { execRows, openDatabase, type Database } from '../db/client.ts';
import {
  NEXT_KEY_FILE,
  OLD_KEY_FILE,
  SECRET_KEY_FILE,
  createSecretBox,
  dataDirKey,
  keyIdOf,
  loadSecretKeys,
  openStored,
  parseSecretKey,
  purposeOf,
  sealedColumns,
  type SecretBox,
} from '../platform/secrets.ts';

/** Opens every sealed value with `from` and seals it with `to`, in one transaction; answers how many. */
export const resealAll = async (database: Database, from: SecretBox, to: SecretBox): Promise<number> =>
  database.db.transaction(async (tx) => {
    let count = 0;
    for (const { table, column, key, clearPrefix } of sealedColumns) {
      const rows = await execRows<{ id: number; value: string }>(
        tx,
        sql.raw(
          `SELECT ${key} AS id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${key} FOR UPDATE`,
        ),
      );
      for (const row of rows) {
        const purpose = purposeOf(table, column, row.id);
        const value = to.seal(openStored(from, row.value, purpose, clearPrefix), purpose);
        await tx.execute(
          sql`UPDATE ${sql.identifier(table)} SET ${sql.identifier(column)} = ${value} WHERE ${sql.identifier(key)} = ${row.id}`,
        );
        count++;
      }
    }
    return count;
  });

export const rotateSecretKey = async (config: Config): Promise<{ resealed: number; keyId: string }> => {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (config.secretKey || config.databaseUrl) {
      if (!config.secretKey)
        throw new Error('Set SECRET_KEY to the new key and OLD_SECRET_KEYS to the old one.');
      const keys = await loadSecretKeys(config);
      const resealed = await resealAll(database, createSecretBox(keys), createSecretBox(keys.slice(0, 1)));
      return { resealed, keyId: keyIdOf(parseSecretKey(config.secretKey)) };
    }
    const current = await dataDirKey(config.dataDir);
    const next = randomBytes(32);
    const file = (name: string) => path.join(config.dataDir, name);
    await writeFile(file(NEXT_KEY_FILE), `${next.toString('hex')}\n`, { mode: 0o600 });
    const resealed = await resealAll(
      database,
      createSecretBox([current, ...config.oldSecretKeys.map(parseSecretKey)]),
      createSecretBox([next]),
    );
    await rename(file(SECRET_KEY_FILE), file(OLD_KEY_FILE));
    await rename(file(NEXT_KEY_FILE), file(SECRET_KEY_FILE));
    return { resealed, keyId: keyIdOf(next) };
  } finally {
    await database.close();
  }
};

const isMain = process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]));
if (isMain) {
  rotateSecretKey(loadConfig())
    .then(({ resealed, keyId }) => console.log(`${resealed} secrets sealed again under key ${keyId}.`))
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
