import type { KodiModule } from '../kodi-module.ts';

/**
 * Owners' money (issue 27): their payouts, and the reads of their funds held the statements, the
 * payout proposals (and the owner portal) share: plain functions of a database or transaction
 * (owner-money.ts). The routes are features/owners'.
 */
export const ownerMoneyModule: KodiModule = {
  name: 'owner-money',
  owns: ['owner_payouts'],
  tableLabels: { owner_payouts: 'owner payouts' },
};
