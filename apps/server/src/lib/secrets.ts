/**
 * The seam through which secrets kept in the database pass (TOTP secrets now; webhook secrets and SMS
 * keys later): `sealSecret` before a secret is stored, `openSecret` after it is read. For now the
 * stored text is the secret itself, marked `plain:` so that an encrypted form (AES-256-GCM under
 * SECRET_KEY, issue 20's 'secrets at rest') can be told apart and introduced without a migration:
 * `openSecret` reads both.
 */
const PLAIN = 'plain:';

export const sealSecret = (secret: string): string => `${PLAIN}${secret}`;

export const openSecret = (stored: string): string => {
  if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
  throw new Error('A stored secret in an unknown form: the key to open it is missing.');
};
