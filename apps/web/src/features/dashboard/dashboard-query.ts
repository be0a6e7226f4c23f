import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { DASHBOARD_KEY } from '../../lib/resources.ts';

/** Home refreshes itself every 10 minutes (product decisions, 'Help text'). */
export const DASHBOARD_REFRESH_MS = 600_000;

export type Dashboard = {
  counts: {
    available_units: number;
    pending_repairs: number;
    payments_this_month: number;
    incomplete_payments: number;
  };
  available_units: { id: number; name: string; address: string | null; monthly_rate: number }[];
  pending_repairs: { id: number; description: string; unit_name: string | null; request_date: string }[];
  recent_payments: {
    id: number;
    amount_paid: number;
    tenant_first_name: string | null;
    tenant_last_name: string | null;
    payment_date: string;
  }[];
  recent_expenses: {
    id: number;
    amount: number;
    category: string;
    unit_name: string | null;
    expense_date: string;
  }[];
  pending_payments: {
    id: number;
    tenant_first_name: string | null;
    tenant_last_name: string | null;
    unit_name: string | null;
    amount_paid: number;
    due_date: string;
    payment_details: string | null;
  }[];
  currency_code: string | null;
  currency_decimal_places: number | null;
};

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
