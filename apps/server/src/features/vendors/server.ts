import { vendors } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';

export const vendorsServer: ServerEntity = { def: vendors, sql: { table: 'vendors' } };
