import { queryOptions } from '@tanstack/react-query';
import type { PaymentProviderName } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';

/** Request payment's choices for a lease: the providers on, its tenant's phone and that phone's provider. */
export type PaymentOptions = {
  providers: PaymentProviderName[];
  phone: string | null;
  provider: PaymentProviderName | null;
};

const providersKey = [...resourceKeys.all, 'payment-providers', 'on'] as const;

/**
 * The providers the company has on (`GET /payment-requests/providers`, admins and editors): staff are
 * offered 'Request payment' only when one is. Kept a minute: a provider turned on or off in Company
 * settings shows on the next load.
 */
export const providersOnQuery = () =>
  queryOptions({
    queryKey: providersKey,
    queryFn: ({ signal }) =>
      api.get<{ providers: PaymentProviderName[] }>('/payment-requests/providers', { signal }),
    staleTime: 60_000,
  });

export const paymentOptionsQuery = (occupancyId: number) =>
  queryOptions({
    queryKey: [...resourceKeys.record('occupancy', occupancyId), 'payment-options'] as const,
    queryFn: ({ signal }) =>
      api.get<PaymentOptions>(`/occupancy/${occupancyId}/payment-requests/options`, { signal }),
    staleTime: 0,
  });
