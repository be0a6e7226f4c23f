import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { fetchPage, type PageParams } from '../../lib/pages.ts';
import type { AccountType } from './books-rules.ts';

/** An account of the chart (`GET /ledger-accounts`); `balance` is exact decimal text. */
export type LedgerAccount = {
  id: number;
  code: string;
  name: string;
  type: AccountType;
  role: string | null;
  is_active: boolean;
  balance: string;
};

export type JournalLine = {
  account_id: number;
  account_code: string;
  account_name: string;
  /** the account's role (a default account's), for its name in the reader's language */
  account_role: string | null;
  debit: string;
  credit: string;
  property_id: number | null;
  unit_id: number | null;
  occupancy_id: number | null;
  tenant_id: number | null;
};

export type JournalEntry = {
  id: number;
  date: string;
  memo: string;
  source: string;
  source_id: number | null;
  reverses_id: number | null;
  lines: JournalLine[];
};

export type BooksClosing = { through: string | null; closed_at: string | null; user_id: number | null };

/** The journal's filters (empty: all). */
export type JournalFilters = { from?: string; to?: string; account_id?: string; source?: string };

export const booksKeys = {
  all: ['books'] as const,
  accounts: ['books', 'accounts'] as const,
  journal: (params: PageParams & JournalFilters) => ['books', 'journal', params] as const,
  entry: (id: number) => ['books', 'entry', id] as const,
  close: ['books', 'close'] as const,
};

export const accountsQuery = () =>
  queryOptions({
    queryKey: booksKeys.accounts,
    queryFn: ({ signal }) => api.get<LedgerAccount[]>('/ledger-accounts', { signal, quietForbidden: true }),
    staleTime: 30_000,
  });

/** The filters as query parameters (blank ones left out). */
export const journalFilterQuery = (f: JournalFilters): Record<string, string | undefined> => ({
  from: f.from || undefined,
  to: f.to || undefined,
  account_id: f.account_id || undefined,
  source: f.source || undefined,
});

export const journalQuery = (params: PageParams & JournalFilters) =>
  queryOptions({
    queryKey: booksKeys.journal(params),
    queryFn: ({ signal }) => fetchPage<JournalEntry>('/journal', params, signal, journalFilterQuery(params)),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const entryQuery = (id: number) =>
  queryOptions({
    queryKey: booksKeys.entry(id),
    queryFn: ({ signal }) => api.get<JournalEntry>(`/journal/${id}`, { signal }),
    staleTime: 60_000,
  });

export const closeQuery = () =>
  queryOptions({
    queryKey: booksKeys.close,
    queryFn: ({ signal }) => api.get<BooksClosing>('/books/close', { signal, quietForbidden: true }),
  });

export type AccountBody = { code: string; name: string; type: AccountType; is_active: boolean };

export const createAccount = (body: AccountBody) => api.post<LedgerAccount>('/ledger-accounts', body);
export const updateAccount = (id: number, body: AccountBody) =>
  api.put<LedgerAccount>(`/ledger-accounts/${id}`, body);
export const deleteAccount = (id: number) => api.delete(`/ledger-accounts/${id}`);

export type ManualEntryBody = {
  date: string;
  memo: string;
  lines: { account_id: number; debit: string; credit: string }[];
};
export const postEntry = (body: ManualEntryBody) => api.post<JournalEntry>('/journal', body);
export const closeBooks = (through: string) => api.post<BooksClosing>('/books/close', { through });
