import { byName, type EntityDefinition } from '../entity.ts';
import { properties } from './properties.ts';
import { owners } from './owners.ts';
import { units } from './units.ts';
import { tariffs } from './tariffs.ts';
import { meters } from './meters.ts';
import { meterReadings } from './meter-readings.ts';
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

/**
 * Every entity with generic routes and pages, in their order, keyed by name: adding one is its
 * definition and its place in this list (with its import above), and its table. The router, the
 * drawer, the server's routes, the derived data and the reliability suite are made from this list.
 */
export const entities = byName([
  properties,
  owners,
  units,
  tariffs,
  meters,
  meterReadings,
  tenants,
  occupancy,
  payments,
  maintenanceRequests,
  expenses,
  vendors,
  employees,
  commissionWages,
  companies,
  countries,
  currencies,
]);
export type EntityName = keyof typeof entities;

/** The entities in their order, for code that builds something for each of them. */
export const entityList: readonly EntityDefinition[] = Object.values(entities);

// What other code imports from the entities' files by name (a new entity needs nothing here).
export * from './properties.ts';
export * from './owners.ts';
export * from './units.ts';
export * from './tariffs.ts';
export * from './meters.ts';
export * from './meter-readings.ts';
export * from './tenants.ts';
export * from './occupancy.ts';
export * from './payments.ts';
export * from './maintenance-requests.ts';
export * from './expenses.ts';
export * from './vendors.ts';
export * from './employees.ts';
export * from './commission-wages.ts';
export * from './companies.ts';
export * from './countries.ts';
export * from './currencies.ts';
