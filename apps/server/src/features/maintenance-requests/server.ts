import { maintenanceRequests } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { TENANT_JOIN, TENANT_NAMES } from '../../crud/sql.ts';

export const maintenanceRequestsServer: ServerEntity = {
  def: maintenanceRequests,
  sql: { table: 'maintenance_requests', joins: TENANT_JOIN, expressions: TENANT_NAMES },
};
