import type { RoleName } from './roles.ts';

/**
 * The application drawer (02-admin §2 'App shell', §6 'Drawer visibility') as data: each entity's
 * definition places its own item (`page.drawer`); the pages that are not entities are placed here.
 * Within a section, items are ordered by `order`.
 */

/** The drawer's sections, in their order. */
export const drawerSectionTitles = [
  'Operations',
  'Finance',
  'Profile',
  'Administration',
  'References',
] as const;
export type DrawerSectionTitle = (typeof drawerSectionTitles)[number];

/** Who sees an item: 'signedIn' means any signed-in user, with or without a role. */
export type NavAudience = 'signedIn' | readonly RoleName[];

/** Every role (a user without a role gets 403 no_role on data). */
export const everyRole = [
  'admin',
  'company_admin',
  'editor',
  'viewer',
] as const satisfies readonly RoleName[];
/** The roles that run the operations pages. */
export const operators = ['admin', 'company_admin', 'editor'] as const satisfies readonly RoleName[];

/** Where a page sits in the drawer. */
export type DrawerPlace = {
  section: DrawerSectionTitle;
  /** its place in the section: items are ordered by it (entities and other pages together). */
  order: number;
  label: string;
  audience: NavAudience;
};

export type NavEntry = DrawerPlace & { path: string };
export type NavSectionDefinition = { title: DrawerSectionTitle; items: readonly NavEntry[] };

export type NavItem = { label: string; path: string };
export type NavSection = { title: string; items: NavItem[] };

/** The drawer items of the pages that are not entities. */
export const appPageEntries: readonly NavEntry[] = [
  // issue 28: the phone's reading round, for those who record readings
  {
    section: 'Operations',
    order: 14,
    label: 'Reading Round',
    path: '/reading-round',
    audience: ['admin', 'editor'],
  },
  { section: 'Finance', order: 20, label: 'Arrears', path: '/arrears', audience: ['admin', 'editor'] },
  {
    section: 'Finance',
    order: 25,
    label: 'Collections',
    path: '/collections',
    audience: ['admin', 'editor'],
  },
  // issue 27: the payouts to owners (listed for every staff role; paid by admins and company admins)
  {
    section: 'Finance',
    order: 28,
    label: 'Owner Payouts',
    path: '/owner-payouts',
    audience: everyRole,
  },
  // the books (issue 25): read by every staff role, changed by admins and company admins
  {
    section: 'Finance',
    order: 50,
    label: 'Chart of Accounts',
    path: '/chart-of-accounts',
    audience: everyRole,
  },
  { section: 'Finance', order: 55, label: 'Journal', path: '/journal', audience: everyRole },
  // issue 25: the Financial Reports page (income statement, cash flow and the books' reports), after
  // the spec's Finance items, for every role that reads reports
  {
    section: 'Finance',
    order: 60,
    label: 'Financial Reports',
    path: '/financial-reports',
    audience: everyRole,
  },
  { section: 'Profile', order: 10, label: 'Change Password', path: '/change-password', audience: 'signedIn' },
  {
    section: 'Profile',
    order: 20,
    label: 'Account Security',
    path: '/account/security',
    audience: 'signedIn',
  },
  {
    section: 'Administration',
    order: 10,
    label: 'User Roles',
    path: '/admin/user-roles',
    audience: ['admin'],
  },
  {
    section: 'Administration',
    order: 25,
    label: 'Company Settings',
    path: '/company-settings',
    audience: ['admin', 'company_admin'],
  },
  {
    section: 'Administration',
    order: 27,
    label: 'Messages',
    path: '/messages',
    audience: ['admin', 'company_admin'],
  },
  // issue 29: announcements to tenants, after Messages (read by every staff role, sent by admins and editors)
  {
    section: 'Administration',
    order: 27.5,
    label: 'Announcements',
    path: '/announcements',
    audience: everyRole,
  },
  {
    section: 'Administration',
    order: 28,
    label: 'Audit Log',
    path: '/audit-log',
    audience: ['admin', 'company_admin'],
  },
  { section: 'Administration', order: 40, label: 'Import', path: '/import', audience: ['admin', 'editor'] },
];

/** What the drawer reads of an entity definition: its page's path and drawer place. */
export type PlacedPage = { page: { path: string; drawer: DrawerPlace } };

/** The whole drawer for a list of entities: their items and the other pages', by section and order. */
export const drawerNavigation = (pages: readonly PlacedPage[]): NavSectionDefinition[] => {
  const entries: NavEntry[] = [
    ...pages.map(({ page }) => ({ ...page.drawer, path: page.path })),
    ...appPageEntries,
  ];
  return drawerSectionTitles.map((title) => ({
    title,
    items: entries.filter((e) => e.section === title).sort((a, b) => a.order - b.order),
  }));
};

type NavUser = { roles: readonly string[] } | null | undefined;

const sees = (audience: NavAudience, user: NonNullable<NavUser>): boolean =>
  audience === 'signedIn' || audience.some((role) => user.roles.includes(role));

/**
 * The drawer sections a user sees, for the entities given (`entityList`); sections with no visible
 * item are left out. Signed out: none.
 */
export const drawerSections = (user: NavUser, pages: readonly PlacedPage[]): NavSection[] => {
  if (!user) return [];
  return drawerNavigation(pages)
    .map((section) => ({
      title: section.title,
      items: section.items
        .filter((item) => sees(item.audience, user))
        .map(({ label, path }) => ({ label, path })),
    }))
    .filter((section) => section.items.length > 0);
};

/**
 * The catalogue key of a drawer item's or section's label (issue 30), derived from its English words
 * ('Owner Payouts' → 'nav.ownerPayouts'): no list of keys beside the items; a test checks that every
 * item and section has one whose English is its label.
 */
export const navKey = (label: string): string => {
  const [first = '', ...rest] = label.match(/[A-Za-z0-9]+/g) ?? [];
  return `nav.${first.toLowerCase()}${rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join('')}`;
};
