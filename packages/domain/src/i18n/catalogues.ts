import { errorCodes } from '../errors.ts';
import { LANGUAGES, type Language } from './languages.ts';
import en from './catalogues/en.json' with { type: 'json' };
import sw from './catalogues/sw.json' with { type: 'json' };
import fr from './catalogues/fr.json' with { type: 'json' };
import swErrors from './catalogues/errors.sw.json' with { type: 'json' };
import frErrors from './catalogues/errors.fr.json' with { type: 'json' };
import enDocuments from './catalogues/documents.en.json' with { type: 'json' };
import swDocuments from './catalogues/documents.sw.json' with { type: 'json' };
import frDocuments from './catalogues/documents.fr.json' with { type: 'json' };

/**
 * Every language's messages (issue 30), flat: one key per text ('auth.signIn', 'error.not_found'),
 * each an ICU message. The catalogues are `catalogues/{language}.json` (one object per namespace) and
 * the error messages: English is `errorCodes` (the spec's words, one source), Kiswahili and French
 * `catalogues/errors.{language}.json` by code. The server and the tests read these; the web loads one
 * language's catalogue at a time (apps/web/vite-catalogues.ts).
 */
export type Catalogue = Record<string, string>;

/** `{ auth: { signIn: 'Sign in' } }` → `{ 'auth.signIn': 'Sign in' }`. */
export const flattenCatalogue = (namespaces: Record<string, Record<string, string>>): Catalogue =>
  Object.fromEntries(
    Object.entries(namespaces).flatMap(([ns, texts]) =>
      Object.entries(texts).map(([key, text]) => [`${ns}.${key}`, text]),
    ),
  );

const errorsOf = (texts: Record<string, string>): Catalogue =>
  Object.fromEntries(Object.entries(texts).map(([code, text]) => [`error.${code}`, text]));

/**
 * The documents' texts (receipts, statements: `catalogues/documents.{language}.json`), keyed `doc.…`:
 * the server's only (the PDFs are made there), so the web's catalogues never carry them.
 */
const documentsOf = (namespaces: Record<string, Record<string, string>>): Catalogue =>
  Object.fromEntries(Object.entries(flattenCatalogue(namespaces)).map(([key, text]) => [`doc.${key}`, text]));

const englishErrors = Object.fromEntries(
  Object.entries(errorCodes).map(([code, { message }]) => [code, message]),
);

export const catalogues: Record<Language, Catalogue> = {
  en: { ...flattenCatalogue(en), ...errorsOf(englishErrors), ...documentsOf(enDocuments) },
  sw: { ...flattenCatalogue(sw), ...errorsOf(swErrors), ...documentsOf(swDocuments) },
  fr: { ...flattenCatalogue(fr), ...errorsOf(frErrors), ...documentsOf(frDocuments) },
};

export { LANGUAGES };
export { errorKey, validationKey } from './keys.ts';
