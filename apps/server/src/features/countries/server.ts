import { countries } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';

export const countriesServer: ServerEntity = { def: countries, sql: { table: 'countries' } };
