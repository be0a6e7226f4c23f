import type { KodiModule } from '../../modules/kodi-module.ts';
import { leaseDocRoute } from './lease-doc-route.ts';
import { occupancyServer } from './server.ts';
import { unitChoicesRoute } from './unit-choices-route.ts';

/** Occupancy records (leases) and their lease document. */
export const occupancyModule: KodiModule = {
  name: 'occupancy',
  entities: [occupancyServer],
  routes: (api, ctx) => {
    leaseDocRoute(api, ctx);
    unitChoicesRoute(api, ctx);
  },
};
