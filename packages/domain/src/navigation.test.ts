import { describe, it, expect } from 'vitest';
import { drawerNavigation, drawerSections as sectionsFor } from './navigation.ts';
import type { RoleName } from './roles.ts';
import { entityList } from './entities/index.ts';
import { gadgets } from './testing.ts';

const user = (...roles: RoleName[]) => ({ roles });
const drawerSections = (u: Parameters<typeof sectionsFor>[0]) => sectionsFor(u, entityList);

/** Every item of the spec's drawer (02-admin §2), whoever sees it. */
const SPEC_ITEMS = new Set([
  ...['Properties', 'Units', 'Tenants', 'Occupancy', 'Maintenance', 'Vendors'],
  ...['Payments', 'Arrears', 'Collections', 'Expenses', 'Commission Wages'],
  ...['Change Password', 'Account Security'],
  ...['User Roles', 'Companies', 'Company Settings', 'Messages', 'Audit Log', 'Employees', 'Import'],
  ...['Countries', 'Currencies'],
]);

/**
 * Section title → the spec's item labels, in their order, for compact assertions: the spec's entries
 * are checked in order and none of them may show where the spec hides it, while an entity added to
 * the list (an item the spec does not name, or a section of its own) changes nothing here.
 */
const outline = (roles: RoleName[] | null, pages: Parameters<typeof sectionsFor>[1] = entityList) =>
  Object.fromEntries(
    sectionsFor(roles ? user(...roles) : null, pages).flatMap((s) => {
      const items = s.items.map((i) => i.label).filter((label) => SPEC_ITEMS.has(label));
      return items.length > 0 ? [[s.title, items]] : [];
    }),
  );
/** A section's items of the spec, in their order. */
const specItems = (items: readonly { label: string; path: string }[] | undefined) =>
  (items ?? []).filter((i) => SPEC_ITEMS.has(i.label));

describe('drawerSections', () => {
  it('shows Financial Reports to every role, after the spec’s Finance items (issue 25)', () => {
    for (const roles of [['admin'], ['company_admin'], ['editor'], ['viewer']] as RoleName[][]) {
      const finance = drawerSections(user(...roles)).find((s) => s.title === 'Finance')?.items ?? [];
      expect(finance.at(-1), roles.join()).toEqual({
        label: 'Financial Reports',
        path: '/financial-reports',
      });
    }
    expect(drawerSections(user()).some((s) => s.items.some((i) => i.label === 'Financial Reports'))).toBe(
      false,
    );
  });

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

  it('keeps these outlines when an entity is added to the list, after the items or between them', () => {
    const between = {
      ...gadgets,
      page: { ...gadgets.page, drawer: { ...gadgets.page.drawer, section: 'Finance', order: 15 } },
    } as const;
    const roleSets: RoleName[][] = [['admin'], ['company_admin'], ['editor'], ['viewer'], []];
    for (const added of [gadgets, between]) {
      for (const roles of roleSets) expect(outline(roles, [...entityList, added])).toEqual(outline(roles));
      const items = sectionsFor(user('editor'), [...entityList, added]).flatMap((s) => s.items);
      expect(items).toContainEqual({ label: 'Gadgets', path: '/gadgets' });
    }
  });

  it("shows every staff role the books' pages in Finance, after the spec's items (issue 25)", () => {
    for (const role of ['admin', 'company_admin', 'editor', 'viewer'] as const) {
      const finance = drawerSections(user(role)).find((s) => s.title === 'Finance')?.items ?? [];
      const labels = finance.map((i) => i.label);
      // the books' pages, then the reports read from them
      expect(labels.slice(-3), role).toEqual(['Chart of Accounts', 'Journal', 'Financial Reports']);
      expect(finance.at(-2)?.path).toBe('/journal');
    }
    expect(drawerSections(user()).flatMap((s) => s.items.map((i) => i.label))).not.toContain('Journal');
  });

  it('shows nothing when signed out', () => {
    expect(drawerSections(null)).toEqual([]);
    expect(drawerSections(undefined)).toEqual([]);
  });

  it('combines roles without duplicates and keeps paths', () => {
    const sections = drawerSections(user('editor', 'company_admin'));
    expect(specItems(sections.find((s) => s.title === 'Finance')?.items)).toEqual([
      { label: 'Payments', path: '/payments' },
      { label: 'Arrears', path: '/arrears' },
      { label: 'Collections', path: '/collections' },
      { label: 'Expenses', path: '/expenses' },
      { label: 'Commission Wages', path: '/commission-wages' },
    ]);
    expect(specItems(sections.find((s) => s.title === 'Administration')?.items)).toEqual([
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
    // order 60: after Vendors (50), the spec's items before it in their order
    const editor = operations(['editor']) ?? [];
    expect(
      editor.slice(0, editor.indexOf('Gadgets') + 1).filter((l) => SPEC_ITEMS.has(l) || l === 'Gadgets'),
    ).toEqual(['Properties', 'Units', 'Tenants', 'Occupancy', 'Maintenance', 'Vendors', 'Gadgets']);
    expect(operations(['company_admin'])).not.toContain('Gadgets');
    expect(operations(['viewer'])?.filter((l) => SPEC_ITEMS.has(l) || l === 'Gadgets')).toEqual([
      'Properties',
      'Units',
    ]);
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
