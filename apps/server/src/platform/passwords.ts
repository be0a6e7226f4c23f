import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with its recommended cost.
export const hashPassword = (password: string): Promise<string> => hash(password);

let dummyHash: Promise<string> | undefined;

/** Verifies against the stored hash, or against a dummy one so that unknown e-mails take as long. */
export const verifyPassword = async (
  stored: string | null | undefined,
  password: string,
): Promise<boolean> => {
  if (!stored) {
    dummyHash ??= hash('not-a-real-password-' + Math.random());
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
};
