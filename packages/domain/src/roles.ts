export const roleNames = ['admin', 'company_admin', 'editor', 'viewer', 'tenant', 'owner'] as const;
export type RoleName = (typeof roleNames)[number];

export const roleLabels: Record<RoleName, string> = {
  admin: 'Admin',
  company_admin: 'Company admin',
  editor: 'Editor',
  viewer: 'Viewer',
  tenant: 'Tenant',
  owner: 'Owner',
};

/**
 * The roles staff hold (and admins assign); `tenant` and `owner` are the portal's own (a user linked to
 * one tenant record, or to one owner record: issue 27).
 */
export const staffRoleNames = ['admin', 'company_admin', 'editor', 'viewer'] as const;
export type StaffRoleName = (typeof staffRoleNames)[number];

/**
 * What each staff role may do, in a sentence (the User Roles page and its dialogs, the Help Center).
 * It follows `allows` below: canEdit is admin and editor, companyAdmin admin and company admin.
 */
export const roleDescriptions: Record<StaffRoleName, string> = {
  admin:
    'Does everything in their company, deleting records included, and manages the users and roles of the whole installation.',
  company_admin:
    "Runs the company: its settings and daily run, messages, the audit log, the books (accounts, journal entries, closing a period), waivers, voiding payments and tenants' portal access. Reads the rest without adding or editing records.",
  editor:
    'Adds records and edits units, tenants, leases, payments and maintenance requests, imports files and matches statements. Deletes nothing; voids only a payment they recorded today.',
  viewer: "Reads the company's data without changing it.",
};

type HasRoles = { roles: readonly string[] } | null | undefined;

/** admin or editor: may add and edit business records. */
export const canEdit = (user: HasRoles): boolean =>
  !!user && (user.roles.includes('admin') || user.roles.includes('editor'));

/** holds the admin role. */
export const isAdmin = (user: HasRoles): boolean => !!user && user.roles.includes('admin');

/** admin, or company_admin of their own company: may change the company's settings and run its daily cycle. */
export const isCompanyAdmin = (user: HasRoles): boolean =>
  !!user && (user.roles.includes('admin') || user.roles.includes('company_admin'));

/** The portal's roles: a portal account holds one of them and no staff role. */
export const portalRoleNames = ['tenant', 'owner'] as const;
export type PortalRoleName = (typeof portalRoleNames)[number];

/** holds a staff role (a portal account, a tenant's or an owner's, holds none: every staff route refuses it). */
export const hasAnyRole = (user: HasRoles): boolean =>
  !!user && user.roles.some((r) => r !== 'tenant' && r !== 'owner');

/** a tenant's portal account: may use the portal's routes only, about its own tenant record. */
export const isTenant = (user: HasRoles): boolean => !!user && user.roles.includes('tenant');

/** an owner's portal account (issue 27): the owner portal's routes only, about its own owner record. */
export const isOwner = (user: HasRoles): boolean => !!user && user.roles.includes('owner');

/** The portal role of a portal account (a tenant's or an owner's), else undefined (staff). */
export const portalRoleOf = (user: HasRoles): PortalRoleName | undefined =>
  isTenant(user) ? 'tenant' : isOwner(user) ? 'owner' : undefined;

/** What a route or an entity action requires. */
export type Access =
  'public' | 'signedIn' | 'anyRole' | 'canEdit' | 'companyAdmin' | 'admin' | 'tenant' | 'owner';

export const allows = (access: Access, user: HasRoles): boolean => {
  switch (access) {
    case 'public':
      return true;
    case 'signedIn':
      return !!user;
    case 'anyRole':
      return hasAnyRole(user);
    case 'canEdit':
      return canEdit(user);
    case 'companyAdmin':
      return isCompanyAdmin(user);
    case 'admin':
      return isAdmin(user);
    case 'tenant':
      return isTenant(user);
    case 'owner':
      return isOwner(user);
  }
};
