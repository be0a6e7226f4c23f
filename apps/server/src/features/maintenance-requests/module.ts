import type { KodiModule } from '../../modules/kodi-module.ts';
import { requestPhotoRoutes } from './photos-route.ts';
import { maintenanceRequestsServer } from './server.ts';

/** Maintenance requests and their photos. */
export const maintenanceRequestsModule: KodiModule = {
  name: 'maintenance-requests',
  entities: [maintenanceRequestsServer],
  routes: (api, ctx) => requestPhotoRoutes(api, ctx),
};
