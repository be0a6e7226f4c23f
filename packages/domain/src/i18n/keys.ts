import type { ErrorCode } from '../errors.ts';
import { messages as validationMessages } from '../validation.ts';

/** An error code's message key: its English is `errorCodes[code].message`. */
export const errorKey = (code: ErrorCode) => `error.${code}`;

const validationKeys = new Map<string, string>(
  Object.entries(validationMessages).map(([name, text]) => [text, `validation.${name}`]),
);

/**
 * The key of a validation message by its English words: the zod rules keep the spec's English
 * (`messages` of validation.ts) and the client or the server translates them by this key; undefined
 * for a message that has none yet (it stays English).
 */
export const validationKey = (englishMessage: string): string | undefined =>
  validationKeys.get(englishMessage);

type Namespaces = typeof import('./catalogues/en.json');

/** Every key of the catalogues the pages use ('auth.signIn'): a key that is not in English is a type error. */
export type MessageKey = {
  [N in keyof Namespaces & string]: `${N}.${keyof Namespaces[N] & string}`;
}[keyof Namespaces & string];
