import type { KodiModule } from '../../modules/kodi-module.ts';
import { ledgerRoutes } from './routes.ts';

/** A lease's ledger and statement, and the arrears. */
export const ledgerModule: KodiModule = {
  name: 'ledger',
  routes: (api, ctx) => ledgerRoutes(api, ctx),
};
