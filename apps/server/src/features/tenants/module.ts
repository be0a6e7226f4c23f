import type { KodiModule } from '../../modules/kodi-module.ts';
import { tenantsServer } from './server.ts';

/** Tenants. */
export const tenantsModule: KodiModule = {
  name: 'tenants',
  entities: [tenantsServer],
};
