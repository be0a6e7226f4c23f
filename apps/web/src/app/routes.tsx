import type { ReactNode } from 'react';
import { lazyPage } from '../components/lazy-page.tsx';
import type { RouteGuard } from './route-guard.ts';

export type AppRoute = {
  /** Route name (02-admin §2: 'Home', 'Login', ...). */
  id: string;
  path: string;
  /** A lazily loaded page: `lazyPage(() => import(...), 'ExportName')`. */
  element: ReactNode;
  guard: RouteGuard;
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
    element: lazyPage(() => import('../features/dashboard/home-page.tsx'), 'HomePage'),
  },
  {
    id: 'Login',
    path: '/login',
    guard: 'guest',
    element: lazyPage(() => import('../features/auth/login-page.tsx'), 'LoginPage'),
  },
  { id: 'Register', path: '/register', guard: 'guest', element: notFound() },
  {
    id: 'About',
    path: '/about',
    guard: 'none',
    element: lazyPage(() => import('../features/about/about-page.tsx'), 'AboutPage'),
  },
  { id: 'Help', path: '/help', guard: 'none', element: notFound() },
  { id: 'Forgot', path: '/forgot', guard: 'none', element: notFound() },
  { id: 'Reset', path: '/reset', guard: 'none', element: notFound() },
  { id: 'ChangePassword', path: '/change-password', guard: 'none', element: notFound() },
  { id: 'GoogleSuccess', path: '/auth/google/success', guard: 'none', element: notFound() },
  { id: 'GoogleError', path: '/auth/google/error', guard: 'none', element: notFound() },
  { id: 'Units', path: '/units', guard: 'signedIn', element: notFound() },
  { id: 'Tenants', path: '/tenants', guard: 'signedIn', element: notFound() },
  { id: 'Occupancy', path: '/occupancy', guard: 'signedIn', element: notFound() },
  { id: 'Payments', path: '/payments', guard: 'signedIn', element: notFound() },
  { id: 'ReceiptPrint', path: '/payments/:id/receipt', guard: 'signedIn', element: notFound() },
  { id: 'MaintenanceRequests', path: '/maintenance-requests', guard: 'signedIn', element: notFound() },
  { id: 'Expenses', path: '/expenses', guard: 'signedIn', element: notFound() },
  { id: 'Vendors', path: '/vendors', guard: 'signedIn', element: notFound() },
  { id: 'Employees', path: '/employees', guard: 'signedIn', element: notFound() },
  { id: 'CommissionWages', path: '/commission-wages', guard: 'signedIn', element: notFound() },
  { id: 'Companies', path: '/companies', guard: 'signedIn', element: notFound() },
  { id: 'Countries', path: '/countries', guard: 'signedIn', element: notFound() },
  { id: 'Currencies', path: '/currencies', guard: 'signedIn', element: notFound() },
  { id: 'FinancialReports', path: '/financial-reports', guard: 'signedIn', element: notFound() },
  { id: 'UserRoles', path: '/admin/user-roles', guard: ['admin'], element: notFound() },
  { id: 'NotFound', path: '*', guard: 'none', element: notFound() },
];

/** Login and Register show neither the drawer nor the page footer. */
export const isBarePage = (pathname: string): boolean => pathname === '/login' || pathname === '/register';
