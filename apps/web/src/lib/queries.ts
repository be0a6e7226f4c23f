import { queryOptions } from '@tanstack/react-query';
import type { Company } from '@kodi/domain';
import { api } from './api-client.ts';

/** Query keys and option factories shared by features (one place, so invalidation is consistent). */
export const queryKeys = {
  company: (id: number) => ['companies', 'single', id] as const,
};

export const companyQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.company(id),
    queryFn: ({ signal }) =>
      api
        .get<{ company: Company }>(`/companies_single/${id}`, { signal, quietForbidden: true })
        .then((answer) => answer.company),
    staleTime: 5 * 60_000,
  });
