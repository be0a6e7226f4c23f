import { lazyPage, type LazyPage } from '../components/lazy-page.tsx';
import type { RouteGuard } from './route-guard.ts';
import { queryClient } from '../lib/query-client.ts';
import { api } from '../lib/api-client.ts';
import { takeEarly } from '../lib/early.ts';
import type { Dashboard } from '../features/dashboard/dashboard-query.ts';

export type AppRoute = LazyPage & {
  /** Route name (02-admin §2: 'Home', 'Login', ...). */
  id: string;
  path: string;
  guard: RouteGuard;
  /**
   * Started when the guard lets the route in, before the page's code has arrived: the page's chunk
   * and its first request load side by side instead of one after the other.
   */
  prefetch?: () => void;
};

const notFound = () => lazyPage(() => import('../features/not-found/not-found-page.tsx'), 'NotFoundPage');

/**
 * Every route of the spec with its guard (02-admin §2 route table). Pages not built yet show
 * Not found (`notFound()`); replace the element when the page lands.
 */
export const appRoutes: AppRoute[] = [
  {
    id: 'Home',
    path: '/',
    guard: 'signedIn',
    ...lazyPage(() => import('./home-route.tsx'), 'HomeRoute'),
    prefetch: () => {
      // asked now; its query's options (a chunk of their own) take the answer when they arrive
      const early = takeEarly<Dashboard>('dashboard'); // asked before the app started, on Home
      const dashboard = (async () =>
        (await early) ?? api.get<Dashboard>('/dashboard', { quietForbidden: true }))();
      dashboard.catch(() => undefined); // a refusal is the query's to show, once it runs
      void import('../features/dashboard/dashboard-query.ts').then(({ dashboardQuery }) =>
        queryClient.prefetchQuery({ ...dashboardQuery(), queryFn: () => dashboard }),
      );
    },
  },
  {
    id: 'Login',
    path: '/login',
    guard: 'guest',
    ...lazyPage(() => import('../features/auth/login-page.tsx'), 'LoginPage'),
  },
  {
    id: 'Register',
    path: '/register',
    guard: 'guest',
    ...lazyPage(() => import('../features/accounts/register-page.tsx'), 'RegisterPage'),
  },
  {
    id: 'About',
    path: '/about',
    guard: 'none',
    ...lazyPage(() => import('../features/about/about-page.tsx'), 'AboutPage'),
  },
  {
    id: 'Help',
    path: '/help',
    guard: 'none',
    ...lazyPage(() => import('../features/help/help-page.tsx'), 'HelpPage'),
  },
  {
    id: 'Forgot',
    path: '/forgot',
    guard: 'none',
    ...lazyPage(() => import('../features/accounts/forgot-page.tsx'), 'ForgotPage'),
  },
  {
    id: 'Reset',
    path: '/reset',
    guard: 'none',
    ...lazyPage(() => import('../features/accounts/reset-page.tsx'), 'ResetPage'),
  },
  {
    id: 'ChangePassword',
    path: '/change-password',
    guard: 'none',
    ...lazyPage(() => import('../features/accounts/change-password-page.tsx'), 'ChangePasswordPage'),
  },
  {
    id: 'GoogleSuccess',
    path: '/auth/google/success',
    guard: 'none',
    ...lazyPage(() => import('../features/google/google-success-page.tsx'), 'GoogleSuccessPage'),
  },
  {
    id: 'GoogleError',
    path: '/auth/google/error',
    guard: 'none',
    ...lazyPage(() => import('../features/google/google-error-page.tsx'), 'GoogleErrorPage'),
  },
  {
    id: 'Units',
    path: '/units',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'units'),
  },
  {
    id: 'Tenants',
    path: '/tenants',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'tenants'),
  },
  {
    id: 'Occupancy',
    path: '/occupancy',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'occupancy'),
  },
  {
    id: 'Payments',
    path: '/payments',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'payments'),
  },
  {
    id: 'ReceiptPrint',
    path: '/payments/:id/receipt',
    guard: 'signedIn',
    ...lazyPage(() => import('../features/payments/receipt-page.tsx'), 'ReceiptPage'),
  },
  {
    id: 'MaintenanceRequests',
    path: '/maintenance-requests',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'maintenance_requests'),
  },
  {
    id: 'Expenses',
    path: '/expenses',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'expenses'),
  },
  {
    id: 'Vendors',
    path: '/vendors',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'vendors'),
  },
  {
    id: 'Employees',
    path: '/employees',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'employees'),
  },
  {
    id: 'CommissionWages',
    path: '/commission-wages',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'commission_wages'),
  },
  {
    id: 'Companies',
    path: '/companies',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'companies'),
  },
  {
    id: 'Countries',
    path: '/countries',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'countries'),
  },
  {
    id: 'Currencies',
    path: '/currencies',
    guard: 'signedIn',
    ...lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'currencies'),
  },
  {
    id: 'Arrears',
    path: '/arrears',
    guard: ['admin', 'editor'],
    ...lazyPage(() => import('../features/arrears/arrears-page.tsx'), 'ArrearsPage'),
  },
  {
    id: 'FinancialReports',
    path: '/financial-reports',
    guard: 'signedIn',
    ...lazyPage(() => import('../features/reports/financial-reports-page.tsx'), 'FinancialReportsPage'),
  },
  {
    id: 'UserRoles',
    path: '/admin/user-roles',
    guard: ['admin'],
    ...lazyPage(() => import('../features/users/user-roles-page.tsx'), 'UserRolesPage'),
  },
  { id: 'NotFound', path: '*', guard: 'none', ...notFound() },
];

/** Login and Register show neither the drawer nor the page footer. */
export const isBarePage = (pathname: string): boolean => pathname === '/login' || pathname === '/register';
