import type { KodiModule } from '../kodi-module.ts';

/**
 * The books (issue 25): the chart of accounts, the journal and what is kept from it. post.ts is the
 * one writer of the journal and its totals; ledger-accounts.ts of the accounts and the closings.
 */
export const booksModule: KodiModule = {
  name: 'books',
  owns: [
    'ledger_accounts',
    'journal_entries',
    'journal_lines',
    'account_day_totals',
    'account_month_totals',
    'lease_balances',
    'lease_debit_days',
    'books_closings',
    'lease_rent_posted',
    'lease_rent_state',
    'books_state',
  ],
  tableLabels: {
    ledger_accounts: 'ledger accounts',
    journal_entries: 'journal entries',
    journal_lines: 'journal lines',
  },
};
