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

type GroupLoader = (language: Language) => Promise<{ messages: Messages }>;

/**
 * The catalogue groups beyond a language's `base` (packages/domain/src/i18n/groups.ts): the staff app
 * registers their loaders (lib/texts.ts), so that the receipt check and the portal, which load this
 * module too, never ship them.
 */
const groupLoaders = new Map<string, GroupLoader>();
/** The groups the pages have asked for: a language activated later loads them too. */
const wanted = new Set<string>();
const loaded = new Map<string, Promise<Messages>>();

const loadGroup = (language: Language, group: string): Promise<Messages> => {
  const key = `${language}/${group}`;
  let messages = loaded.get(key);
  if (!messages) {
    const loader = group === 'base' ? loaders[language] : groupLoaders.get(group);
    messages = loader ? loader(language).then((m) => m.messages) : Promise.resolve({});
    messages.catch(() => loaded.delete(key)); // a failed download is tried again next time
    loaded.set(key, messages);
  }
  return messages;
};

export const registerTextGroup = (group: string, loader: GroupLoader): void => {
  groupLoaders.set(group, loader);
};

/**
 * Loads catalogue groups in the pages' language (and in any language activated later); resolves once
 * they are in. Called beside a page's code (the router), never after it.
 */
export const loadTexts = async (...groups: string[]): Promise<void> => {
  for (const group of groups) wanted.add(group);
  const language = pending ?? (isLanguage(i18n.locale) ? i18n.locale : initialLanguage());
  const all = await Promise.all(groups.map((group) => loadGroup(language, group)));
  // kept for that language even when another is being activated (activateLanguage merges them)
  i18n.load(language, Object.assign({}, ...all) as Messages);
};

/** Loads a language's catalogue (once) and makes it the pages' language. */
export const activateLanguage = async (language: Language): Promise<void> => {
  if (i18n.locale === language || pending === language) return;
  pending = language;
  try {
    const all = await Promise.all(['base', ...wanted].map((group) => loadGroup(language, group)));
    if (pending !== language) return;
    i18n.loadAndActivate({ locale: language, messages: Object.assign({}, ...all) as Messages });
    document.documentElement.lang = language;
    // the server names this language's catalogue in the next page's HTML (apps/server/src/plugins/web.ts):
    // the cookie says it when it is not the browser's own (which the server reads from Accept-Language)
    document.cookie =
      language === preferredLanguage(navigator.languages)
        ? 'kodi_lang=; path=/; max-age=0; samesite=lax'
        : `kodi_lang=${language}; path=/; max-age=31536000; samesite=lax`;
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

/**
 * A text whose key is derived (an entity's field, a drawer item: issue 30) with its English, shown
 * until its group's catalogue is in, or when the catalogue has no such key.
 */
export type TranslateDerived = (
  key: string,
  english: string,
  values?: Record<string, string | number>,
) => string;

const fill = (english: string, values?: Record<string, string | number>) =>
  values ? english.replace(/\{(\w+)\}/g, (all, name: string) => String(values[name] ?? all)) : english;

/** The page's translator and language: `t('auth.signIn')`; re-renders when the language changes. */
export const useT = (): { t: Translate; td: TranslateDerived; language: Language } => {
  const { i18n: active, _ } = useLingui();
  const t = useCallback<Translate>((key, values) => _(key, values), [_]);
  const td = useCallback<TranslateDerived>(
    (key, english, values) =>
      key in (active.messages as Record<string, unknown>) ? _(key, values) : fill(english, values),
    // `_` changes with the language and with every catalogue loaded
    [_, active],
  );
  const language = isLanguage(active.locale) ? active.locale : DEFAULT_LANGUAGE;
  return { t, td, language };
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
