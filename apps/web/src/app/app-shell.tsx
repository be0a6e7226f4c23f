import { useMemo, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { drawerSections } from '@kodi/domain';
import { useSession } from '../lib/session.ts';
import { AppDrawer } from './app-drawer.tsx';
import { PageFooter } from './page-footer.tsx';
import { isBarePage } from './routes.tsx';
import { TopBar } from './top-bar.tsx';

/** Top bar, left drawer, page and footer (02-admin §2 'App shell'). */
export const AppShell = () => {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const { user } = useSession();
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);

  const bare = isBarePage(pathname);
  const sections = useMemo(() => drawerSections(user), [user]);
  const hasDrawer = !bare && sections.length > 0;
  const drawerOpen = isDesktop ? desktopOpen : mobileOpen;

  const toggle = () => (isDesktop ? setDesktopOpen((o) => !o) : setMobileOpen((o) => !o));

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar onToggleNavigation={hasDrawer ? toggle : undefined} navigationOpen={hasDrawer && drawerOpen} />
      {navigation.state === 'loading' && (
        <LinearProgress
          aria-label="Loading page"
          sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (t) => t.zIndex.drawer + 2 }}
        />
      )}
      {hasDrawer && (
        <AppDrawer
          sections={sections}
          variant={isDesktop ? 'permanent' : 'temporary'}
          open={drawerOpen}
          onClose={() => setMobileOpen(false)}
        />
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <Box component="main" sx={{ flexGrow: 1, p: { xs: 2, md: 3 } }}>
          <Outlet />
        </Box>
        {!bare && <PageFooter />}
      </Box>
      <ScrollRestoration />
    </Box>
  );
};
