import { queryOptions } from '@tanstack/react-query';
import type { Charge, DepositSettlement, RateChangeRecord, Waiver } from '@kodi/domain';
import { api, isApiError } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';

/**
 * A lease's charges, rate changes and deposit settlement. Keys sit under the occupancy's, so that a
 * change here refreshes its ledger (the Arrears feature's query) and the lists too.
 */
export const leaseKeys = {
  all: (id: number) => [...resourceKeys.entity('occupancy'), 'lease', id] as const,
  charges: (id: number) => [...resourceKeys.entity('occupancy'), 'lease', id, 'charges'] as const,
  rates: (id: number) => [...resourceKeys.entity('occupancy'), 'lease', id, 'rates'] as const,
  settlement: (id: number) => [...resourceKeys.entity('occupancy'), 'lease', id, 'settlement'] as const,
};

export const chargesQuery = (id: number) =>
  queryOptions({
    queryKey: leaseKeys.charges(id),
    queryFn: ({ signal }) => api.get<Charge[]>(`/occupancy/${id}/charges`, { signal, quietForbidden: true }),
    staleTime: 0,
  });

export const rateChangesQuery = (id: number) =>
  queryOptions({
    queryKey: leaseKeys.rates(id),
    queryFn: ({ signal }) =>
      api.get<RateChangeRecord[]>(`/occupancy/${id}/rate-changes`, { signal, quietForbidden: true }),
    staleTime: 0,
  });

/** The settlement, or null while the deposit is not settled (the server's 404). */
export const settlementQuery = (id: number) =>
  queryOptions({
    queryKey: leaseKeys.settlement(id),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<DepositSettlement>(`/occupancy/${id}/deposit-settlement`, {
          signal,
          quietForbidden: true,
        });
      } catch (e) {
        if (isApiError(e) && e.status === 404) return null;
        throw e;
      }
    },
    staleTime: 0,
  });

export const addCharge = (id: number, body: Record<string, unknown>) =>
  api.post<Charge>(`/occupancy/${id}/charges`, body);

export const waiveCharge = (chargeId: number, reason: string) =>
  api.post<Waiver>(`/charges/${chargeId}/waive`, { reason });

export const addRateChange = (id: number, body: Record<string, unknown>) =>
  api.post<RateChangeRecord>(`/occupancy/${id}/rate-changes`, body);

export const settleDeposit = (id: number, body: Record<string, unknown>) =>
  api.post<DepositSettlement>(`/occupancy/${id}/deposit-settlement`, body);
