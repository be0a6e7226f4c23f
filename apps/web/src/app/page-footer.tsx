import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useT } from '../lib/i18n.ts';

const FOOTER_CLOCK_MS = 60_000;
const clocks = {
  en: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
  sw: new Intl.DateTimeFormat('sw', { dateStyle: 'medium', timeStyle: 'short' }),
  fr: new Intl.DateTimeFormat('fr', { dateStyle: 'medium', timeStyle: 'short' }),
} as const;

/** '© {year} Kodi' and the current date/time, refreshed every 60 s. */
export const PageFooter = () => {
  const [now, setNow] = useState(() => new Date());
  const { language } = useT();
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), FOOTER_CLOCK_MS);
    return () => window.clearInterval(timer);
  }, []);

  return (
    <Box
      component="footer"
      sx={{
        px: { xs: 2, md: 3 },
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'space-between',
        gap: 1,
      }}
    >
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        © {now.getFullYear()} Kodi
      </Typography>
      <Typography
        variant="body2"
        component="time"
        dateTime={now.toISOString()}
        sx={{ color: 'text.secondary' }}
      >
        {clocks[language].format(now)}
      </Typography>
    </Box>
  );
};
