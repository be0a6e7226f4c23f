import { lazyPage, type LazyPage } from '../components/lazy-page.tsx';
import type { RouteGuard } from './route-guard.ts';
import { queryClient } from '../lib/query-client.ts';
import { api } from '../lib/api-client.ts';
import { earlyDashboardProperty, takeEarly } from '../lib/early.ts';
import { propertyOfUrl } from '../lib/property-filter.ts';
import { getSession } from '../lib/session.ts';
import type { Dashboard } from '../features/dashboard/dashboard-query.ts';

export type AppRoute = LazyPage & {
  /** Route name (02-admin §2: 'Home', 'Login', ...). */
  id: string;
  path: string;
  guard: RouteGuard;
  /**
   * Started when the guard lets the route in, before the page's code has arrived: the page's chunk
   * and its first request load side by side instead of one after the other. `url`: where to.
   */
  prefetch?: (url: URL) => void;
  /** The catalogue groups the page needs beyond the staff app's (issue 30: 'entity'), loaded beside its code. */
  texts?: readonly string[];
};

/** Any staff role (the books' pages: read by all of them). */
const staff = ['admin', 'company_admin', 'editor', 'viewer'] as const;

const notFound = () => lazyPage(() => import('../features/not-found/not-found-page.tsx'), 'NotFoundPage');

/**
 * The routes of the spec's pages that are not entities, with their guards (02-admin §2 route table).
 * The entities' list pages have routes made from their definitions (`entity-routes.tsx`): the router
 * adds them when a path is first not matched by one of these (their definitions are not part of the
 * first download).
 */
