import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  AgingBucket,
  ArrearsRemindAnswer,
  ArrearsRemindBody,
  ArrearsRow,
  ArrearsSummary,
  LedgerAnswer,
} from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { fetchPage, type PageParams } from '../../lib/pages.ts';
import { DASHBOARD_KEY, resourceKeys } from '../../lib/resources.ts';

/**
 * The arrears report, its summary and a lease's ledger. Keys sit under the resource and dashboard
 * keys, so that saving a payment or a lease (which invalidates those) refreshes them too.
 */
export const arrearsKeys = {
  list: (params: ArrearsParams) => [...resourceKeys.entity('arrears'), 'list', params] as const,
  summary: (propertyId: number | null) => [...DASHBOARD_KEY, 'arrears-summary', propertyId] as const,
  ledger: (occupancyId: number) => [...resourceKeys.entity('occupancy'), 'ledger', occupancyId] as const,
};

/** The server's default sort is `-balance`; `propertyId`: the leases of one property. */
export type ArrearsParams = PageParams & {
  propertyId?: number | undefined;
  /** only the leases owing something in this age bucket (the dashboard's links) */
  bucket?: AgingBucket | undefined;
};

/** `property_id` of a query, when one property is shown. */
const propertyParam = (propertyId: number | null | undefined) =>
  propertyId === null || propertyId === undefined ? undefined : String(propertyId);

/** One page of `GET /arrears` with `X-Total-Count`. */
export const arrearsQuery = (params: ArrearsParams) =>
  queryOptions({
    queryKey: arrearsKeys.list(params),
    queryFn: ({ signal }) =>
      fetchPage<ArrearsRow>('/arrears', params, signal, {
        property_id: propertyParam(params.propertyId),
        bucket: params.bucket,
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** `GET /arrears/summary`: the dashboard's 'Total arrears' card (its own call, not `GET /dashboard`). */
export const arrearsSummaryQuery = (propertyId: number | null = null) =>
  queryOptions({
    queryKey: arrearsKeys.summary(propertyId),
    queryFn: ({ signal }) =>
      api.get<ArrearsSummary>('/arrears/summary', {
        signal,
        quietForbidden: true,
        query: { property_id: propertyParam(propertyId), by_age: 'true' },
      }),
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

/** `POST /arrears/remind`: the overdue reminder to the chosen leases (or all), by SMS or e-mail. */
export const remindArrears = (body: ArrearsRemindBody) =>
  api.post<ArrearsRemindAnswer>('/arrears/remind', body);
