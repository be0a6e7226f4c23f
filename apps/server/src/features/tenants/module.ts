import type { KodiModule } from '../../modules/kodi-module.ts';
import { phoneCheckRoute } from './phone-check.ts';
import { tenantsServer } from './server.ts';

/** Tenants, and the tenant form's phone check. */
export const tenantsModule: KodiModule = {
  name: 'tenants',
  entities: [tenantsServer],
  routes: (api, ctx) => phoneCheckRoute(api, ctx),
};
