import type { KodiModule } from '../../modules/kodi-module.ts';
import { auditLogRoutes } from './routes.ts';

/** The audit log's page and export. */
export const auditLogModule: KodiModule = {
  name: 'audit-log',
  routes: (api, ctx) => auditLogRoutes(api, ctx),
};
