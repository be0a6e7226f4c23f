import { useEffect } from 'react';
import { activateLanguage, chooseLanguage, initialLanguage } from '../lib/i18n.ts';
import { useSession } from '../lib/session.ts';

/**
 * The staff app speaks the signed-in user's language; signed out, the one chosen or the browser's.
 * The user's is kept as the chosen one, so that the next visit loads it from the start (its
 * catalogue beside the first page's code, not after the session's answer).
 */
export const LanguageFollow = () => {
  const { user } = useSession();
  const language = user ? (user.language ?? 'en') : null;
  useEffect(() => {
    void (language ? chooseLanguage(language) : activateLanguage(initialLanguage()));
  }, [language]);
  return null;
};
