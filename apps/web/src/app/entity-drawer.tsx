import { useMemo, type ComponentProps } from 'react';
import { drawerSections, entityList } from '@kodi/domain';
import type { SessionUser } from '@kodi/domain';
import { AppDrawer } from './app-drawer.tsx';

/**
 * The drawer of a user (02-admin §6): the entities' items, placed by their definitions, and the other
 * pages'. Loaded with the drawer's code, after the page (the definitions are not in the first download).
 */
export const UserDrawer = ({
  user,
  ...props
}: Omit<ComponentProps<typeof AppDrawer>, 'sections'> & { user: SessionUser | null }) => {
  const sections = useMemo(() => drawerSections(user, entityList), [user]);
  return <AppDrawer sections={sections} {...props} />;
};
