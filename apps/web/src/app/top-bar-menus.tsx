import { Link as RouterLink } from 'react-router';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { useMenu } from '../components/ui/use-menu.ts';
import { logout } from '../lib/session.ts';
import { useT } from '../lib/i18n.ts';

type MenuState = Pick<ReturnType<typeof useMenu>, 'menuProps' | 'close'>;

/** The 'Support' menu: Help (signed in) and About. */
export const SupportMenu = ({ menu, signedIn }: { menu: MenuState; signedIn: boolean }) => {
  const { t } = useT();
  return (
    <Menu {...menu.menuProps}>
      {signedIn && (
        <MenuItem component={RouterLink} to="/help" onClick={menu.close}>
          {t('shell.help')}
        </MenuItem>
      )}
      <MenuItem component={RouterLink} to="/about" onClick={menu.close}>
        {t('shell.about')}
      </MenuItem>
    </Menu>
  );
};

/** The signed-in user's menu: Home and Logout. */
export const AccountMenu = ({ menu }: { menu: MenuState }) => {
  const { t } = useT();
  return (
    <Menu
      {...menu.menuProps}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      <MenuItem component={RouterLink} to="/" onClick={menu.close}>
        {t('shell.home')}
      </MenuItem>
      <MenuItem
        onClick={() => {
          menu.close();
          void logout();
        }}
      >
        {t('shell.logout')}
      </MenuItem>
    </Menu>
  );
};
