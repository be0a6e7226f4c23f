import { currencies } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';

export const currenciesServer: ServerEntity = { def: currencies, sql: { table: 'currencies' } };
