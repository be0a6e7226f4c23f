import LinearProgress from '@mui/material/LinearProgress';
import { useT } from '../lib/i18n.ts';

/** The bar at the top of the window while the router loads the next page (its guard, its code). */
export const NavigationProgress = () => {
  const { t } = useT();
  return (
    <LinearProgress
      aria-label={t('shell.loadingPage')}
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (t) => t.zIndex.drawer + 2 }}
    />
  );
};
