import type { KodiModule } from '../../modules/kodi-module.ts';
import { portalAuthRoutes } from './auth-routes.ts';
import { ownerPortalRoutes } from './owner-routes.ts';
import { portalRoutes } from './routes.ts';
import { portalStaffRoutes } from './staff-routes.ts';

/**
 * The portals: the tenant portal (issue 19) and the owner portal (issue 27), with one account machinery
 * (a portal account belongs to a tenant or an owner record): invitations by staff, the sign-in and pages.
 */
export const portalModule: KodiModule = {
  name: 'portal',
  owns: ['portal_tokens', 'maintenance_request_photos'],
  routes: (api, ctx) => {
    portalStaffRoutes(api, ctx);
    portalAuthRoutes(api, ctx);
    portalRoutes(api, ctx);
    ownerPortalRoutes(api, ctx);
  },
};
