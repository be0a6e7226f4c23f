import type { KodiModule } from '../../modules/kodi-module.ts';
import { companiesServer } from './server.ts';
import { companySingleRoute } from './single-route.ts';

/** Companies: their scope, the register page's list, the user's own company. */
export const companiesModule: KodiModule = {
  name: 'companies',
  entities: [companiesServer],
  routes: (api, ctx) => companySingleRoute(api, ctx),
};
