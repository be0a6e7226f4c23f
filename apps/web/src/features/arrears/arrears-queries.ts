import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ArrearsRow, ArrearsSummary, LedgerAnswer } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { fetchPage, type PageParams } from '../../lib/pages.ts';
import { DASHBOARD_KEY, resourceKeys } from '../../lib/resources.ts';

/**
 * The arrears report, its summary and a lease's ledger. Keys sit under the resource and dashboard
 * keys, so that saving a payment or a lease (which invalidates those) refreshes them too.
 */
export const arrearsKeys = {
  list: (params: ArrearsParams) => [...resourceKeys.entity('arrears'), 'list', params] as const,
  summary: () => [...DASHBOARD_KEY, 'arrears-summary'] as const,
  ledger: (occupancyId: number) => [...resourceKeys.entity('occupancy'), 'ledger', occupancyId] as const,
};

/** The server's default sort is `-balance`. */
export type ArrearsParams = PageParams;

/** One page of `GET /arrears` with `X-Total-Count`. */
export const arrearsQuery = (params: ArrearsParams) =>
  queryOptions({
    queryKey: arrearsKeys.list(params),
    queryFn: ({ signal }) => fetchPage<ArrearsRow>('/arrears', params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** `GET /arrears/summary`: the dashboard's 'Total arrears' card (its own call, not `GET /dashboard`). */
export const arrearsSummaryQuery = () =>
  queryOptions({
    queryKey: arrearsKeys.summary(),
    queryFn: ({ signal }) => api.get<ArrearsSummary>('/arrears/summary', { signal, quietForbidden: true }),
    refetchInterval: 600_000,
    staleTime: 0,
  });

/** `GET /occupancy/{id}/ledger`: charges, payments and the deposit with the running balance, today. */
export const ledgerQuery = (occupancyId: number) =>
  queryOptions({
    queryKey: arrearsKeys.ledger(occupancyId),
    queryFn: ({ signal }) =>
      api.get<LedgerAnswer>(`/occupancy/${occupancyId}/ledger`, { signal, quietForbidden: true }),
    staleTime: 0,
  });
