import { tenants } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';

export const tenantsServer: ServerEntity = {
  def: tenants,
  sql: { table: 'tenants' },
};
