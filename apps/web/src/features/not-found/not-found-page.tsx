import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useT } from '../../lib/i18n.ts';

export const NotFoundPage = () => {
  const { t } = useT();
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 8 }}>
      <Typography variant="h4" component="h1">
        {t('shell.notFound')}
      </Typography>
      <Typography sx={{ color: 'text.secondary' }}>{t('shell.notFoundText')}</Typography>
      <Button variant="contained" component={RouterLink} to="/">
        {t('shell.home')}
      </Button>
    </Stack>
  );
};
