import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ArrearsRow, ArrearsSummary, LedgerAnswer } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
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

export type ArrearsParams = {
  /** From 0 (the API counts from 1). */
  page: number;
  pageSize: number;
  q?: string | undefined;
  /** `field` or `-field`; the server's default is `-balance`. */
  sort?: string | undefined;
};

/** One page of `GET /arrears` with `X-Total-Count`. */
export const arrearsQuery = (params: ArrearsParams) =>
  queryOptions({
    queryKey: arrearsKeys.list(params),
    queryFn: async ({ signal }) => {
      let total: number | undefined;
      const rows = await api.get<ArrearsRow[]>('/arrears', {
        signal,
        quietForbidden: true,
        query: {
          page: params.page + 1,
          page_size: params.pageSize,
          q: params.q?.trim() || undefined,
          sort: params.sort || undefined,
        },
        onHeaders: (headers) => {
          const n = Number(headers.get('X-Total-Count'));
          total = Number.isFinite(n) ? n : undefined;
        },
      });
      return { rows, total: total ?? rows.length };
    },
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
