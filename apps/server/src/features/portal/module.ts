import type { KodiModule } from '../../modules/kodi-module.ts';
import { portalAuthRoutes } from './auth-routes.ts';
import { portalRoutes } from './routes.ts';
import { portalStaffRoutes } from './staff-routes.ts';

/** The tenant portal: invitations by staff, the tenant's sign-in and pages. */
export const portalModule: KodiModule = {
  name: 'portal',
  owns: ['portal_tokens', 'maintenance_request_photos'],
  routes: (api, ctx) => {
    portalStaffRoutes(api, ctx);
    portalAuthRoutes(api, ctx);
    portalRoutes(api, ctx);
  },
};
