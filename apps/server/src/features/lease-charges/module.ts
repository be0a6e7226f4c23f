import type { KodiModule } from '../../modules/kodi-module.ts';
import { leaseChargeRoutes } from './routes.ts';

/** A lease's charges, waivers, rate changes, late-fee policy and deposit settlement. */
export const leaseChargesModule: KodiModule = {
  name: 'lease-charges',
  routes: (api, ctx) => leaseChargeRoutes(api, ctx),
};
