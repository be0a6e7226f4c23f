import { properties } from './properties.ts';
import { units } from './units.ts';
import { tenants } from './tenants.ts';
import { occupancy } from './occupancy.ts';
import { payments } from './payments.ts';
import { maintenanceRequests } from './maintenance-requests.ts';
import { expenses } from './expenses.ts';
import { vendors } from './vendors.ts';
import { employees } from './employees.ts';
import { commissionWages } from './commission-wages.ts';
import { companies } from './companies.ts';
import { countries } from './countries.ts';
import { currencies } from './currencies.ts';
import type { EntityDefinition } from '../entity.ts';

export { properties, units, tenants, occupancy, payments };
export { MAX_LEASE_DOC_BYTES } from './occupancy.ts';
export { formatSerial, NO_OCCUPANCY_MESSAGE } from './payments.ts';
export { PHONE_PATTERN, COUNTRY_CODE_PATTERN } from './tenants.ts';
export { imageField } from './units.ts';
export {
  maintenanceRequests,
  expenses,
  vendors,
  employees,
  commissionWages,
  companies,
  countries,
  currencies,
};
export { EXPECTED_PAY_DAY_MESSAGE } from './employees.ts';
export { WAGE_AMOUNT_MESSAGE, COMMISSION_SPLIT_MESSAGE } from './commission-wages.ts';
export { COUNTRY_CODE_MESSAGE, PHONE_CODE_MESSAGE } from './countries.ts';
export { CURRENCY_CODE_MESSAGE, DECIMAL_PLACES_MESSAGE } from './currencies.ts';

/**
 * Every entity with generic routes and pages: adding one is a definition and a line here (and its table).
 * The router, the drawer, the server's routes and the reliability suite are made from this list.
 */
export const entities = {
  properties,
  units,
  tenants,
  occupancy,
  payments,
  maintenance_requests: maintenanceRequests,
  expenses,
  vendors,
  employees,
  commission_wages: commissionWages,
  companies,
  countries,
  currencies,
} as const satisfies Record<string, EntityDefinition>;
export type EntityName = keyof typeof entities;

/** The entities in their order, for code that builds something for each of them. */
export const entityList: readonly EntityDefinition[] = Object.values(entities);
