import { queryOptions } from '@tanstack/react-query';
import type { CompanySettings, RentCycleRunResult } from '@kodi/domain';
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

export const runCycleNow = () => api.post<RentCycleRunResult>('/rent-cycle/run', {});

export const rotateWebhookSecret = () =>
  api.post<{ url: string; secret: string }>('/company-settings/webhook-secret');
