import type { KodiModule } from '../kodi-module.ts';

/** A company's money, settings, calling code and the payment webhook's deliveries. */
export const companiesSharedModule: KodiModule = {
  name: 'companies',
  owns: ['payment_webhooks'],
};
