import { countries } from '@kodi/domain';
import type { ServerEntity } from '../../crud/service.ts';

export const countriesServer: ServerEntity = { def: countries, sql: { table: 'countries' } };
