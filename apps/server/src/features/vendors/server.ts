import { vendors } from '@kodi/domain';
import type { ServerEntity } from '../../crud/service.ts';

export const vendorsServer: ServerEntity = { def: vendors, sql: { table: 'vendors' } };
