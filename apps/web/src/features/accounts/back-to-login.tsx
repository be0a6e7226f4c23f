import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useT } from '../../lib/i18n.ts';

/** The 'Back to Login' link under a password page's form. */
export const BackToLogin = () => {
  const { t } = useT();
  return (
    <Typography variant="body2" sx={{ textAlign: 'center' }}>
      <Link component={RouterLink} to="/login">
        {t('account.backToLogin')}
      </Link>
    </Typography>
  );
};
