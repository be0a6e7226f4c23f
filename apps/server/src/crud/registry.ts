import type { EntityDefinition, EntityName } from '@kodi/domain';
import { unitsServer } from '../features/units/server.ts';
import { tenantsServer } from '../features/tenants/server.ts';
import { occupancyServer } from '../features/occupancy/server.ts';
import { paymentsServer } from '../features/payments/server.ts';
import { maintenanceRequestsServer } from '../features/maintenance-requests/server.ts';
import { expensesServer } from '../features/expenses/server.ts';
import { employeesServer } from '../features/employees/server.ts';
import { commissionWagesServer } from '../features/commission-wages/server.ts';
import { companiesServer } from '../features/companies/server.ts';
import type { ServerEntity } from './server-entity.ts';

/**
 * The server parts of the entities that have some of their own (joins and derived values, rules
 * before a write, another scope); an entity without any is served from its definition alone.
 */
const serverParts: Partial<Record<EntityName, ServerEntity>> = {
  units: unitsServer,
  tenants: tenantsServer,
  occupancy: occupancyServer,
  payments: paymentsServer,
  maintenance_requests: maintenanceRequestsServer,
  expenses: expensesServer,
  employees: employeesServer,
  commission_wages: commissionWagesServer,
  companies: companiesServer,
};

/** A plain entity: its table is named as the entity, its list reads that table alone. */
const plainServerEntity = (def: EntityDefinition): ServerEntity => ({ def, sql: { table: def.name } });

const partsOf = (parts: Partial<Record<string, ServerEntity>>, def: EntityDefinition): ServerEntity => {
  const own = parts[def.name];
  if (own && own.def !== def) throw new Error(`The server part of ${def.name} is for ${own.def.name}.`);
  return own ?? plainServerEntity(def);
};

/** The entities served by the generic routes (the list, `entityList`): each with its parts, or plain. */
export const serverEntitiesOf = (defs: readonly EntityDefinition[]): ServerEntity[] =>
  defs.map((def) => partsOf(serverParts, def));
