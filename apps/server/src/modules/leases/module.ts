import type { KodiModule } from '../kodi-module.ts';

/** A lease's book: its charges, waivers, rate changes and deposit settlement (entries.ts writes them). */
export const leasesModule: KodiModule = {
  name: 'leases',
  owns: ['charges', 'charge_waivers', 'rate_changes', 'deposit_settlements'],
};
