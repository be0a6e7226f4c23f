import { useEffect } from 'react';
import { activateLanguage, initialLanguage } from '../lib/i18n.ts';
import { useSession } from '../lib/session.ts';

/** The staff app speaks the signed-in user's language; signed out, the one chosen or the browser's. */
export const LanguageFollow = () => {
  const { user } = useSession();
  const language = user ? (user.language ?? 'en') : null;
  useEffect(() => {
    void activateLanguage(language ?? initialLanguage());
  }, [language]);
  return null;
};
