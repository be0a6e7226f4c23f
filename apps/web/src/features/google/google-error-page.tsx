import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { accountMessages } from '@kodi/domain';
import { AccountCard } from '../../components/account-card.tsx';

/** Where a failed Google sign-in ends (02-admin §2): the server's error_message, and a way back. */
export const GoogleErrorPage = () => {
  const [searchParams] = useSearchParams();
  const message = searchParams.get('error_message')?.trim() || accountMessages.unknownError;
  return (
    <AccountCard title="Google sign-in failed">
      <Alert severity="error" role="alert">
        {message}
      </Alert>
      <Button component={RouterLink} to="/login" variant="contained" sx={{ alignSelf: 'flex-start' }}>
        Back to Login
      </Button>
    </AccountCard>
  );
};
