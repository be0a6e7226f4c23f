import { queryOptions } from '@tanstack/react-query';
import { API_BASE } from './api-client.ts';

/**
 * The support address the Help Center shows: the server's `support_email` from `GET /auth/status`
 * when it sends one, else this. The one place it is written down in the web client.
 */
export const SUPPORT_EMAIL = 'support@kodi.local';

export type ServerInfo = {
  /** Google sign-in is configured on the server (`google_enabled`). */
  googleEnabled: boolean;
  supportEmail: string;
};

type StatusAnswer = { google_enabled?: unknown; support_email?: unknown };

export const serverInfoKey = ['server-info'] as const;

/**
 * What the public `GET /auth/status` says about the installation (not about the user). Read with a
 * plain GET rather than the API client: the client refuses `/auth/status` while the logout flag is set,
 * and the Login page needs to know about Google sign-in right after a logout too. It never touches the
 * session store.
 */
export const serverInfoQuery = () =>
  queryOptions({
    queryKey: serverInfoKey,
    queryFn: async ({ signal }): Promise<ServerInfo> => {
      const res = await fetch(`${API_BASE}/auth/status`, {
        signal,
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`Status check failed (${res.status}).`);
      const body = (await res.json()) as StatusAnswer;
      return {
        googleEnabled: body.google_enabled === true,
        supportEmail:
          typeof body.support_email === 'string' && body.support_email.trim()
            ? body.support_email.trim()
            : SUPPORT_EMAIL,
      };
    },
    staleTime: 5 * 60_000,
    retry: 1,
  });
