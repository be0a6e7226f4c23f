import { unitsServer } from '../features/units/server.ts';
import { tenantsServer } from '../features/tenants/server.ts';
import { occupancyServer } from '../features/occupancy/server.ts';
import { paymentsServer } from '../features/payments/server.ts';
import { maintenanceRequestsServer } from '../features/maintenance-requests/server.ts';
import { expensesServer } from '../features/expenses/server.ts';
import { vendorsServer } from '../features/vendors/server.ts';
import { employeesServer } from '../features/employees/server.ts';
import { commissionWagesServer } from '../features/commission-wages/server.ts';
import { companiesServer } from '../features/companies/server.ts';
import { countriesServer } from '../features/countries/server.ts';
import { currenciesServer } from '../features/currencies/server.ts';
import type { ServerEntity } from './server-entity.ts';

/** Every entity served by the generic routes. */
export const serverEntities: ServerEntity[] = [
  unitsServer,
  tenantsServer,
  occupancyServer,
  paymentsServer,
  maintenanceRequestsServer,
  expensesServer,
  vendorsServer,
  employeesServer,
  commissionWagesServer,
  companiesServer,
  countriesServer,
  currenciesServer,
];
