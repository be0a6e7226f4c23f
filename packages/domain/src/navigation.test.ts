import { describe, it, expect } from 'vitest';
import { drawerNavigation, drawerSections as sectionsFor } from './navigation.ts';
import type { RoleName } from './roles.ts';
import { entityList } from './entities/index.ts';
import { gadgets } from './testing.ts';

const user = (...roles: RoleName[]) => ({ roles });
const drawerSections = (u: Parameters<typeof sectionsFor>[0]) => sectionsFor(u, entityList);

/** Section title → item labels, for compact assertions. */
const outline = (roles: RoleName[] | null) =>
  Object.fromEntries(
    drawerSections(roles ? user(...roles) : null).map((s) => [s.title, s.items.map((i) => i.label)]),
  );

describe('drawerSections', () => {
  it('shows an admin every section and item', () => {
    expect(outline(['admin'])).toEqual({
      Operations: ['Properties', 'Units', 'Tenants', 'Occupancy', 'Maintenance', 'Vendors'],
      Finance: ['Payments', 'Arrears', 'Collections', 'Expenses', 'Commission Wages'],
      Profile: ['Change Password', 'Account Security'],
      Administration: [
        'User Roles',
        'Companies',
        'Company Settings',
        'Messages',
        'Audit Log',
        'Employees',
        'Import',
      ],
      References: ['Countries', 'Currencies'],
    });
  });

  it('shows a company admin operations, commission wages, Company Settings and Employees in administration', () => {
    expect(outline(['company_admin'])).toEqual({
      Operations: ['Properties', 'Units', 'Tenants', 'Occupancy', 'Maintenance', 'Vendors'],
      Finance: ['Commission Wages'],
      Profile: ['Change Password', 'Account Security'],
      Administration: ['Company Settings', 'Messages', 'Audit Log', 'Employees'],
      References: ['Countries'],
    });
  });

  it('shows an editor operations, payments and expenses, and only Import in administration', () => {
    expect(outline(['editor'])).toEqual({
      Operations: ['Properties', 'Units', 'Tenants', 'Occupancy', 'Maintenance', 'Vendors'],
      Finance: ['Payments', 'Arrears', 'Collections', 'Expenses'],
      Profile: ['Change Password', 'Account Security'],
      Administration: ['Import'],
      References: ['Countries'],
    });
  });

  it('shows a viewer only Properties and Units in operations and hides empty sections', () => {
    expect(outline(['viewer'])).toEqual({
      Operations: ['Properties', 'Units'],
      Profile: ['Change Password', 'Account Security'],
      References: ['Countries'],
    });
  });

  it('shows a signed-in user without a role only the profile', () => {
    expect(outline([])).toEqual({ Profile: ['Change Password', 'Account Security'] });
  });

  it('shows nothing when signed out', () => {
    expect(drawerSections(null)).toEqual([]);
    expect(drawerSections(undefined)).toEqual([]);
  });

  it('combines roles without duplicates and keeps paths', () => {
    const sections = drawerSections(user('editor', 'company_admin'));
    expect(sections.find((s) => s.title === 'Finance')?.items).toEqual([
      { label: 'Payments', path: '/payments' },
      { label: 'Arrears', path: '/arrears' },
      { label: 'Collections', path: '/collections' },
      { label: 'Expenses', path: '/expenses' },
      { label: 'Commission Wages', path: '/commission-wages' },
    ]);
    expect(sections.find((s) => s.title === 'Administration')?.items).toEqual([
      { label: 'Company Settings', path: '/company-settings' },
      { label: 'Messages', path: '/messages' },
      { label: 'Audit Log', path: '/audit-log' },
      { label: 'Employees', path: '/employees' },
      { label: 'Import', path: '/import' },
    ]);
  });
});

describe('drawerNavigation', () => {
  it('places an entity added to the list by its definition: its section, order, label and audience', () => {
    const withGadgets = [...entityList, gadgets];
    const operations = (roles: RoleName[]) =>
      sectionsFor(user(...roles), withGadgets)
        .find((s) => s.title === 'Operations')
        ?.items.map((i) => i.label);
    expect(operations(['editor'])).toEqual([
      'Properties',
      'Units',
      'Tenants',
      'Occupancy',
      'Maintenance',
      'Vendors',
      'Gadgets',
    ]);
    expect(operations(['company_admin'])).not.toContain('Gadgets');
    expect(operations(['viewer'])).toEqual(['Properties', 'Units']);
    expect(gadgets.page).toEqual({
      id: 'Gadgets',
      path: '/gadgets',
      drawer: { section: 'Operations', order: 60, label: 'Gadgets', audience: ['admin', 'editor'] },
    });
  });

  it('gives every entity of the list one item, and no two items of a section the same place', () => {
    const sections = drawerNavigation(entityList);
    const paths = sections.flatMap((s) => s.items.map((i) => i.path));
    for (const def of entityList) expect(paths.filter((p) => p === def.page.path)).toHaveLength(1);
    for (const s of sections) {
      const orders = s.items.map((i) => i.order);
      expect(new Set(orders).size, s.title).toBe(orders.length);
    }
  });
});
