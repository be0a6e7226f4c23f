import type { Database } from './client.ts';
import { PLAIN, sealedColumns, type SecretBox } from '../platform/secrets.ts';

/** A reason the server will not start that an operator fixes (main.ts prints its message alone, no stack). */
export class StartRefusedError extends Error {
  override name = 'StartRefusedError';
}

/** Stored secrets no key of the server opens: their column, the id of the key that sealed them, how many. */
export type LockedSecrets = { column: string; keyId: string; count: number };

/**
 * The stored secrets sealed with a key the box does not hold, read from the key id each sealed value
 * carries (`v1.<key id>.…`): one grouped scan of each sealed column, nothing opened. Plain values and
 * values in clear from before sealing began are readable by any server.
 */
export const lockedSecrets = async (
  database: Pick<Database, 'query'>,
  box: SecretBox,
): Promise<LockedSecrets[]> => {
  const locked: LockedSecrets[] = [];
  for (const { table, column, clearPrefix } of sealedColumns) {
    const rows = await database.query<{ key_id: string; n: number }>(
      `SELECT CASE WHEN ${column} LIKE 'v1.%' THEN split_part(${column}, '.', 2) ELSE '' END AS key_id,
              count(*)::int AS n
         FROM ${table}
        WHERE ${column} IS NOT NULL AND NOT starts_with(${column}, $1) AND NOT starts_with(${column}, $2)
        GROUP BY 1 ORDER BY 1`,
      [PLAIN, clearPrefix ?? PLAIN],
    );
    for (const r of rows)
      if (!box.keyIds.includes(r.key_id))
        locked.push({ column: `${table}.${column}`, keyId: r.key_id || '?', count: Number(r.n) });
  }
  return locked;
};

/**
 * Refuses to start a server that could not open stored secrets (SECRET_KEY changed without the old
 * one): two-factor sign-in and the payment webhook would fail for everyone. The message says what to do.
 */
export const assertSecretsOpen = async (database: Pick<Database, 'query'>, box: SecretBox): Promise<void> => {
  const locked = await lockedSecrets(database, box);
  if (locked.length === 0) return;
  const where = locked.map((l) => `${l.count} in ${l.column} sealed with key ${l.keyId}`).join(', ');
  throw new StartRefusedError(
    [
      `Stored secrets are sealed with a key this server does not hold: ${where}` +
        ` (the server holds ${box.keyIds.length > 0 ? box.keyIds.join(', ') : 'no key'}; a key's id is the first 8 hex digits of its SHA-256).`,
      'Was SECRET_KEY (or DATA_DIR/secret.key) changed? Set OLD_SECRET_KEYS to the earlier key (comma-separated for several),',
      'start again, then run `npm run rotate-secret-key` to seal them under the new key.',
      'If the earlier key is lost: `npm run rotate-secret-key -- --forget-unopenable` turns those users’ two-factor',
      'sign-in off and gives those webhooks new secrets (make new ones in Company Settings).',
    ].join('\n'),
  );
};
