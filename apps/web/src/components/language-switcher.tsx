import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { LANGUAGES, languageNames } from '@kodi/domain';
import { chooseLanguage, useT } from '../lib/i18n.ts';

/**
 * The sign-in and register pages' language switcher (issue 30): each language named in itself, the
 * page's own marked; the choice is kept for the next visit (signed in, the user's language rules).
 */
export const LanguageSwitcher = () => {
  const { t, language } = useT();
  return (
    <Box
      component="nav"
      aria-label={t('common.language')}
      sx={{ display: 'flex', justifyContent: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 }}
    >
      {LANGUAGES.map((l) => (
        <Link
          key={l}
          component="button"
          type="button"
          variant="body2"
          lang={l}
          underline={l === language ? 'none' : 'hover'}
          aria-current={l === language ? 'true' : undefined}
          sx={l === language ? { fontWeight: 600, color: 'text.primary' } : undefined}
          onClick={() => void chooseLanguage(l)}
        >
          {languageNames[l]}
        </Link>
      ))}
    </Box>
  );
};
