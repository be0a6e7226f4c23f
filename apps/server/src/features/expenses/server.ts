import { expenses } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';

/** Its unit's and vendor's names are kept on the row (db/derived.ts): nothing to join. */
export const expensesServer: ServerEntity = { def: expenses, sql: { table: 'expenses' } };
