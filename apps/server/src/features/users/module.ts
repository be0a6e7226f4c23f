import type { KodiModule } from '../../modules/kodi-module.ts';
import { userRoutes } from './routes.ts';

/** The company's users and their roles. */
export const usersModule: KodiModule = {
  name: 'users',
  routes: (api, ctx) => userRoutes(api, ctx),
};
