import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { APP_VERSION } from '../../lib/version.ts';
import { useT } from '../../lib/i18n.ts';

/** About (no guard): what Kodi is — a demo (01-core §1). */
export const AboutPage = () => {
  const { t } = useT();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 760, mx: 'auto' }}>
      <Stack spacing={2}>
        <Typography variant="h4" component="h1">
          {t('account.aboutTitle')}
        </Typography>
        <Alert severity="info">{t('account.aboutDemo')}</Alert>
        <Typography>{t('account.aboutManages')}</Typography>
        <Typography>{t('account.aboutRecords')}</Typography>
        <Typography>{t('account.aboutStaff')}</Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('account.version', { version: APP_VERSION })}
        </Typography>
        <Typography>
          <Link component={RouterLink} to="/">
            {t('account.backToHome')}
          </Link>
        </Typography>
      </Stack>
    </Paper>
  );
};
