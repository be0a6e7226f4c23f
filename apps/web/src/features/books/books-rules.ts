import { z } from 'zod';
import { accountRoleLabels, chargeCategory, expenseCategory } from '@kodi/domain';

/** What the books' pages know without React: labels, exact amounts in cents, the forms' rules. */

export const accountTypes = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
export type AccountType = (typeof accountTypes)[number];

export const accountTypeLabels: Record<AccountType, string> = {
  asset: 'Asset',
  liability: 'Liability',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expense',
};

/** What each default account is for ('What tenants owe'): @kodi/domain's words (the catalogues' `books.role.*`). */
export const roleLabels: Readonly<Record<string, string>> = accountRoleLabels;

/** What a default account is for ('Cash payments', 'Plumbing expenses'); null for an added one. */
export const roleLabel = (role: string | null): string | null => {
  if (!role) return null;
  const [kind, category = ''] = role.split(':');
  if (kind === 'charge_income')
    return `${chargeCategory.labels[category as keyof typeof chargeCategory.labels] ?? category} charges`;
  if (kind === 'expense')
    return `${expenseCategory.labels[category as keyof typeof expenseCategory.labels] ?? category} expenses`;
  return roleLabels[role] ?? role;
};

export const journalSourceLabels: Record<string, string> = {
  rent: 'Rent due',
  rent_adjustment: 'Rent adjustment',
  late_fee: 'Late fee',
  charge: 'Charge',
  waiver: 'Waiver',
  payment: 'Payment',
  payment_void: 'Payment voided',
  deposit: 'Deposit held',
  deposit_applied: 'Deposit applied',
  deposit_refund: 'Deposit refunded',
  expense: 'Expense',
  wage: 'Wage',
  wage_void: 'Wage voided',
  opening_balance: 'Opening balance',
  manual: 'Manual entry',
  reversal: 'Reversal',
};
export const journalSources = Object.keys(journalSourceLabels);
export const sourceLabel = (source: string): string => journalSourceLabels[source] ?? source;

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

/** An amount as typed ('1,500.5', '') in cents; null when it is not an amount. Blank is 0. */
export const typedCents = (typed: string | number | null | undefined): bigint | null => {
  const s = String(typed ?? '')
    .trim()
    .replace(/,/g, '');
  if (s === '') return 0n;
  if (!AMOUNT.test(s)) return null;
  const [whole = '0', frac = ''] = s.split('.');
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
};

/** Exact decimal text (the API's '1500.00') in cents. */
export const cents = (decimal: string): bigint => {
  const negative = decimal.trim().startsWith('-');
  const c = typedCents(decimal.trim().replace(/^-/, '')) ?? 0n;
  return negative ? -c : c;
};

/** Cents as exact decimal text ('1500.00'). */
export const decimalOf = (c: bigint): string => {
  const sign = c < 0n ? '-' : '';
  const a = c < 0n ? -c : c;
  return `${sign}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};

/** The debits and credits of an entry's lines, in cents. */
export const entryTotals = (lines: readonly { debit: string; credit: string }[]) => ({
  debit: lines.reduce((s, l) => s + (typedCents(l.debit) ?? 0n), 0n),
  credit: lines.reduce((s, l) => s + (typedCents(l.credit) ?? 0n), 0n),
});

export type DraftLine = { account_id: number | null; debit: string; credit: string };

/**
 * Whether a manual entry may be posted, as typed: every line an account and either a debit or a
 * credit, at least two lines, debits equal to credits (and more than 0). Null when it may.
 */
export const draftProblem = (lines: readonly DraftLine[]): string | null => {
  const used = lines.filter((l) => l.account_id !== null || l.debit.trim() || l.credit.trim());
  if (used.length < 2) return 'An entry has at least two lines.';
  for (const [i, l] of used.entries()) {
    const d = typedCents(l.debit);
    const c = typedCents(l.credit);
    if (d === null || c === null) return `Line ${i + 1}: amounts are numbers with at most two decimals.`;
    if ((d === 0n) === (c === 0n)) return `Line ${i + 1}: give either a debit or a credit.`;
    if (l.account_id === null) return `Line ${i + 1}: choose an account.`;
  }
  const t = entryTotals(used);
  if (t.debit !== t.credit) return 'The entry does not balance: its debits must equal its credits.';
  return null;
};

/** The account form's rules (the server's: code up to 20, name up to 255). */
export const accountFormSchema = z.object({
  code: z.string().trim().min(1, 'Required').max(20, 'Maximum 20 characters.'),
  name: z.string().trim().min(1, 'Required').max(255, 'Maximum 255 characters.'),
  type: z.enum(accountTypes, 'Choose asset, liability, equity, income or expense.'),
  is_active: z.boolean(),
});
export type AccountForm = z.infer<typeof accountFormSchema>;

/** The manual entry's rules: a date, a memo, lines that balance (`draftProblem`). */
export const manualEntrySchema = z
  .object({
    date: z.iso.date('Invalid date format (YYYY-MM-DD).'),
    memo: z.string().trim().min(1, 'Required').max(1000, 'Maximum 1000 characters.'),
    lines: z.array(z.object({ account_id: z.number().nullable(), debit: z.string(), credit: z.string() })),
  })
  .superRefine((v, ctx) => {
    const problem = draftProblem(v.lines);
    if (problem) ctx.addIssue({ code: 'custom', path: ['lines'], message: problem });
  });
export type ManualEntryForm = z.infer<typeof manualEntrySchema>;

/** The day before an ISO day. */
export const dayBefore = (iso: string): string => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};
