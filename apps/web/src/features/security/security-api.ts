import { queryOptions } from '@tanstack/react-query';
import type { MfaSetup, MfaStatus, RecoveryCodes, SessionInfo } from '@kodi/domain';
import { api, request } from '../../lib/api-client.ts';

export const mfaKey = ['security', 'mfa'] as const;
export const sessionsKey = ['security', 'sessions'] as const;

export const mfaQuery = () =>
  queryOptions({ queryKey: mfaKey, queryFn: ({ signal }) => api.get<MfaStatus>('/auth/mfa', { signal }) });

export const sessionsQuery = () =>
  queryOptions({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => api.get<SessionInfo[]>('/auth/sessions', { signal }),
  });

export const setUpMfa = () => api.post<MfaSetup>('/auth/mfa/setup');
/** The authenticator's code and the current password: both are asked to turn it on or off (issue 23). */
type CodeAndPassword = { code: string; current_password: string };

export const confirmMfa = (body: CodeAndPassword) => api.post<RecoveryCodes>('/auth/mfa/confirm', body);
export const disableMfa = (body: CodeAndPassword) =>
  request<{ message: string }>('/auth/mfa', { method: 'DELETE', body });
export const endSession = (id: number) => api.delete(`/auth/sessions/${id}`);
export const endOtherSessions = () => api.delete<{ ended: number }>('/auth/sessions');
