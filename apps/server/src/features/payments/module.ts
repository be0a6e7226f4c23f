import type { KodiModule } from '../../modules/kodi-module.ts';
import { receiptRoute } from './receipt-route.ts';
import { paymentsServer } from './server.ts';
import { suggestionRoute } from './suggestion-route.ts';
import { voidRoute } from './void-route.ts';

/** Payments: their numbering, receipt PDF and receipt link, and their void. */
export const paymentsModule: KodiModule = {
  name: 'payments',
  owns: ['counters'],
  entities: [paymentsServer],
  routes: (api, ctx) => {
    receiptRoute(api, ctx);
    voidRoute(api, ctx);
    suggestionRoute(api, ctx);
  },
};
