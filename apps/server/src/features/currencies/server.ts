import { currencies } from '@kodi/domain';
import type { ServerEntity } from '../../crud/service.ts';

export const currenciesServer: ServerEntity = { def: currencies, sql: { table: 'currencies' } };
