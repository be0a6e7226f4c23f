import { queryOptions } from '@tanstack/react-query';
import type { CompanySettings, MessageTemplate, RentCycleRunAnswer } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';

/** The company's settings; under the resource keys, so that a run refreshes the leases' ledgers too. */
export const settingsKey = [...resourceKeys.all, 'company-settings'] as const;

export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKey,
    queryFn: ({ signal }) => api.get<CompanySettings>('/company-settings', { signal }),
    staleTime: 0,
  });

export const saveSettings = (body: Record<string, unknown>) =>
  api.put<CompanySettings>('/company-settings', body);

export const runCycleNow = () => api.post<RentCycleRunAnswer>('/rent-cycle/run', {});

export const rotateWebhookSecret = () =>
  api.post<{ url: string; secret: string }>('/company-settings/webhook-secret');

/** Whether the server can send e-mail and SMS (the settings page says when SMS cannot go out). */
export const providersQuery = () =>
  queryOptions({
    queryKey: [...resourceKeys.all, 'message-providers'] as const,
    queryFn: ({ signal }) =>
      api.get<{ email: boolean; sms: boolean; whatsapp: boolean }>('/messages/providers', {
        signal,
        quietForbidden: true,
      }),
    staleTime: 60_000,
  });

/** The company's message templates, for the reminders' template picker. */
export const templatesQuery = () =>
  queryOptions({
    queryKey: [...resourceKeys.all, 'messages', 'templates'] as const,
    queryFn: ({ signal }) =>
      api.get<MessageTemplate[]>('/message-templates', {
        signal,
        quietForbidden: true,
        query: { page_size: 500 },
      }),
    staleTime: 0,
  });
