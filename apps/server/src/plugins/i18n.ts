import type { FastifyRequest } from 'fastify';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import {
  LANGUAGES,
  errorCodes,
  preferredLanguage,
  validationKey,
  englishAuditWords,
  type AuditWords,
  type ErrorBody,
  type Language,
} from '@kodi/domain';
import { catalogues, errorKey } from '@kodi/domain/i18n';
import { pdfSafe } from '../platform/pdf-document.ts';

/**
 * The server's messages in the recipient's language (issue 30): Lingui over the catalogues of
 * @kodi/domain (packages/domain/src/i18n), compiled when first used (the web compiles its own at
 * build time). A key a language lacks falls back to English; a key English lacks answers itself.
 */
/** Each message compiled once (Lingui compiles a string message each time it is asked for). */
const compiled = new Map<string, ReturnType<typeof compileMessage>>();
const compileOnce = (message: string) => {
  let c = compiled.get(message);
  if (c === undefined) {
    c = compileMessage(message);
    compiled.set(message, c);
  }
  return c;
};

const i18ns = Object.fromEntries(
  LANGUAGES.map((language) => {
    const i18n = setupI18n({ locale: language, messages: { [language]: catalogues[language] } });
    i18n.setMessagesCompiler(compileOnce);
    return [language, i18n];
  }),
) as Record<Language, I18n>;

export const translate = (
  language: Language,
  key: string,
  values?: Record<string, string | number>,
): string => {
  const from = key in catalogues[language] ? language : 'en';
  return i18ns[from]._(key, values);
};

/** The language a request is answered in: the signed-in user's, else the browser's (Accept-Language). */
export const requestLanguage = (request: FastifyRequest): Language =>
  request.user?.language ?? preferredLanguage(request.headers['accept-language']);

/**
 * An error body in a language: its message by its code when it is the code's own (a message written
 * for one case, such as 'This record is still used by payments.', stays English), and each field's
 * validation message by its key (the zod rules' English is the key's English). English is left as is.
 */
export const translateErrorBody = (body: ErrorBody, language: Language): ErrorBody => {
  if (language === 'en') return body;
  const error =
    body.error === errorCodes[body.code].message ? translate(language, errorKey(body.code)) : body.error;
  if (!body.fields) return { ...body, error };
  const fields = Object.fromEntries(
    Object.entries(body.fields).map(([name, message]) => {
      const key = validationKey(message);
      return [name, key ? translate(language, key) : message];
    }),
  );
  return { ...body, error, fields };
};

/**
 * A document's texts in a language (`doc.` keys: catalogues/documents.{language}.json), as PDFs write
 * them; a value no catalogue names (`paymentMethod.<value>`) is written as it is.
 */
export const documentTexts =
  (language: Language) =>
  (key: string, values?: Record<string, string | number>): string =>
    `doc.${key}` in catalogues.en
      ? pdfSafe(translate(language, `doc.${key}`, values))
      : (key.split('.').pop() ?? key);

/** The how-to-pay lines' words in a language (`howToPayLines`' third argument: issue 30). */
export const howToPayWords =
  (language: Language) =>
  (key: string, values: Record<string, string>): string =>
    translate(language, `doc.howToPay.${key}`, values);

/**
 * The audit log's words in a reader's language (issue 30): an entry's title and changed fields
 * (`auditTitle`, `auditDetails`), their English the domain's own (English is those, untouched).
 */
export const auditWords = (language: Language): AuditWords =>
  language === 'en'
    ? englishAuditWords
    : {
        language,
        t: (key, english, values) =>
          key in catalogues.en ? translate(language, key, values) : englishAuditWords.t(key, english, values),
      };

/**
 * An export's words in its reader's language (issue 30: list exports and reports, crud/tabular.ts):
 * `td(key, english, values)` the key's message, PDF-safe; the English given, as it is, for English or
 * a key no catalogue has (English exports stay byte for byte what they were).
 */
export type ExportWords = {
  language: Language;
  td: (key: string, english: string, values?: Record<string, string | number>) => string;
};

export const exportWords = (language: Language): ExportWords => ({
  language,
  td: (key, english, values) =>
    language === 'en' || !(key in catalogues.en) ? english : pdfSafe(translate(language, key, values)),
});

/** The words of a request's exports: its user's language (`requestLanguage`). */
export const requestWords = (request: FastifyRequest): ExportWords => exportWords(requestLanguage(request));
