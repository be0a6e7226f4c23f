import { describe, expect, it } from 'vitest';
import { drawerSections, entityList } from '@kodi/domain';
import { gadgets } from '@kodi/domain/testing';
import { appRoutes, type AppRoute } from './routes.tsx';
import { entityRoutes, entityRoutesOf } from './entity-routes.tsx';

const table = (routes: readonly AppRoute[]) => routes.map(({ id, path, guard }) => ({ id, path, guard }));

/** The spec's route table (02-admin §2): every page's name, path and guard, in order. */
const SPEC_ROUTES = [
  { id: 'Home', path: '/', guard: 'signedIn' },
  { id: 'Login', path: '/login', guard: 'guest' },
  { id: 'Register', path: '/register', guard: 'guest' },
  { id: 'About', path: '/about', guard: 'none' },
  { id: 'Help', path: '/help', guard: 'none' },
  { id: 'Forgot', path: '/forgot', guard: 'none' },
  { id: 'Reset', path: '/reset', guard: 'none' },
  { id: 'ChangePassword', path: '/change-password', guard: 'none' },
  { id: 'AccountSecurity', path: '/account/security', guard: 'signedIn' },
  { id: 'GoogleSuccess', path: '/auth/google/success', guard: 'none' },
  { id: 'GoogleError', path: '/auth/google/error', guard: 'none' },
  { id: 'ReceiptPrint', path: '/payments/:id/receipt', guard: 'signedIn' },
  { id: 'Arrears', path: '/arrears', guard: ['admin', 'editor'] },
  { id: 'FinancialReports', path: '/financial-reports', guard: 'signedIn' },
  { id: 'UserRoles', path: '/admin/user-roles', guard: ['admin'] },
  { id: 'CompanySettings', path: '/company-settings', guard: ['admin', 'company_admin'] },
  { id: 'Messages', path: '/messages', guard: ['admin', 'company_admin'] },
  { id: 'AuditLog', path: '/audit-log', guard: ['admin', 'company_admin'] },
  { id: 'Import', path: '/import', guard: ['admin', 'editor'] },
  { id: 'Collections', path: '/collections', guard: ['admin', 'editor'] },
  { id: 'NotFound', path: '*', guard: 'none' },
  { id: 'Properties', path: '/properties', guard: 'signedIn' },
  { id: 'Units', path: '/units', guard: 'signedIn' },
  { id: 'Tenants', path: '/tenants', guard: 'signedIn' },
  { id: 'Occupancy', path: '/occupancy', guard: 'signedIn' },
  { id: 'Payments', path: '/payments', guard: 'signedIn' },
  { id: 'MaintenanceRequests', path: '/maintenance-requests', guard: 'signedIn' },
  { id: 'Expenses', path: '/expenses', guard: 'signedIn' },
  { id: 'Vendors', path: '/vendors', guard: 'signedIn' },
  { id: 'Employees', path: '/employees', guard: 'signedIn' },
  { id: 'CommissionWages', path: '/commission-wages', guard: 'signedIn' },
  { id: 'Companies', path: '/companies', guard: 'signedIn' },
  { id: 'Countries', path: '/countries', guard: 'signedIn' },
  { id: 'Currencies', path: '/currencies', guard: 'signedIn' },
];
const SPEC_IDS = new Set(SPEC_ROUTES.map((r) => r.id));
/**
 * The spec's routes among these, in their order: an entity added to the list adds its own route and
 * changes nothing of theirs (no whole table is pinned here).
 */
const specRoutes = (routes: readonly AppRoute[]) => table(routes).filter((r) => SPEC_IDS.has(r.id));

describe('the route table', () => {
  it("has the spec's routes in order (02-admin §2): every page's name, path and guard, the entities' from their definitions", () => {
    const routes = [...appRoutes, ...entityRoutes];
    expect(specRoutes(routes)).toEqual(SPEC_ROUTES);
    // no page twice, by name or by path
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => r.path)).size).toBe(routes.length);
  });

  it("keeps the spec's routes as they are when an entity is added to the list", () => {
    const routes = [...appRoutes, ...entityRoutesOf([...entityList, gadgets])];
    expect(specRoutes(routes)).toEqual(SPEC_ROUTES);
    expect(table(routes)).toContainEqual({ id: 'Gadgets', path: '/gadgets', guard: 'signedIn' });
  });

  it("declares no entity's route by hand", () => {
    const declared = appRoutes.map((r) => r.path);
    for (const def of entityList) expect(declared, def.name).not.toContain(def.page.path);
  });

  it('gives an entity added to the list its route, and its page in the drawer of the roles it names', async () => {
    const routes = entityRoutesOf([...entityList, gadgets]);
    expect(routes).toHaveLength(entityList.length + 1);
    const route = routes.find((r) => r.id === 'Gadgets');
    expect(route && { path: route.path, guard: route.guard }).toEqual({
      path: '/gadgets',
      guard: 'signedIn',
    });
    // its page is the generic list page of the definition (the route's code loads it)
    const loaded = (await route?.load()) as { default: { displayName?: string } } | undefined;
    expect(loaded?.default.displayName).toBe('EntityPage(gadgets)');

    const operations = (roles: string[]) =>
      drawerSections({ roles }, [...entityList, gadgets]).find((s) => s.title === 'Operations')?.items;
    expect(operations(['editor'])?.at(-1)).toEqual({ label: 'Gadgets', path: '/gadgets' });
    expect(operations(['viewer'])?.map((i) => i.path)).not.toContain('/gadgets');
    expect(drawerSections({ roles: ['editor'] }, entityList).flatMap((s) => s.items)).not.toContainEqual({
      label: 'Gadgets',
      path: '/gadgets',
    });
  });
});
