import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { AccountCard } from '../../components/account-card.tsx';
import { useT } from '../../lib/i18n.ts';

/** Where a failed Google sign-in ends (02-admin §2): the server's error_message, and a way back. */
export const GoogleErrorPage = () => {
  const { t } = useT();
  const [searchParams] = useSearchParams();
  const message = searchParams.get('error_message')?.trim() || t('account.unknownError');
  return (
    <AccountCard title={t('account.googleFailed')}>
      <Alert severity="error" role="alert">
        {message}
      </Alert>
      <Button component={RouterLink} to="/login" variant="contained" sx={{ alignSelf: 'flex-start' }}>
        {t('account.backToLogin')}
      </Button>
    </AccountCard>
  );
};
