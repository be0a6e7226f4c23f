import type { KodiModule } from '../../modules/kodi-module.ts';
import { metersServer } from './meters.ts';
import { meterReadingsServer } from './readings.ts';
import { utilitiesRoutes } from './routes.ts';
import { sharedBillRoutes } from './shared-bills.ts';

/**
 * Metered utilities (issue 28): tariffs (served plain), meters (a unit's meter is in its property),
 * their readings (the reading before, the consumption, the flags that hold a reading back), the
 * confirmation and the phone's reading round; the billing run (modules/utilities/billing.ts) and
 * the shared bills of a building, split across its units (shared-bills.ts).
 */
export const utilitiesModule: KodiModule = {
  name: 'utilities',
  owns: ['shared_bills'],
  tableLabels: { shared_bills: 'shared bills' },
  entities: [metersServer, meterReadingsServer],
  routes: (api, ctx) => {
    utilitiesRoutes(api, ctx);
    sharedBillRoutes(api, ctx);
  },
};
