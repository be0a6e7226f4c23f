import type { KodiModule } from '../../modules/kodi-module.ts';
import { authRoutes } from './routes.ts';

/** Sign-in, its second factor, sign-out and the session. */
export const authModule: KodiModule = {
  name: 'auth',
  routes: (api, ctx) => authRoutes(api, ctx),
};
