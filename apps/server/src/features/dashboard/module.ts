import type { KodiModule } from '../../modules/kodi-module.ts';
import { dashboardRoute } from './route.ts';

/** The dashboard. */
export const dashboardModule: KodiModule = {
  name: 'dashboard',
  routes: (api, ctx) => dashboardRoute(api, ctx),
};
