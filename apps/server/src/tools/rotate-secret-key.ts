/**
 * `npm run rotate-secret-key`: seals every stored secret (lib/secrets.ts `sealedColumns`: TOTP and
 * webhook secrets) again under a new key, in one transaction (webhook secrets still in clear get sealed).
 * - Embedded database (DATA_DIR, no SECRET_KEY): a new random key is written to `secret.key.next`,
 *   the secrets are sealed again under it, then it becomes `secret.key` (the old one kept as
 *   `secret.key.old`). A server reads all three, so a rotation stopped half-way loses nothing. Stop the
 *   server first (PGlite is one process).
 * - PostgreSQL: set SECRET_KEY to the new key and OLD_SECRET_KEYS to the old one(s), on this command
 *   and on the servers; once it has run, OLD_SECRET_KEYS can go.
 *
 * `npm run rotate-secret-key -- --forget-unopenable`: when the earlier key is lost (a server refuses
 * to start while stored secrets are sealed with a key it does not hold), forgets every stored secret
 * the server's keys cannot open, in one transaction: the user's second factor is turned off (its
 * recovery codes too, with an audit entry), a webhook gets a new random secret nobody knows (its URL
 * stays; an admin makes a new secret in Company Settings). Nothing else changes.
 */
import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig, type Config } from '../config.ts';
import { execRows, openDatabase, type Database, type DbOrTx } from '../db/client.ts';
import { recordUserChange } from '../modules/audit/audit.ts';
import { removeMfa } from '../modules/identity/mfa.ts';
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

/** What is done with a stored secret no key opens, by table (a sealed column without a rule: refused). */
const forgetters: Record<string, (tx: DbOrTx, id: number, box: SecretBox) => Promise<void>> = {
  users: async (tx, id) => {
    await removeMfa(tx, id);
    await recordUserChange(tx, {
      userId: id,
      actorId: null,
      before: { mfa_enabled: true },
      after: { mfa_enabled: false, reason: 'its secret was sealed with a lost key' },
    });
  },
  payment_webhooks: async (tx, id, box) => {
    const secret = `whsec_${randomBytes(32).toString('hex')}`;
    await tx.execute(
      sql`UPDATE payment_webhooks SET secret = ${box.seal(secret, purposeOf('payment_webhooks', 'secret', id))},
                 version = version + 1, updated_at = now()
           WHERE company_id = ${id}`,
    );
  },
  // a provider's credentials sealed with a lost key: cleared and the provider turned off (typed again in Company settings)
  payment_providers: async (tx, id) => {
    await tx.execute(
      sql`UPDATE payment_providers SET credentials = NULL, enabled = false, version = version + 1, updated_at = now()
           WHERE id = ${id}`,
    );
  },
  // WhatsApp's token and app secret sealed with a lost key: cleared and WhatsApp turned off (typed again)
  whatsapp_settings: async (tx, id) => {
    await tx.execute(
      sql`UPDATE whatsapp_settings SET credentials = NULL, enabled = false, version = version + 1, updated_at = now()
           WHERE company_id = ${id}`,
    );
  },
};

/** Forgets every stored secret `box` cannot open (see the header); answers how many, by column. */
export const forgetUnopenable = async (database: Database, box: SecretBox): Promise<Record<string, number>> =>
  database.db.transaction(async (tx) => {
    const forgotten: Record<string, number> = {};
    for (const { table, column, key, clearPrefix } of sealedColumns) {
      const forget = forgetters[table];
      if (!forget) throw new Error(`No rule to forget ${table}.${column}: add one to forgetters.`);
      const rows = await execRows<{ id: number; value: string }>(
        tx,
        sql.raw(
          `SELECT ${key} AS id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${key} FOR UPDATE`,
        ),
      );
      for (const row of rows) {
        try {
          openStored(box, row.value, purposeOf(table, column, row.id), clearPrefix);
        } catch {
          await forget(tx, Number(row.id), box);
          forgotten[`${table}.${column}`] = (forgotten[`${table}.${column}`] ?? 0) + 1;
        }
      }
    }
    return forgotten;
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

/** `--forget-unopenable`: with the server's keys (SECRET_KEY or the key file, and OLD_SECRET_KEYS). */
export const forgetUnopenableSecrets = async (config: Config): Promise<Record<string, number>> => {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await forgetUnopenable(database, createSecretBox(await loadSecretKeys(config)));
  } finally {
    await database.close();
  }
};

const isMain = process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]));
if (isMain) {
  const run = process.argv.includes('--forget-unopenable')
    ? forgetUnopenableSecrets(loadConfig()).then((forgotten) => {
        const lines = Object.entries(forgotten).map(([column, n]) => `${n} in ${column}`);
        return lines.length > 0
          ? `Forgotten (no key of this server opened them): ${lines.join(', ')}.`
          : 'Every stored secret opens with this server’s keys: nothing forgotten.';
      })
    : rotateSecretKey(loadConfig()).then(
        ({ resealed, keyId }) => `${resealed} secrets sealed again under key ${keyId}.`,
      );
  run
    .then((line) => console.log(line))
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
