import { Suspense, lazy } from 'react';
import { Link as RouterLink } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import AccountCircle from '@mui/icons-material/AccountCircle';
import HelpOutline from '@mui/icons-material/HelpOutline';
import MenuIcon from '@mui/icons-material/Menu';
import { useMenu } from '../components/ui/use-menu.ts';
import { visuallyHidden } from '../components/ui/visually-hidden.ts';
import { companyName, useSession } from '../lib/session.ts';
import { useT } from '../lib/i18n.ts';

// The menus (Menu, Popover, Modal) load after the top bar: they are closed until a click.
const menus = () => import('./top-bar-menus.tsx');
const SupportMenu = lazy(() => menus().then((m) => ({ default: m.SupportMenu })));
const AccountMenu = lazy(() => menus().then((m) => ({ default: m.AccountMenu })));

export const BRAND = 'Kodi';

type TopBarProps = {
  /** Shown when the page has a drawer. */
  onToggleNavigation?: () => void;
  navigationOpen: boolean;
  /** The id of the navigation the menu button opens and closes, once it is in the page. */
  navigationId?: string | undefined;
};

/**
 * On a phone the Support and account buttons are their icons, their words kept for screen readers
 * (issue 26: at 360 px the words left the company's name one letter, 'N…').
 */
const iconOnPhone = {
  flexShrink: 0,
  minWidth: { xs: 40, sm: 64 },
  '& .label': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '@media (max-width: 599.95px)': { '& .label': visuallyHidden, '& .MuiButton-startIcon': { mx: 0 } },
} as const;

/** The part of the e-mail before '@', or 'Account'. */
const accountLabel = (email: string | undefined, account: string) => email?.split('@', 1)[0] || account;

export const TopBar = ({ onToggleNavigation, navigationOpen, navigationId }: TopBarProps) => {
  const session = useSession();
  const { user } = session;
  const support = useMenu();
  const account = useMenu();
  const { t } = useT();

  return (
    <AppBar position="fixed" color="primary" sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1 }}>
        {onToggleNavigation && (
          <IconButton
            color="inherit"
            edge="start"
            aria-label={t('shell.toggleNavigation')}
            aria-controls={navigationId}
            aria-expanded={navigationOpen}
            onClick={onToggleNavigation}
          >
            <MenuIcon />
          </IconButton>
        )}
        <Typography
          variant="h6"
          component={RouterLink}
          to="/"
          noWrap
          sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 600, minWidth: 0 }}
        >
          {user ? companyName(session) : BRAND}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />

        <Button color="inherit" {...support.buttonProps} startIcon={<HelpOutline />} sx={iconOnPhone}>
          <span className="label">{t('shell.support')}</span>
        </Button>
        <Suspense fallback={null}>
          <SupportMenu menu={support} signedIn={!!user} />
        </Suspense>

        {user ? (
          <>
            <Button
              color="inherit"
              {...account.buttonProps}
              startIcon={<AccountCircle />}
              sx={{ ...iconOnPhone, maxWidth: { xs: 48, sm: 260 } }}
            >
              <span className="label">{accountLabel(user.email, t('shell.account'))}</span>
            </Button>
            <Suspense fallback={null}>
              <AccountMenu menu={account} />
            </Suspense>
          </>
        ) : (
          <>
            <Button color="inherit" component={RouterLink} to="/">
              {t('shell.home')}
            </Button>
            <Button color="inherit" component={RouterLink} to="/login">
              {t('shell.login')}
            </Button>
          </>
        )}
      </Toolbar>
    </AppBar>
  );
};
