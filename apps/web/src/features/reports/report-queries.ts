import { queryOptions } from '@tanstack/react-query';
import type { CashFlowMonth, IncomeStatementMonth } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';

export type MonthRange = { from: string; to: string };

export const reportKeys = {
  all: ['reports'] as const,
  incomeStatement: (r: MonthRange) => ['reports', 'income-statement', r.from, r.to] as const,
  cashFlow: (r: MonthRange) => ['reports', 'cash-flow', r.from, r.to] as const,
};

export const incomeStatementQuery = (r: MonthRange) =>
  queryOptions({
    queryKey: reportKeys.incomeStatement(r),
    queryFn: () =>
      api.get<IncomeStatementMonth[]>('/income-statement', { query: { from: r.from, to: r.to } }),
  });

export const cashFlowQuery = (r: MonthRange) =>
  queryOptions({
    queryKey: reportKeys.cashFlow(r),
    queryFn: () => api.get<CashFlowMonth[]>('/cash-flow', { query: { from: r.from, to: r.to } }),
  });
