import type { KodiModule } from '../../modules/kodi-module.ts';
import { securityRoutes } from './routes.ts';

/** The user's second factor and sessions. */
export const securityModule: KodiModule = {
  name: 'security',
  routes: (api, ctx) => securityRoutes(api, ctx),
};
