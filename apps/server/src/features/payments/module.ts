import type { KodiModule } from '../../modules/kodi-module.ts';
import { receiptRoute } from './receipt-route.ts';
import { paymentsServer } from './server.ts';

/** Payments: their numbering, receipt PDF and receipt link. */
export const paymentsModule: KodiModule = {
  name: 'payments',
  owns: ['counters'],
  entities: [paymentsServer],
  routes: (api, ctx) => receiptRoute(api, ctx),
};
