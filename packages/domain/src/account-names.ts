/**
 * The default chart's account names (issue 30): every company's chart starts with these accounts
 * (apps/server/drizzle/0045_owner_books.sql, `books_default_chart`), each with a `role` that the books
 * post by. Their names are data, in English; the pages show a default account in the reader's
 * language while its name is still its role's default, and a renamed account as the company named it.
 * Their words are the catalogues' `accountNames` (the English there is this table's: a test checks).
 */
export const defaultAccountNames: Readonly<Record<string, string>> = {
  cash: 'Cash on hand',
  mobile_money: 'Mobile money',
  bank: 'Bank',
  card_clearing: 'Card clearing',
  receivable: 'Accounts receivable (tenants)',
  tenant_credits: 'Tenant credits',
  deposits_held: 'Security deposits held',
  owner_funds: 'Owner funds held',
  owner_rent_due: 'Rent due to owners (not collected)',
  rental_tax_payable: 'Rental tax payable',
  opening_balances: 'Opening balances',
  retained_earnings: 'Retained earnings',
  rental_income: 'Rental income',
  late_fee_income: 'Late fee income',
  'charge_income:utility': 'Other charges income – Utility',
  'charge_income:damage': 'Other charges income – Damage',
  'charge_income:other': 'Other charges income – Other',
  management_fee_income: 'Management fee income',
  'expense:plumbing': 'Plumbing',
  'expense:fixes': 'Fixes',
  'expense:fittings': 'Fittings',
  'expense:electrical': 'Electrical',
  'expense:cleaning': 'Cleaning',
  'expense:repairs': 'Repairs',
  'expense:condo_fees': 'Condominium fees',
  'expense:other': 'Other expenses',
  wages: 'Wages',
};

/**
 * What each default account is for, by role ('What tenants owe'): the Chart of Accounts' 'Default for'.
 * A charge's and an expense's category accounts say it from their category. The catalogues' `books.role.*`.
 */
export const accountRoleLabels: Readonly<Record<string, string>> = {
  cash: 'Cash payments',
  mobile_money: 'Mobile money payments',
  bank: 'Bank transfers and cheques',
  card_clearing: 'Card payments',
  receivable: 'What tenants owe',
  tenant_credits: 'Tenant credits',
  deposits_held: 'Security deposits',
  opening_balances: 'Opening balances',
  retained_earnings: 'Retained earnings',
  rental_income: 'Rent',
  late_fee_income: 'Late fees',
  wages: 'Wages',
  owner_funds: 'Money held for owners',
  owner_rent_due: 'Rent owed to owners, not yet collected',
  rental_tax_payable: 'Rental tax withheld',
  management_fee_income: 'Management fees',
};

/** A role's catalogue key: 'cash' → 'accountNames.cash', 'expense:plumbing' → 'accountNames.expense.plumbing'. */
export const accountNameKey = (role: string): string => `accountNames.${role.replaceAll(':', '.')}`;

/** An account as the pages have it: its name, and its role when it is one of the default chart's. */
export type NamedAccount = { name: string; role?: string | null };

/**
 * An account's name in the reader's language: a default account whose name is still its role's
 * default is translated (`translate(key, english)`: the page's translator, English when it has no
 * such key), any other keeps the name the company gave it.
 */
export const accountLabel = (
  account: NamedAccount,
  translate: (key: string, english: string) => string,
): string => {
  const { name, role } = account;
  if (!role || !Object.hasOwn(defaultAccountNames, role) || defaultAccountNames[role] !== name) return name;
  return translate(accountNameKey(role), name);
};