export const appRoutes: AppRoute[] = [
  {
    id: 'Home',
    path: '/',
    guard: 'signedIn',
    ...lazyPage(() => import('./home-route.tsx'), 'HomeRoute'),
    texts: ['dashboard'],
    prefetch: (url) => {
      // asked now; its query's options (a chunk of their own) take the answer when they arrive
      const propertyId = propertyOfUrl(url.search, getSession().user?.id); // the one Home shows
      const early = takeEarly<Dashboard>('dashboard'); // asked before the app started, on Home
      const fitting = earlyDashboardProperty() === propertyId ? early : undefined;
      const dashboard = (async () =>
        (await fitting) ??
        api.get<Dashboard>('/dashboard', {
          quietForbidden: true,
          query: { property_id: propertyId ?? undefined },
        }))();
      dashboard.catch(() => undefined); // a refusal is the query's to show, once it runs
      void import('../features/dashboard/dashboard-query.ts').then(({ dashboardQuery }) =>
        queryClient.prefetchQuery({ ...dashboardQuery(propertyId), queryFn: () => dashboard }),
      );
    },
  },
  {
    id: 'Login',
    path: '/login',
    guard: 'guest',
    ...lazyPage(() => import('../features/auth/login-page.tsx'), 'LoginPage'),
    texts: ['auth'],
  },
  {
    id: 'Register',
    path: '/register',
    guard: 'guest',
    ...lazyPage(() => import('../features/accounts/register-page.tsx'), 'RegisterPage'),
    texts: ['auth'],
  },
  {
    id: 'About',
    path: '/about',
    guard: 'none',
    ...lazyPage(() => import('../features/about/about-page.tsx'), 'AboutPage'),
    texts: ['auth'],
  },
  {
    id: 'Help',
    path: '/help',
    guard: 'none',
    ...lazyPage(() => import('../features/help/help-page.tsx'), 'HelpPage'),
    texts: ['help'],
  },
  {
    id: 'Forgot',
    path: '/forgot',
    guard: 'none',
    ...lazyPage(() => import('../features/accounts/forgot-page.tsx'), 'ForgotPage'),
    texts: ['auth'],
  },
  {
    id: 'Reset',
    path: '/reset',
    guard: 'none',
    ...lazyPage(() => import('../features/accounts/reset-page.tsx'), 'ResetPage'),
    texts: ['auth'],
  },
  {
    id: 'ChangePassword',
    path: '/change-password',
    guard: 'none',
    ...lazyPage(() => import('../features/accounts/change-password-page.tsx'), 'ChangePasswordPage'),
    texts: ['auth'],
  },
  {
    id: 'AccountSecurity',
    path: '/account/security',
    guard: 'signedIn',
    ...lazyPage(() => import('../features/security/security-page.tsx'), 'SecurityPage'),
    texts: ['security'],
  },
  {
    id: 'GoogleSuccess',
    path: '/auth/google/success',
    guard: 'none',
    ...lazyPage(() => import('../features/google/google-success-page.tsx'), 'GoogleSuccessPage'),
    texts: ['auth'],
  },
  {
    id: 'GoogleError',
    path: '/auth/google/error',
    guard: 'none',
    ...lazyPage(() => import('../features/google/google-error-page.tsx'), 'GoogleErrorPage'),
    texts: ['auth'],
  },
  {
    id: 'ReceiptPrint',
    path: '/payments/:id/receipt',
    guard: 'signedIn',
    ...lazyPage(() => import('../features/payments/receipt-page.tsx'), 'ReceiptPage'),
    texts: ['books'],
  },
  {
    id: 'Arrears',
    path: '/arrears',
    guard: ['admin', 'editor'],
    ...lazyPage(() => import('../features/arrears/arrears-page.tsx'), 'ArrearsPage'),
    texts: ['arrears', 'entity'], // `entity`: a lease's ledger
  },
  {
    id: 'FinancialReports',
    path: '/financial-reports',
    guard: 'signedIn',
    ...lazyPage(() => import('../features/reports/financial-reports-page.tsx'), 'FinancialReportsPage'),
    texts: ['reports', 'accounts'],
  },
  {
    id: 'OwnerPayouts',
    path: '/owner-payouts',
    guard: 'signedIn',
    ...lazyPage(() => import('../features/owner-payouts/owner-payouts-page.tsx'), 'OwnerPayoutsPage'),
    texts: ['books'],
  },
  {
    id: 'UserRoles',
    path: '/admin/user-roles',
    guard: ['admin'],
    ...lazyPage(() => import('../features/users/user-roles-page.tsx'), 'UserRolesPage'),
    texts: ['users'],
  },
  {
    id: 'CompanySettings',
    path: '/company-settings',
    guard: ['admin', 'company_admin'],
    ...lazyPage(
      () => import('../features/company-settings/company-settings-page.tsx'),
      'CompanySettingsPage',
    ),
    texts: ['settings'],
  },
  {
    id: 'Messages',
    path: '/messages',
    guard: ['admin', 'company_admin'],
    ...lazyPage(() => import('../features/messages/messages-page.tsx'), 'MessagesPage'),
    texts: ['messages', 'templates'],
  },
  // issue 29: announcements to tenants, under Messages (read by every staff role, sent by admins and
  // editors), in the Messages page's chunk: a chunk of its own would regroup the chunks the other
  // pages share (the bundle's budget)
  {
    id: 'Announcements',
    path: '/announcements',
    guard: staff,
    ...lazyPage(() => import('../features/messages/messages-page.tsx'), 'AnnouncementsPage'),
    texts: ['messages'],
  },
  {
    id: 'AuditLog',
    path: '/audit-log',
    guard: ['admin', 'company_admin'],
    ...lazyPage(() => import('../features/audit-log/audit-log-page.tsx'), 'AuditLogPage'),
    texts: ['audit'],
  },
  {
    id: 'Import',
    path: '/import',
    guard: ['admin', 'editor'],
    ...lazyPage(() => import('../features/imports/import-page.tsx'), 'ImportPage'),
    texts: ['imports', 'entity'],
  },
  {
    id: 'Collections',
    path: '/collections',
    guard: ['admin', 'editor'],
    ...lazyPage(() => import('../features/collections/collections-page.tsx'), 'CollectionsPage'),
    texts: ['collections'],
  },
  {
    id: 'ChartOfAccounts',
    path: '/chart-of-accounts',
    guard: staff,
    ...lazyPage(() => import('../features/books/chart-of-accounts-page.tsx'), 'ChartOfAccountsPage'),
    texts: ['books', 'accounts'],
  },
  {
    id: 'Journal',
    path: '/journal',
    guard: staff,
    ...lazyPage(() => import('../features/books/journal-page.tsx'), 'JournalPage'),
    texts: ['books', 'accounts'],
  },
  {
    id: 'ReadingRound',
    path: '/reading-round',
    guard: ['admin', 'editor'],
    ...lazyPage(() => import('../features/utilities/reading-round-page.tsx'), 'ReadingRoundPage'),
    texts: ['utilities'],
  },
  { id: 'NotFound', path: '*', guard: 'none', ...notFound() },
];

/** Login and Register show neither the drawer nor the page footer. */
export const isBarePage = (pathname: string): boolean => pathname === '/login' || pathname === '/register';
