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

// ------------------------------------------------------------------ the books' reports (issue 25)

export type IncomeBasis = 'cash' | 'accrual';

export const incomeStatementBasisQuery = (r: ReportScope, basis: IncomeBasis) =>
  queryOptions({
    queryKey: [...reportKeys.incomeStatement(r), basis] as const,
    queryFn: () =>
      api.get<IncomeStatementMonth[]>('/income-statement', { query: { ...reportParams(r), basis } }),
  });

export type AccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';

export type TrialBalance = {
  as_of: string;
  accounts: {
    id: number;
    code: string;
    name: string;
    type: AccountType;
    role: string | null;
    debit: string;
    credit: string;
  }[];
  total_debit: string;
  total_credit: string;
};

export type GeneralLedger = {
  account: { id: number; code: string; name: string; type: AccountType };
  from: string;
  to: string;
  opening_balance: string;
  total_debit: string;
  total_credit: string;
  closing_balance: string;
  page: number;
  page_size: number;
  total: number;
  lines: {
    entry_id: number;
    line_id: number;
    date: string;
    memo: string;
    source: string;
    debit: string;
    credit: string;
    balance: string;
  }[];
};

export type BalanceSheetLine = {
  id: number | null;
  code: string | null;
  name: string;
  role: string | null;
  balance: string;
};
export type BalanceSheet = {
  as_of: string;
  year_start: string;
  assets: BalanceSheetLine[];
  total_assets: string;
  liabilities: BalanceSheetLine[];
  total_liabilities: string;
  equity: BalanceSheetLine[];
  total_equity: string;
  total_liabilities_and_equity: string;
};

export type LedgerAccountOption = {
  id: number;
  code: string;
  name: string;
  type: AccountType;
  role: string | null;
};

/** A day's report of the company or one property. */
export type DayScope = { asOf: string; propertyId?: number | null };

export const dayParams = (s: DayScope) => ({ as_of: s.asOf, property_id: s.propertyId ?? undefined });

export const trialBalanceQuery = (s: DayScope) =>
  queryOptions({
    queryKey: ['reports', 'trial-balance', s.asOf, s.propertyId ?? null] as const,
    queryFn: () => api.get<TrialBalance>('/reports/trial-balance', { query: dayParams(s) }),
  });

export const balanceSheetQuery = (s: DayScope) =>
  queryOptions({
    queryKey: ['reports', 'balance-sheet', s.asOf, s.propertyId ?? null] as const,
    queryFn: () => api.get<BalanceSheet>('/reports/balance-sheet', { query: dayParams(s) }),
  });

export type LedgerScope = {
  accountId: number;
  from: string;
  to: string;
  page: number;
  propertyId?: number | null;
};

export const ledgerParams = (s: LedgerScope) => ({
  account_id: s.accountId,
  from: s.from,
  to: s.to,
  property_id: s.propertyId ?? undefined,
});

export const LEDGER_PAGE = 100;

export const generalLedgerQuery = (s: LedgerScope) =>
  queryOptions({
    queryKey: ['reports', 'general-ledger', s.accountId, s.from, s.to, s.page, s.propertyId ?? null] as const,
    queryFn: () =>
      api.get<GeneralLedger>('/reports/general-ledger', {
        query: { ...ledgerParams(s), page: s.page, page_size: LEDGER_PAGE },
      }),
  });

export const ledgerAccountsQuery = () =>
  queryOptions({
    queryKey: ['ledger-accounts'] as const,
    queryFn: () => api.get<LedgerAccountOption[]>('/ledger-accounts'),
  });

// ------------------------------------------------------------------ rental tax (issue 27)

type Landlord = { kind: 'company' | 'owner'; owner_id: number | null; name: string; tax_id: string | null };

export type RentalTaxMonth = {
  month: string;
  rate: number;
  due_date: string;
  landlords: (Landlord & {
    gross_rent: string;
    rate: number;
    tax: string;
    withheld: string | null;
    due_date: string;
  })[];
  totals: { gross_rent: string; tax: string; withheld: string };
};

export type RentalTaxYear = {
  tax_year: number;
  from: string;
  to: string;
  landlords: (Landlord & { gross_rent: string; expenses: string; net: string })[];
  totals: { gross_rent: string; expenses: string; net: string };
};

export const rentalTaxMonthQuery = (month: string) =>
  queryOptions({
    queryKey: ['reports', 'rental-tax', 'month', month] as const,
    queryFn: () => api.get<RentalTaxMonth>('/reports/rental-tax', { query: { month } }),
  });

export const rentalTaxYearQuery = (year: number) =>
  queryOptions({
    queryKey: ['reports', 'rental-tax', 'year', year] as const,
    queryFn: () => api.get<RentalTaxYear>('/reports/rental-tax', { query: { tax_year: year } }),
  });
