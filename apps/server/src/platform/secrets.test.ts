import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toErrorBody } from '../plugins/errors.ts';
import { loadConfig } from '../config.ts';
import {
  SecretUnavailableError,
  createSecretBox,
  dataDirKey,
  keyIdOf,
  loadSecretKeys,
  parseSecretKey,
} from './secrets.ts';

const KEY_A = parseSecretKey('11'.repeat(32));
const KEY_B = parseSecretKey(Buffer.alloc(32, 2).toString('base64'));

describe('secrets at rest (AES-256-GCM)', () => {
  it('seals a secret so that it opens only with its key and for its purpose', () => {
    const box = createSecretBox([KEY_A]);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'users.mfa_secret:7');
    expect(sealed).toMatch(new RegExp(`^v1\\.${keyIdOf(KEY_A)}\\.`));
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'users.mfa_secret:7')).not.toBe(sealed); // a new IV each time
    expect(box.open(sealed, 'users.mfa_secret:7')).toBe('JBSWY3DPEHPK3PXP');
    // another row's purpose, a changed byte, another key: refused, as a 503 secret_unavailable (never a 500)
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        if (!(err instanceof SecretUnavailableError)) return String(err);
        // as the error handler answers it
        const { status, body } = toErrorBody(err);
        return `${status} ${body.code}`;
      }
      return 'opened';
    };
    expect(refusal(() => box.open(sealed, 'users.mfa_secret:8'))).toBe('503 secret_unavailable');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3] ?? '', 'base64url');
    data[0] = (data[0] ?? 0) ^ 1;
    parts[3] = data.toString('base64url');
    expect(refusal(() => box.open(parts.join('.'), 'users.mfa_secret:7'))).toBe('503 secret_unavailable');
    expect(refusal(() => createSecretBox([KEY_B]).open(sealed, 'users.mfa_secret:7'))).toBe(
      '503 secret_unavailable',
    );
    expect(refusal(() => box.open('v2.garbage', 'users.mfa_secret:7'))).toBe('503 secret_unavailable');
    expect(createSecretBox([KEY_A, KEY_B]).keyIds).toEqual([keyIdOf(KEY_A), keyIdOf(KEY_B)]);
  });

  it('reads values of before a rotation with the old key, and plain ones, sealing new ones with the current key', () => {
    const old = createSecretBox([KEY_A]).seal('old-secret', 'p');
    const rotated = createSecretBox([KEY_B, KEY_A]);
    expect(rotated.open(old, 'p')).toBe('old-secret');
    expect(rotated.seal('new', 'p').split('.')[1]).toBe(keyIdOf(KEY_B));
    expect(rotated.open('plain:kept', 'p')).toBe('kept');
    const none = createSecretBox([]);
    expect(none.keyId).toBeNull();
    expect(none.seal('s', 'p')).toBe('plain:s');
  });

  it('refuses a key of the wrong size', () => {
    expect(() => parseSecretKey('abcd')).toThrow(/32 bytes/);
    expect(parseSecretKey('ab'.repeat(32))).toHaveLength(32);
  });

  it('makes the embedded database’s key once in DATA_DIR (0600) and reads it back; SECRET_KEY comes first', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kodi-secret-'));
    try {
      const first = await dataDirKey(path.join(dir, 'data'));
      const again = await dataDirKey(path.join(dir, 'data'));
      expect(again.equals(first)).toBe(true);
      const file = path.join(dir, 'data', 'secret.key');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
      const embedded = loadConfig({ DATA_DIR: path.join(dir, 'data') });
      expect((await loadSecretKeys(embedded))[0]?.equals(first)).toBe(true);
      const given = loadConfig({ DATA_DIR: path.join(dir, 'data'), SECRET_KEY: '11'.repeat(32) });
      expect((await loadSecretKeys(given))[0]?.equals(KEY_A)).toBe(true);
      // PostgreSQL without a key, outside production: none (stored plain)
      expect(await loadSecretKeys(loadConfig({ DATABASE_URL: 'postgres://x/y', DATA_DIR: dir }))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('requires SECRET_KEY in production on PostgreSQL', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y' })).toThrow(
      /SECRET_KEY/,
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', SECRET_KEY: '11'.repeat(32) }),
    ).not.toThrow();
  });
});
