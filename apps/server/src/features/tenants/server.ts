import { tenants } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { e164PhoneHooks } from '../../crud/phone-hooks.ts';
import { portalStatusSql } from '../../modules/identity/users.ts';

export const tenantsServer: ServerEntity = {
  def: tenants,
  sql: {
    table: 'tenants',
    expressions: {
      // the tenant's portal account (issue 19): none, invited (no password yet), active, disabled
      portal_status: portalStatusSql('tenant_id'),
      // issue 26: probes of the tenant's leases (occupancy_tenant_idx) for a page's rows only, so the
      // list keeps its one statement shape; neither is sortable (no column of the row to index)
      current_unit: `(SELECT string_agg(concat_ws(', ', o.unit_name, u.property_name), '; '
                                        ORDER BY o.start_date DESC, o.id DESC)
                        FROM occupancy o JOIN units u ON u.company_id = o.company_id AND u.id = o.unit_id
                       WHERE o.company_id = t.company_id AND o.tenant_id = t.id
                         AND o.is_active AND o.occupancy_status <> 'terminated')`,
      balance: `(SELECT sum(lb.receivable)
                   FROM occupancy o
                   JOIN lease_balances lb ON lb.company_id = o.company_id AND lb.occupancy_id = o.id
                  WHERE o.company_id = t.company_id AND o.tenant_id = t.id)`,
    },
  },
  // the tenants' phones (docs/decisions.md, 'One phone number'): with the tenant's own country code
  // when it has one (the record's, when a change does not give one), else the company's country's
  ...e164PhoneHooks(
    (values, existing) =>
      ('country_code' in values ? values.country_code : existing?.country_code) as string | null | undefined,
  ),
};
