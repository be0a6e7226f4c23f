import type { KodiModule } from '../../modules/kodi-module.ts';
import { googleRoutes } from './google-routes.ts';
import { passwordRoutes } from './password-routes.ts';
import { registerRoutes } from './register-routes.ts';

/** Registration, password reset and Google sign-in. */
export const accountsModule: KodiModule = {
  name: 'accounts',
  routes: (api, ctx) => {
    registerRoutes(api, ctx);
    passwordRoutes(api, ctx);
    googleRoutes(api, ctx);
  },
};
