import { useId, useState, type MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import AccountCircle from '@mui/icons-material/AccountCircle';
import HelpOutline from '@mui/icons-material/HelpOutline';
import MenuIcon from '@mui/icons-material/Menu';
import { companyName, logout, useSession } from '../lib/session.ts';

export const BRAND = 'Kodi';

type TopBarProps = {
  /** Shown when the page has a drawer. */
  onToggleNavigation?: () => void;
  navigationOpen: boolean;
};

/** The part of the e-mail before '@', or 'Account'. */
const accountLabel = (email: string | undefined) => email?.split('@', 1)[0] || 'Account';

const useMenu = () => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  return {
    anchor,
    open: anchor !== null,
    menuId: `${id}-menu`,
    buttonId: `${id}-button`,
    onOpen: (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
    onClose: () => setAnchor(null),
  };
};

export const TopBar = ({ onToggleNavigation, navigationOpen }: TopBarProps) => {
  const session = useSession();
  const { user } = session;
  const support = useMenu();
  const account = useMenu();

  return (
    <AppBar position="fixed" color="primary" sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1 }}>
        {onToggleNavigation && (
          <IconButton
            color="inherit"
            edge="start"
            aria-label="Toggle navigation"
            aria-controls="app-navigation"
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

        <Button
          color="inherit"
          id={support.buttonId}
          aria-haspopup="menu"
          aria-controls={support.open ? support.menuId : undefined}
          aria-expanded={support.open}
          onClick={support.onOpen}
          startIcon={<HelpOutline />}
          sx={{ flexShrink: 0, '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } } }}
        >
          Support
        </Button>
        <Menu
          id={support.menuId}
          anchorEl={support.anchor}
          open={support.open}
          onClose={support.onClose}
          slotProps={{ list: { 'aria-labelledby': support.buttonId } }}
        >
          {user && (
            <MenuItem component={RouterLink} to="/help" onClick={support.onClose}>
              Help
            </MenuItem>
          )}
          <MenuItem component={RouterLink} to="/about" onClick={support.onClose}>
            About
          </MenuItem>
        </Menu>

        {user ? (
          <>
            <Button
              color="inherit"
              id={account.buttonId}
              aria-haspopup="menu"
              aria-controls={account.open ? account.menuId : undefined}
              aria-expanded={account.open}
              onClick={account.onOpen}
              startIcon={<AccountCircle />}
              sx={{
                maxWidth: { xs: 150, sm: 260 },
                flexShrink: 0,
                '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } },
                '& .label': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
              }}
            >
              <span className="label">{accountLabel(user.email)}</span>
            </Button>
            <Menu
              id={account.menuId}
              anchorEl={account.anchor}
              open={account.open}
              onClose={account.onClose}
              anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
              transformOrigin={{ vertical: 'top', horizontal: 'right' }}
              slotProps={{ list: { 'aria-labelledby': account.buttonId } }}
            >
              <MenuItem component={RouterLink} to="/" onClick={account.onClose}>
                Home
              </MenuItem>
              <MenuItem
                onClick={() => {
                  account.onClose();
                  void logout();
                }}
              >
                Logout
              </MenuItem>
            </Menu>
          </>
        ) : (
          <>
            <Button color="inherit" component={RouterLink} to="/">
              Home
            </Button>
            <Button color="inherit" component={RouterLink} to="/login">
              Login
            </Button>
          </>
        )}
      </Toolbar>
    </AppBar>
  );
};
