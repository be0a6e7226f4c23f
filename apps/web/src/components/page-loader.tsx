import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useT } from '../lib/i18n.ts';

/** Shown while a page's code or its guard is loading. */
export const PageLoader = ({ label }: { label?: string }) => {
  const { t } = useT();
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 8 }}
    >
      <CircularProgress size={28} aria-hidden="true" />
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {label ?? t('shell.pleaseWait')}
      </Box>
    </Box>
  );
};
