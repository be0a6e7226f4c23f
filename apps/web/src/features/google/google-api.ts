import { queryOptions } from '@tanstack/react-query';
import type { AuthStatus } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';

/** Google sign-in result pages (02-admin §2, §9). */
export const GOOGLE_SUCCESS_REDIRECT_MS = 1000;
export const GOOGLE_FAILURE_REDIRECT_MS = 2000;

/** `GET /auth/status` right after the server's redirect: who the Google sign-in signed in. */
export const googleSessionQuery = () =>
  queryOptions({
    queryKey: ['auth-status', 'google-callback'],
    queryFn: ({ signal }) => api.get<AuthStatus>('/auth/status', { signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
