import { tenants } from '@kodi/domain';
import type { ServerEntity } from '../../crud/service.ts';

export const tenantsServer: ServerEntity = {
  def: tenants,
  sql: { table: 'tenants', expressions: { full_name: `(t.first_name || ' ' || t.last_name)` } },
};
