import type { KodiModule } from '../../modules/kodi-module.ts';
import { expensesServer } from './server.ts';

/** Expenses: the account paid from, and what they post to the books. */
export const expensesModule: KodiModule = {
  name: 'expenses',
  entities: [expensesServer],
};
