import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * How secrets kept in the database are stored (TOTP secrets and payment webhook secrets; SMS keys
 * can use the same box): AES-256-GCM under the key of `SECRET_KEY`, or, on the embedded database without
 * it, of `DATA_DIR/secret.key` (made at the first start). Each sealed value names the key it was
 * sealed with (the first 8 hex digits of the key's SHA-256) and is bound to what it is for (`purpose`,
 * e.g. `users.mfa_secret:7`: the additional data of GCM), so that a value copied to another row does
 * not open. `OLD_SECRET_KEYS` (comma-separated) still open values sealed before a rotation
 * (`npm run rotate-secret-key`). Without any key (PostgreSQL outside production) values are stored
 * `plain:` and a key given later reads them still. A value no key of the server opens is
 * `SecretUnavailableError` (answered 503 `secret_unavailable` by the error handler), never a 500; the server
 * does not start while any stored value is sealed with a key it does not hold (db/sealed-secrets.ts).
 */
/** A stored value no key of the box opens (plugins/errors.ts answers it 503 `secret_unavailable`). */
export class SecretUnavailableError extends Error {
  override name = 'SecretUnavailableError';
  constructor() {
    super('A stored secret cannot be opened with the server’s keys.');
  }
}

export type SecretBox = {
  seal: (secret: string, purpose: string) => string;
  /** the secret; `SecretUnavailableError` when no key of the box opens it */
  open: (stored: string, purpose: string) => string;
  /** the id of the key sealing new values, null when they are stored plain */
  keyId: string | null;
  /** the ids of every key the box opens with (the current one first) */
  keyIds: readonly string[];
};

/**
 * Every column holding sealed secrets, with the column keying its rows (the row of the purpose): what
 * a key rotation re-seals. `clearPrefix`: values stored in clear before sealing began start with it
 * and are read as they are (a rotation seals them).
 */
export const sealedColumns: readonly { table: string; column: string; key: string; clearPrefix?: string }[] =
  [
    { table: 'users', column: 'mfa_secret', key: 'id' },
    { table: 'payment_webhooks', column: 'secret', key: 'company_id', clearPrefix: 'whsec_' },
    { table: 'payment_providers', column: 'credentials', key: 'id' },
    { table: 'whatsapp_settings', column: 'credentials', key: 'company_id' },
  ];

/** Opens a stored value, or answers it as it is when it was stored in clear before sealing began. */
export const openStored = (box: SecretBox, stored: string, purpose: string, clearPrefix?: string): string =>
  clearPrefix && stored.startsWith(clearPrefix) ? stored : box.open(stored, purpose);

/** What a sealed value is for: its table, column and row (`users.mfa_secret:7`). */
export const purposeOf = (table: string, column: string, id: number | string) => `${table}.${column}:${id}`;

export const PLAIN = 'plain:';
const V1 = 'v1';
export const SECRET_KEY_FILE = 'secret.key';
/** During a rotation of the embedded database's key: the next one, then the one before. */
export const NEXT_KEY_FILE = 'secret.key.next';
export const OLD_KEY_FILE = 'secret.key.old';

const readKeyFile = async (file: string): Promise<Buffer | null> => {
  try {
    return parseSecretKey(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
};

/** A key: 64 hex digits or the base64 of 32 bytes. */
export const parseSecretKey = (text: string): Buffer => {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes: 64 hex digits or their base64.');
  return key;
};

export const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

export const createSecretBox = (keys: readonly Buffer[]): SecretBox => {
  const current = keys[0];
  const byId = new Map(keys.map((k) => [keyIdOf(k), k]));
  return {
    keyId: current ? keyIdOf(current) : null,
    seal: (secret, purpose) => {
      if (!current) return `${PLAIN}${secret}`;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(purpose, 'utf8'));
      const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      const parts = [iv, data, cipher.getAuthTag()].map((b) => b.toString('base64url'));
      return [V1, keyIdOf(current), ...parts].join('.');
    },
    keyIds: [...byId.keys()],
    open: (stored, purpose) => {
      if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
      const [version, keyId, iv, data, tag] = stored.split('.');
      const key = keyId ? byId.get(keyId) : undefined;
      if (version !== V1 || !key || !iv || data === undefined || !tag) throw new SecretUnavailableError();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(purpose, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        // altered, or copied from another row (its purpose is not this one)
        throw new SecretUnavailableError();
      }
    },
  };
};

/** The key file of the embedded database: read, or made (32 random bytes, hex, mode 0600) at the first start. */
export const dataDirKey = async (dataDir: string): Promise<Buffer> => {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  try {
    return parseSecretKey(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // made meanwhile by another start
  }
  return parseSecretKey(await readFile(file, 'utf8'));
};

/** What loadSecretKeys reads of the configuration (config.ts: SECRET_KEY, OLD_SECRET_KEYS, DATABASE_URL, DATA_DIR). */
export type SecretKeySettings = {
  secretKey: string | undefined;
  oldSecretKeys: string[];
  databaseUrl: string | undefined;
  dataDir: string;
};

/**
 * The server's keys, the current first: SECRET_KEY, else the embedded database's key file (with the
 * next and the old one of a rotation that stopped half-way, to read with), else none; then OLD_SECRET_KEYS.
 */
export const loadSecretKeys = async (config: SecretKeySettings): Promise<Buffer[]> => {
  const old = config.oldSecretKeys.map(parseSecretKey);
  if (config.secretKey) return [parseSecretKey(config.secretKey), ...old];
  if (!config.databaseUrl) {
    const current = await dataDirKey(config.dataDir);
    const others = await Promise.all(
      [NEXT_KEY_FILE, OLD_KEY_FILE].map((f) => readKeyFile(path.join(config.dataDir, f))),
    );
    return [current, ...others.filter((k): k is Buffer => k !== null), ...old];
  }
  return old;
};
