import type { KodiModule } from '../../modules/kodi-module.ts';
import { ownersRoutes } from './routes.ts';
import { ownersServer } from './server.ts';
import { ownerMoneyRoutes } from './money-routes.ts';

/**
 * Owners (issue 27): the entity, who owns each property (shares from the day they are set) and each
 * property's management agreement.
 */
export const ownersModule: KodiModule = {
  name: 'owners',
  owns: ['property_owner_sets', 'property_owner_shares', 'management_agreements'],
  tableLabels: {
    property_owner_sets: 'property owners',
    property_owner_shares: "owners' shares of properties",
    management_agreements: 'management agreements',
  },
  entities: [ownersServer],
  routes: (api, ctx) => {
    ownersRoutes(api, ctx);
    ownerMoneyRoutes(api, ctx);
  },
};
