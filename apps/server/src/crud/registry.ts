import { unitsServer } from '../features/units/server.ts';
import { tenantsServer } from '../features/tenants/server.ts';
import { occupancyServer } from '../features/occupancy/server.ts';
import { paymentsServer } from '../features/payments/server.ts';
import type { ServerEntity } from './service.ts';

/** Every entity served by the generic routes. */
export const serverEntities: ServerEntity[] = [unitsServer, tenantsServer, occupancyServer, paymentsServer];
