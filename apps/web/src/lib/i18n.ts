import { useCallback } from 'react';
import { setupI18n, type Messages } from '@lingui/core';
import { useLingui } from '@lingui/react';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  preferredLanguage,
  validationKey,
  type Language,
  type MessageKey,
} from '@kodi/domain/i18n/web';

/**
 * The pages' language (issue 30): Lingui, one language's catalogue loaded at a time (its own chunk,
 * compiled at build time: vite-catalogues.ts). Before sign-in the pages follow the language chosen
 * on them (the switcher), else the browser's; signed in, the user's (staff) or its tenant's or
 * owner's (portal), as the server's session says.
 */
export const i18n = setupI18n();

const loaders: Record<Language, () => Promise<{ messages: Messages }>> = {
  en: () => import('virtual:kodi-catalogue/en'),
  sw: () => import('virtual:kodi-catalogue/sw'),
  fr: () => import('virtual:kodi-catalogue/fr'),
};

const CHOSEN = 'kodi-language';

/** The language chosen on a sign-in page, else the browser's. */
export const initialLanguage = (): Language => {
  try {
    const chosen = localStorage.getItem(CHOSEN);
    if (isLanguage(chosen)) return chosen;
  } catch {
    // storage blocked: the browser's
  }
  return typeof navigator === 'undefined' ? DEFAULT_LANGUAGE : preferredLanguage(navigator.languages);
};

let pending: Language | undefined;

/** Loads a language's catalogue (once) and makes it the pages' language. */
export const activateLanguage = async (language: Language): Promise<void> => {
  if (i18n.locale === language || pending === language) return;
  pending = language;
  try {
    const { messages } = await loaders[language]();
    if (pending !== language) return;
    i18n.loadAndActivate({ locale: language, messages });
    document.documentElement.lang = language;
    // the server names this language's catalogue in the next page's HTML (apps/server/src/plugins/web.ts)
    document.cookie = `kodi_lang=${language}; path=/; max-age=31536000; samesite=lax`;
  } finally {
    if (pending === language) pending = undefined;
  }
};

/** The switcher of a sign-in page: the choice is kept for the next visit. */
export const chooseLanguage = (language: Language): Promise<void> => {
  try {
    localStorage.setItem(CHOSEN, language);
  } catch {
    // not kept: this visit only
  }
  return activateLanguage(language);
};

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** The page's translator and language: `t('auth.signIn')`; re-renders when the language changes. */
export const useT = (): { t: Translate; language: Language } => {
  const { i18n: active, _ } = useLingui();
  const t = useCallback<Translate>((key, values) => _(key, values), [_]);
  const language = isLanguage(active.locale) ? active.locale : DEFAULT_LANGUAGE;
  return { t, language };
};

/** A validation message of the zod rules (their English) in the page's language, when it has a key. */
export const useValidationText = (): ((message: string | undefined) => string | undefined) => {
  const { _ } = useLingui();
  return useCallback(
    (message) => {
      const key = message === undefined ? undefined : validationKey(message);
      return key ? _(key) : message;
    },
    [_],
  );
};
