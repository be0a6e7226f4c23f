import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { APP_VERSION } from '../../lib/version.ts';

/** About (no guard): what Kodi is — a demo (01-core §1). */
export const AboutPage = () => (
  <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 760, mx: 'auto' }}>
    <Stack spacing={2}>
      <Typography variant="h4" component="h1">
        About Kodi
      </Typography>
      <Alert severity="info">
        Kodi is a demo application: it shows how rental property management can work, and it may come with
        sample units, tenants and payments to try it out.
      </Alert>
      <Typography>Kodi manages rental units, tenants, leases, payments and receipts.</Typography>
      <Typography>
        Landlords and property managers keep their units, tenants and occupancy (lease) records in one place,
        record payments and print receipts, and follow maintenance requests and expenses. All data is kept per
        company, and money is shown in the company&apos;s currency.
      </Typography>
      <Typography>
        Staff sign in with their e-mail, password and an image CAPTCHA. Administrators grant roles: admins,
        company admins, editors and viewers.
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        Version {APP_VERSION}
      </Typography>
      <Typography>
        <Link component={RouterLink} to="/">
          Back to Home
        </Link>
      </Typography>
    </Stack>
  </Paper>
);
