import { maintenanceRequests } from '@kodi/domain';
import type { ServerEntity } from '../../crud/service.ts';

export const maintenanceRequestsServer: ServerEntity = {
  def: maintenanceRequests,
  sql: {
    table: 'maintenance_requests',
    joins:
      'LEFT JOIN units u ON u.company_id = t.company_id AND u.id = t.unit_id ' +
      'LEFT JOIN tenants tn ON tn.company_id = t.company_id AND tn.id = t.tenant_id ' +
      'LEFT JOIN vendors v ON v.company_id = t.company_id AND v.id = t.vendor_id',
    expressions: {
      unit_name: 'u.name',
      tenant_first_name: 'tn.first_name',
      tenant_last_name: 'tn.last_name',
      tenant_name: `(tn.first_name || ' ' || tn.last_name)`,
      vendor_name: 'v.name',
    },
    searchVia: { unit_name: { key: 'unit_id', table: 'units', expression: 'name' } },
  },
};
