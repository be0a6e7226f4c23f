import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';

/**
 * The 'Back to Login' link under a password page's form; its words from the page (the `auth`
 * group's, which the password pages load: a shared chunk naming no key keeps the other pages that
 * share it from counting that group).
 */
export const BackToLogin = ({ label }: { label: string }) => (
  <Typography variant="body2" sx={{ textAlign: 'center' }}>
    <Link component={RouterLink} to="/login">
      {label}
    </Link>
  </Typography>
);
