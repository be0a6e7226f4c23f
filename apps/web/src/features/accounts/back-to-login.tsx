import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';

/** The 'Back to Login' link under a password page's form. */
export const BackToLogin = () => (
  <Typography variant="body2" sx={{ textAlign: 'center' }}>
    <Link component={RouterLink} to="/login">
      Back to Login
    </Link>
  </Typography>
);
