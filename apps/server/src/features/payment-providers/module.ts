import type { KodiModule } from '../../modules/kodi-module.ts';
import { paymentsServer } from '../payments/server.ts';
import { paymentProvidersRoutes } from './routes.ts';
import { startPaymentRequestChecker } from './worker.ts';

/** Mobile-money providers (issue 29): their settings, the prompts to phones, M-Pesa C2B, their callbacks. */
export const paymentProvidersModule: KodiModule = {
  name: 'payment-providers',
  owns: ['payment_providers', 'payment_requests'],
  routes: (api, ctx, served) => {
    const payments = served.entities.find((e) => e.def.name === 'payments');
    if (payments) paymentProvidersRoutes(api, ctx, payments);
  },
  workers: [
    {
      // asks the providers about prompts whose callback has not come (with the daily run's switch)
      name: 'payment requests checker',
      enabled: ({ config }) => config.rentCycleScheduler,
      start: (ctx, log) => startPaymentRequestChecker(ctx, paymentsServer, { tickSeconds: 15, log }),
    },
  ],
};
