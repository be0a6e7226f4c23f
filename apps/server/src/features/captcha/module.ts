import type { KodiModule } from '../../modules/kodi-module.ts';
import { captchaRoutes } from './routes.ts';

/** The captcha's challenge. */
export const captchaModule: KodiModule = {
  name: 'captcha',
  routes: (api, ctx) => captchaRoutes(api, ctx),
};
