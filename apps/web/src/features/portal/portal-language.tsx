import { LANGUAGES, languageNames } from '@kodi/domain';
import { chooseLanguage, useT } from '../../lib/i18n.ts';

/** The portal's sign-in language switcher (issue 30); signed in, the tenant's or owner's language rules. */
export const PortalLanguageSwitcher = () => {
  const { t, language } = useT();
  return (
    <nav className="languages" aria-label={t('common.language')}>
      {LANGUAGES.map((l) => (
        <button
          key={l}
          type="button"
          className="link"
          lang={l}
          aria-current={l === language ? 'true' : undefined}
          onClick={() => void chooseLanguage(l)}
        >
          {languageNames[l]}
        </button>
      ))}
    </nav>
  );
};
