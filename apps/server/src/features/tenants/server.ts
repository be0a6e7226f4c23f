import { tenants } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';

export const tenantsServer: ServerEntity = {
  def: tenants,
  sql: {
    table: 'tenants',
    expressions: {
      // the tenant's portal account (issue 19): none, invited (no password yet), active, disabled
      portal_status: `COALESCE((SELECT CASE WHEN NOT pu.active THEN 'disabled'
                                            WHEN pu.password_hash IS NULL THEN 'invited' ELSE 'active' END
                                  FROM users pu WHERE pu.company_id = t.company_id AND pu.tenant_id = t.id),
                                'none')`,
    },
  },
};
