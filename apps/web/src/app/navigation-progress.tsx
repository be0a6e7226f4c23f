import LinearProgress from '@mui/material/LinearProgress';

/** The bar at the top of the window while the router loads the next page (its guard, its code). */
export const NavigationProgress = () => (
  <LinearProgress
    aria-label="Loading page"
    sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (t) => t.zIndex.drawer + 2 }}
  />
);
