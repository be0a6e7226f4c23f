import { queryOptions } from '@tanstack/react-query';
import type { CashFlowMonth, IncomeStatementMonth } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';

export type MonthRange = { from: string; to: string };

/** A report's months, of the company or of one property. */
export type ReportScope = MonthRange & { propertyId?: number | null };

export const reportKeys = {
  all: ['reports'] as const,
  incomeStatement: (r: ReportScope) =>
    ['reports', 'income-statement', r.from, r.to, r.propertyId ?? null] as const,
  cashFlow: (r: ReportScope) => ['reports', 'cash-flow', r.from, r.to, r.propertyId ?? null] as const,
};

/** The query of a report (and its export): the range, and `property_id` for one property. */
export const reportParams = (r: ReportScope) => ({
  from: r.from,
  to: r.to,
  property_id: r.propertyId ?? undefined,
});

export const incomeStatementQuery = (r: ReportScope) =>
  queryOptions({
    queryKey: reportKeys.incomeStatement(r),
    queryFn: () => api.get<IncomeStatementMonth[]>('/income-statement', { query: reportParams(r) }),
  });

export const cashFlowQuery = (r: ReportScope) =>
  queryOptions({
    queryKey: reportKeys.cashFlow(r),
    queryFn: () => api.get<CashFlowMonth[]>('/cash-flow', { query: reportParams(r) }),
  });
