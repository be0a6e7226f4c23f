import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';

/** 4xx answers and client-side blocks are final; only network and 5xx failures are retried (twice). */
const shouldRetry = (failureCount: number, error: unknown): boolean => {
  if (isApiError(error) && (error.status === 0 ? error.code !== 'network_error' : error.status < 500))
    return false;
  return failureCount < 2;
};

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
