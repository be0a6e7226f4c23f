import { isLanguage, type Language } from '@kodi/domain/i18n/web';
import { i18n, initialLanguage } from '../../lib/i18n.ts';
import type { HelpTopic } from './help-shared.ts';

/**
 * The Help Center's topics in one language (issue 30): each language's text is a chunk of its own,
 * so a reader downloads only theirs. Asked as the page's code arrives and by the page; a failed
 * download is tried again next time.
 */
const loaders: Record<Language, () => Promise<{ helpTopics: HelpTopic[] }>> = {
  en: () => import('./help-topics.ts'),
  sw: () => import('./help-topics.sw.ts'),
  fr: () => import('./help-topics.fr.ts'),
};

const loaded = new Map<Language, Promise<HelpTopic[]>>();

export const loadHelpTopics = (language: Language): Promise<HelpTopic[]> => {
  let topics = loaded.get(language);
  if (!topics) {
    topics = loaders[language]().then((m) => m.helpTopics);
    topics.catch(() => loaded.delete(language));
    loaded.set(language, topics);
  }
  return topics;
};

/** The topics in the language the page is about to show. */
export const prefetchHelpTopics = (): void => {
  const language = isLanguage(i18n.locale) ? i18n.locale : initialLanguage();
  loadHelpTopics(language).catch(() => undefined);
};
