import type { KodiModule } from '../../modules/kodi-module.ts';
import { collectionsRoutes } from './routes.ts';
import { paymentProvidersRoutes } from './provider-routes.ts';
import { startPaymentRequestChecker } from './provider-worker.ts';

/**
 * Statements uploaded, money received matched to leases, the signed payment webhook; and the
 * mobile-money providers (issue 29): their settings, M-Pesa C2B, prompts to phones and their callbacks
 * (what they receive becomes Collections lines).
 */
export const collectionsModule: KodiModule = {
  name: 'collections',
  owns: [
    'statements',
    'statement_lines',
    'statement_line_payments',
    'match_memory',
    'payment_providers',
    'payment_requests',
  ],
  tableLabels: { match_memory: 'matching memory' },
  // its own scope (multipart bodies); payments are made through the payments' server part
  routes: async (api, ctx, served) => {
    const payments = served.entities.find((e) => e.def.name === 'payments');
    if (payments) {
      await api.register(async (scope) => collectionsRoutes(scope, ctx, payments));
      paymentProvidersRoutes(api, ctx, payments);
    }
  },
  workers: [
    {
      // asks the providers about prompts whose callback has not come (with the daily run's switch)
      name: 'payment requests checker',
      enabled: ({ config }) => config.rentCycleScheduler,
      start: (ctx, log, served) => {
        const payments = served.entities.find((e) => e.def.name === 'payments');
        if (!payments) throw new Error('The payments are not served.');
        return startPaymentRequestChecker(ctx, payments, { tickSeconds: 15, log });
      },
    },
  ],
};
