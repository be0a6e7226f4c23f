import type { EntityDefinition } from '@kodi/domain';
import type { KodiModule } from './modules/kodi-module.ts';
import { serverEntitiesOf } from './crud/registry.ts';
import { auditModule } from './modules/audit/module.ts';
import { companiesSharedModule } from './modules/companies/module.ts';
import { identityModule } from './modules/identity/module.ts';
import { leasesModule } from './modules/leases/module.ts';
import { booksModule } from './modules/books/module.ts';
import { messagingModule } from './modules/messaging/module.ts';
import { ownerMoneyModule } from './modules/owner-money/module.ts';
import { authModule } from './features/auth/module.ts';
import { accountsModule } from './features/accounts/module.ts';
import { usersModule } from './features/users/module.ts';
import { securityModule } from './features/security/module.ts';
import { captchaModule } from './features/captcha/module.ts';
import { companiesModule } from './features/companies/module.ts';
import { unitsModule } from './features/units/module.ts';
import { tenantsModule } from './features/tenants/module.ts';
import { occupancyModule } from './features/occupancy/module.ts';
import { paymentsModule } from './features/payments/module.ts';
import { maintenanceRequestsModule } from './features/maintenance-requests/module.ts';
import { commissionWagesModule } from './features/commission-wages/module.ts';
import { expensesModule } from './features/expenses/module.ts';
import { importsModule } from './features/imports/module.ts';
import { collectionsModule } from './features/collections/module.ts';
import { dashboardModule } from './features/dashboard/module.ts';
import { reportsModule } from './features/reports/module.ts';
import { ledgerModule } from './features/ledger/module.ts';
import { propertiesModule } from './features/properties/module.ts';
import { ownersModule } from './features/owners/module.ts';
import { utilitiesModule } from './features/utilities/module.ts';
import { leaseChargesModule } from './features/lease-charges/module.ts';
import { companySettingsModule } from './features/company-settings/module.ts';
import { rentCycleModule } from './features/rent-cycle/module.ts';
import { publicReceiptsModule } from './features/public-receipts/module.ts';
import { portalModule } from './features/portal/module.ts';
import { messagesModule } from './features/messages/module.ts';
import { auditLogModule } from './features/audit-log/module.ts';
import { booksFeatureModule } from './features/books/module.ts';

/**
 * The composition root: every module of the server, listed once. app.ts registers their routes (in
 * this order, after the entities' generic routes) and their workers, the entities' registry is made
 * from their server parts, and the error handler names tables by their labels.
 */
export const kodiModules: readonly KodiModule[] = [
  // shared modules: the tables they own
  auditModule,
  identityModule,
  companiesSharedModule,
  leasesModule,
  booksModule,
  messagingModule,
  ownerMoneyModule,
  // features
  authModule,
  accountsModule,
  usersModule,
  securityModule,
  captchaModule,
  companiesModule,
  unitsModule,
  tenantsModule,
  occupancyModule,
  paymentsModule,
  maintenanceRequestsModule,
  commissionWagesModule,
  expensesModule,
  importsModule,
  collectionsModule,
  dashboardModule,
  reportsModule,
  ledgerModule,
  propertiesModule,
  ownersModule,
  utilitiesModule,
  leaseChargesModule,
  companySettingsModule,
  rentCycleModule,
  publicReceiptsModule,
  portalModule,
  messagesModule,
  auditLogModule,
  booksFeatureModule,
];

/** The entities served by the generic routes, each with its module's server parts, or plain. */
export const serverEntities = (defs: readonly EntityDefinition[]) =>
  serverEntitiesOf(
    defs,
    kodiModules.flatMap((m) => m.entities ?? []),
  );

/**
 * How errors name tables ("This record is still used by occupancy records."): an entity's table by
 * its definition's plural, another table by its owner's label, else by its name in words.
 */
export const tableLabels = (defs: readonly EntityDefinition[]): Record<string, string> => ({
  ...Object.fromEntries(kodiModules.flatMap((m) => Object.entries(m.tableLabels ?? {}))),
  ...Object.fromEntries(defs.map((d) => [d.name, d.plural])),
});
