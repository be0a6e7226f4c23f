import type { KodiModule } from '../../modules/kodi-module.ts';
import { companySettingsRoutes } from './routes.ts';

/** A company's settings and logo. */
export const companySettingsModule: KodiModule = {
  name: 'company-settings',
  owns: ['company_settings'],
  routes: (api, ctx) => companySettingsRoutes(api, ctx),
};
