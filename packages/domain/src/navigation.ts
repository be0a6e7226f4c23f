import type { RoleName } from './roles.ts';

/**
 * The application drawer (02-admin §2 'App shell', §6 'Drawer visibility') as data.
 * `roles` lists who sees an item; 'signedIn' means any signed-in user, with or without a role.
 */
export type NavAudience = 'signedIn' | readonly RoleName[];

export type NavEntry = { label: string; path: string; audience: NavAudience };
export type NavSectionDefinition = { title: string; items: readonly NavEntry[] };

export type NavItem = { label: string; path: string };
export type NavSection = { title: string; items: NavItem[] };

const allRoles = ['admin', 'company_admin', 'editor', 'viewer'] as const satisfies readonly RoleName[];
const operators = ['admin', 'company_admin', 'editor'] as const satisfies readonly RoleName[];

export const drawerNavigation: readonly NavSectionDefinition[] = [
  {
    title: 'Operations',
    items: [
      { label: 'Units', path: '/units', audience: allRoles },
      { label: 'Tenants', path: '/tenants', audience: operators },
      { label: 'Occupancy', path: '/occupancy', audience: operators },
      { label: 'Maintenance', path: '/maintenance-requests', audience: operators },
      { label: 'Vendors', path: '/vendors', audience: operators },
    ],
  },
  {
    title: 'Finance',
    items: [
      { label: 'Payments', path: '/payments', audience: ['admin', 'editor'] },
      { label: 'Arrears', path: '/arrears', audience: ['admin', 'editor'] },
      { label: 'Expenses', path: '/expenses', audience: ['admin', 'editor'] },
      { label: 'Commission Wages', path: '/commission-wages', audience: ['admin', 'company_admin'] },
    ],
  },
  {
    title: 'Profile',
    items: [{ label: 'Change Password', path: '/change-password', audience: 'signedIn' }],
  },
  {
    title: 'Administration',
    items: [
      { label: 'User Roles', path: '/admin/user-roles', audience: ['admin'] },
      { label: 'Companies', path: '/companies', audience: ['admin'] },
      { label: 'Employees', path: '/employees', audience: ['admin', 'company_admin'] },
    ],
  },
  {
    title: 'References',
    items: [
      // 'Countries for all': every user holding a role (a user without a role gets 403 no_role on data).
      { label: 'Countries', path: '/countries', audience: allRoles },
      { label: 'Currencies', path: '/currencies', audience: ['admin'] },
    ],
  },
];

type NavUser = { roles: readonly string[] } | null | undefined;

const sees = (audience: NavAudience, user: NonNullable<NavUser>): boolean =>
  audience === 'signedIn' || audience.some((role) => user.roles.includes(role));

/** The drawer sections a user sees; sections with no visible item are left out. Signed out: none. */
export const drawerSections = (user: NavUser): NavSection[] => {
  if (!user) return [];
  return drawerNavigation
    .map((section) => ({
      title: section.title,
      items: section.items
        .filter((item) => sees(item.audience, user))
        .map(({ label, path }) => ({ label, path })),
    }))
    .filter((section) => section.items.length > 0);
};
