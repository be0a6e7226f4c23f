/** The languages Kodi speaks (issue 30): English first, the default, in the specification's words. */
export const LANGUAGES = ['en', 'sw', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language's name in itself (the switcher's labels). */
export const languageNames: Record<Language, string> = { en: 'English', sw: 'Kiswahili', fr: 'Français' };

/** The locale Intl formats a language's dates, numbers and money with (en keeps the spec's en-US). */
export const intlLocales: Record<Language, string> = { en: 'en-US', sw: 'sw', fr: 'fr' };

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The first of the candidates that is a language (a person's, then a company's default…), else English. */
export const resolveLanguage = (...candidates: readonly unknown[]): Language =>
  candidates.find(isLanguage) ?? DEFAULT_LANGUAGE;

/**
 * The language of a list of preferred locales, best first ('sw-KE', 'fr-CD;q=0.8'): an
 * Accept-Language header or `navigator.languages`. The first whose primary subtag Kodi speaks, else
 * English.
 */
export const preferredLanguage = (preferences: string | readonly string[] | null | undefined): Language => {
  const list =
    typeof preferences === 'string'
      ? preferences
          .split(',')
          .map((part) => {
            const [tag = '', ...params] = part.trim().split(';');
            const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
            return { tag: tag.trim(), q: q === undefined ? 1 : Number(q) };
          })
          .filter((p) => p.tag !== '' && p.q > 0)
          .sort((a, b) => b.q - a.q)
          .map((p) => p.tag)
      : (preferences ?? []);
  return resolveLanguage(...list.map((tag) => tag.toLowerCase().split('-')[0]));
};
