import { queryOptions } from '@tanstack/react-query';
import type { Dashboard } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { DASHBOARD_KEY } from '../../lib/resources.ts';

/** Home refreshes itself every 10 minutes (product decisions, 'Help text'). */
export const DASHBOARD_REFRESH_MS = 600_000;

/** `GET /dashboard`'s answer: the schema the server declares (@kodi/domain `dashboardSchema`). */
export type { Dashboard };

/** `GET /dashboard` of the company, or of one property: counts, short lists and the pending table in one call. */
export const dashboardQuery = (propertyId: number | null = null) =>
  queryOptions({
    queryKey: [...DASHBOARD_KEY, 'home', propertyId] as const,
    queryFn: ({ signal }) =>
      api.get<Dashboard>('/dashboard', {
        signal,
        quietForbidden: true,
        query: { property_id: propertyId ?? undefined },
      }),
    refetchInterval: DASHBOARD_REFRESH_MS,
    // fresh for a few seconds: the answer prefetched while Home's code loads is used, not asked again
    staleTime: 5_000,
  });
