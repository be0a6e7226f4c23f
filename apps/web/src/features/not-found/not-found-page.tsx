import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

export const NotFoundPage = () => (
  <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 8 }}>
    <Typography variant="h4" component="h1">
      Page not found
    </Typography>
    <Typography sx={{ color: 'text.secondary' }}>The page you asked for does not exist.</Typography>
    <Button variant="contained" component={RouterLink} to="/">
      Home
    </Button>
  </Stack>
);
