import { useLayoutEffect, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { navKey, type NavSection } from '@kodi/domain';
import { useT } from '../lib/i18n.ts';
import { DRAWER_WIDTH, NAVIGATION_ID } from './layout.ts';
import { APP_VERSION } from '../lib/version.ts';

type AppDrawerProps = {
  sections: NavSection[];
  /** permanent (desktop, md and up) or temporary (mobile). */
  variant: 'permanent' | 'temporary';
  open: boolean;
  onClose: () => void;
  /** Called once its navigation (id NAVIGATION_ID) is in the page, before the browser paints. */
  onReady?: () => void;
};

const isActive = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

const DrawerContent = ({ sections, onNavigate }: { sections: NavSection[]; onNavigate: () => void }) => {
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  const { t, td } = useT();

  return (
    <Box
      component="nav"
      id={NAVIGATION_ID}
      aria-label={t('shell.mainNavigation')}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <Toolbar />
      <Box sx={{ flexGrow: 1, overflowY: 'auto' }}>
        {sections.map((section) => {
          const open = !collapsed[section.title];
          const listId = `nav-section-${section.title.toLowerCase()}`;
          return (
            <Box key={section.title}>
              <ListItemButton
                aria-expanded={open}
                aria-controls={listId}
                onClick={() => setCollapsed((c) => ({ ...c, [section.title]: open }))}
                sx={{ py: 0.75 }}
              >
                <ListItemText
                  primary={td(navKey(section.title), section.title)}
                  slotProps={{
                    primary: { sx: { fontWeight: 600, fontSize: '0.875rem', color: 'text.secondary' } },
                  }}
                />
                {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
              </ListItemButton>
              <Collapse in={open} timeout="auto" unmountOnExit>
                <List id={listId} dense disablePadding aria-label={td(navKey(section.title), section.title)}>
                  {section.items.map((item) => (
                    <ListItem key={item.path} disablePadding>
                      <ListItemButton
                        component={RouterLink}
                        to={item.path}
                        selected={isActive(pathname, item.path)}
                        aria-current={isActive(pathname, item.path) ? 'page' : undefined}
                        onClick={onNavigate}
                        sx={{ pl: 4 }}
                      >
                        <ListItemText primary={td(navKey(item.label), item.label)} />
                      </ListItemButton>
                    </ListItem>
                  ))}
                </List>
              </Collapse>
            </Box>
          );
        })}
      </Box>
      <Divider />
      <Typography variant="caption" sx={{ px: 2, py: 1.5, color: 'text.secondary' }}>
        v{APP_VERSION}
      </Typography>
    </Box>
  );
};

/** The left drawer (02-admin §2 'App shell'): permanent on desktop, temporary on mobile. */
export const AppDrawer = ({ sections, variant, open, onClose, onReady }: AppDrawerProps) => {
  const { t } = useT();
  const paper = { width: DRAWER_WIDTH, boxSizing: 'border-box' } as const;
  useLayoutEffect(() => onReady?.(), [onReady]);
  if (variant === 'permanent') {
    // closed, it stays in the page, hidden: the menu button's aria-controls keeps naming it
    return (
      <Drawer
        variant="permanent"
        open
        sx={{
          width: DRAWER_WIDTH,
          flexShrink: 0,
          '& .MuiDrawer-paper': paper,
          ...(open ? {} : { display: 'none' }),
        }}
      >
        <DrawerContent sections={sections} onNavigate={() => undefined} />
      </Drawer>
    );
  }
  return (
    <Drawer
      variant="temporary"
      open={open}
      onClose={onClose}
      ModalProps={{ keepMounted: true }}
      slotProps={{ paper: { 'aria-label': t('shell.navigation') } }}
      sx={{ '& .MuiDrawer-paper': paper }}
    >
      <DrawerContent sections={sections} onNavigate={onClose} />
    </Drawer>
  );
};
