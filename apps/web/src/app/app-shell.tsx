import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useSession } from '../lib/session.ts';
import { DRAWER_WIDTH, NAVIGATION_ID } from './layout.ts';
import { PageFooter } from './page-footer.tsx';
import { isBarePage } from './routes.tsx';
import { TopBar } from './top-bar.tsx';

// The drawer and the navigation progress bar load on their own, after the page: Login and Register
// (and every page of a signed-out visitor) show neither, and their first download stays small.
const loadDrawer = () => import('./entity-drawer.tsx');
const loadProgress = () => import('./navigation-progress.tsx');
const UserDrawer = lazy(() => loadDrawer().then((m) => ({ default: m.UserDrawer })));
const NavigationProgress = lazy(() => loadProgress().then((m) => ({ default: m.NavigationProgress })));

/** Top bar, left drawer, page and footer (02-admin §2 'App shell'). */
export const AppShell = () => {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const { user } = useSession();
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  // on a phone the drawer is closed until the menu button opens it: its code (the entities'
  // definitions) loads then, not with the first page (issue 26: a phone's start-up work)
  const [mobileOpened, setMobileOpened] = useState(false);
  // the drawer's code arrives after the page: until its navigation is in the page, the menu button
  // names nothing in aria-controls (an id of no element is invalid ARIA)
  const [drawerReady, setDrawerReady] = useState(false);
  const onDrawerReady = useCallback(() => setDrawerReady(true), []);

  const bare = isBarePage(pathname);
  // any signed-in user has a drawer (its Profile section is every signed-in user's: navigation.ts);
  // the drawer's items are read with the drawer's code, so that they are not part of the first download
  const hasDrawer = !bare && !!user;
  const drawerOpen = isDesktop ? desktopOpen : mobileOpen;

  useEffect(() => {
    // Fetched once the first page is up, so the bar is there for the first navigation.
    void loadProgress();
  }, []);

  const toggle = () => {
    if (isDesktop) {
      setDesktopOpen((o) => !o);
      return;
    }
    setMobileOpened(true);
    setMobileOpen((o) => !o);
  };

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar
        onToggleNavigation={hasDrawer ? toggle : undefined}
        navigationOpen={hasDrawer && drawerOpen}
        navigationId={hasDrawer && drawerReady ? NAVIGATION_ID : undefined}
      />
      {navigation.state === 'loading' && (
        <Suspense fallback={null}>
          <NavigationProgress />
        </Suspense>
      )}
      {hasDrawer && (isDesktop || mobileOpened) && (
        // while the drawer's code loads, its place on a desktop, so the page does not shift
        <Suspense
          fallback={isDesktop && drawerOpen ? <Box sx={{ width: DRAWER_WIDTH, flexShrink: 0 }} /> : null}
        >
          <UserDrawer
            user={user}
            variant={isDesktop ? 'permanent' : 'temporary'}
            open={drawerOpen}
            onClose={() => setMobileOpen(false)}
            onReady={onDrawerReady}
          />
        </Suspense>
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {/* the page fills the screen, the footer below it: what a page loads grows into the page's
            place, and the footer it would push down is not in view (no layout shift) */}
        <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
          <Toolbar />
          <Box component="main" sx={{ flexGrow: 1, p: { xs: 2, md: 3 } }}>
            <Outlet />
          </Box>
        </Box>
        {!bare && <PageFooter />}
      </Box>
      <ScrollRestoration />
    </Box>
  );
};
