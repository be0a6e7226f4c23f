import type { KodiModule } from '../../modules/kodi-module.ts';
import { reportRoutes } from './routes.ts';

/** The income statement and cash flow. */
export const reportsModule: KodiModule = {
  name: 'reports',
  routes: (api, ctx) => reportRoutes(api, ctx),
};
