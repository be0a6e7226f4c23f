import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Shown while a page's code or its guard is loading. */
export const PageLoader = ({ label = 'Loading ... Please wait' }: { label?: string }) => (
  <Box
    role="status"
    aria-live="polite"
    sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 8 }}
  >
    <CircularProgress size={28} aria-hidden="true" />
    <Box component="span" sx={{ color: 'text.secondary' }}>
      {label}
    </Box>
  </Box>
);
