import type { ReactNode } from 'react';
import { lazyPage } from '../components/lazy-page.tsx';
import type { RouteGuard } from './route-guard.ts';
import { queryClient } from '../lib/query-client.ts';

export type AppRoute = {
  /** Route name (02-admin §2: 'Home', 'Login', ...). */
  id: string;
  path: string;
  /** A lazily loaded page: `lazyPage(() => import(...), 'ExportName')`. */
  element: ReactNode;
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
    element: lazyPage(() => import('./home-route.tsx'), 'HomeRoute'),
    prefetch: () => {
      void import('./home-route.tsx');
      void import('../features/dashboard/dashboard-query.ts').then(({ dashboardQuery }) =>
        queryClient.prefetchQuery(dashboardQuery()),
      );
    },
  },
  {
    id: 'Login',
    path: '/login',
    guard: 'guest',
    element: lazyPage(() => import('../features/auth/login-page.tsx'), 'LoginPage'),
  },
  {
    id: 'Register',
    path: '/register',
    guard: 'guest',
    element: lazyPage(() => import('../features/accounts/register-page.tsx'), 'RegisterPage'),
  },
  {
    id: 'About',
    path: '/about',
    guard: 'none',
    element: lazyPage(() => import('../features/about/about-page.tsx'), 'AboutPage'),
  },
  {
    id: 'Help',
    path: '/help',
    guard: 'none',
    element: lazyPage(() => import('../features/help/help-page.tsx'), 'HelpPage'),
  },
  {
    id: 'Forgot',
    path: '/forgot',
    guard: 'none',
    element: lazyPage(() => import('../features/accounts/forgot-page.tsx'), 'ForgotPage'),
  },
  {
    id: 'Reset',
    path: '/reset',
    guard: 'none',
    element: lazyPage(() => import('../features/accounts/reset-page.tsx'), 'ResetPage'),
  },
  {
    id: 'ChangePassword',
    path: '/change-password',
    guard: 'none',
    element: lazyPage(() => import('../features/accounts/change-password-page.tsx'), 'ChangePasswordPage'),
  },
  {
    id: 'GoogleSuccess',
    path: '/auth/google/success',
    guard: 'none',
    element: lazyPage(() => import('../features/google/google-success-page.tsx'), 'GoogleSuccessPage'),
  },
  {
    id: 'GoogleError',
    path: '/auth/google/error',
    guard: 'none',
    element: lazyPage(() => import('../features/google/google-error-page.tsx'), 'GoogleErrorPage'),
  },
  {
    id: 'Units',
    path: '/units',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'units'),
  },
  {
    id: 'Tenants',
    path: '/tenants',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'tenants'),
  },
  {
    id: 'Occupancy',
    path: '/occupancy',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'occupancy'),
  },
  {
    id: 'Payments',
    path: '/payments',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'payments'),
  },
  {
    id: 'ReceiptPrint',
    path: '/payments/:id/receipt',
    guard: 'signedIn',
    element: lazyPage(() => import('../features/payments/receipt-page.tsx'), 'ReceiptPage'),
  },
  {
    id: 'MaintenanceRequests',
    path: '/maintenance-requests',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'maintenance_requests'),
  },
  {
    id: 'Expenses',
    path: '/expenses',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'expenses'),
  },
  {
    id: 'Vendors',
    path: '/vendors',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'vendors'),
  },
  {
    id: 'Employees',
    path: '/employees',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'employees'),
  },
  {
    id: 'CommissionWages',
    path: '/commission-wages',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'commission_wages'),
  },
  {
    id: 'Companies',
    path: '/companies',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'companies'),
  },
  {
    id: 'Countries',
    path: '/countries',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'countries'),
  },
  {
    id: 'Currencies',
    path: '/currencies',
    guard: 'signedIn',
    element: lazyPage(() => import('./entity-route.tsx').then((m) => m.entityPages), 'currencies'),
  },
  {
    id: 'Arrears',
    path: '/arrears',
    guard: ['admin', 'editor'],
    element: lazyPage(() => import('../features/arrears/arrears-page.tsx'), 'ArrearsPage'),
  },
  {
    id: 'FinancialReports',
    path: '/financial-reports',
    guard: 'signedIn',
    element: lazyPage(() => import('../features/reports/financial-reports-page.tsx'), 'FinancialReportsPage'),
  },
  {
    id: 'UserRoles',
    path: '/admin/user-roles',
    guard: ['admin'],
    element: lazyPage(() => import('../features/users/user-roles-page.tsx'), 'UserRolesPage'),
  },
  { id: 'NotFound', path: '*', guard: 'none', element: notFound() },
];

/** Login and Register show neither the drawer nor the page footer. */
export const isBarePage = (pathname: string): boolean => pathname === '/login' || pathname === '/register';
