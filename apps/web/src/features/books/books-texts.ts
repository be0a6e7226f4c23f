import { chargeCategory, expenseCategory } from '@kodi/domain';
import type { TranslateDerived } from '../../lib/i18n.ts';
import { accountTypeLabels, roleLabels, type AccountType } from './books-rules.ts';

/**
 * The Chart of Accounts' words in the page's language (issue 30): keys derived from the codes (a
 * role, a type), the code's English as the fallback. Apart from books-rules.ts, which other pages
 * share, and from the Journal's (journal-texts.ts): a module two pages share may join a chunk of
 * other pages too, whose budgets would then count the `books` group's catalogue.
 */

/**
 * What a default account is for, in the page's language (issue 30): `books.role.<role>`, and for a
 * charge's or an expense's category `books.roleCharges` / `books.roleExpenses` with the category's
 * `books.chargeCategory.<value>` / `books.expenseCategory.<value>` (keys from the domain's options).
 */
export const roleText = (role: string | null, td: TranslateDerived): string | null => {
  if (!role) return null;
  const [kind, category = ''] = role.split(':');
  if (kind === 'charge_income') {
    const english = chargeCategory.labels[category as keyof typeof chargeCategory.labels] ?? category;
    return td('books.roleCharges', '{category} charges', {
      category: td(`books.chargeCategory.${category}`, english),
    });
  }
  if (kind === 'expense') {
    const english = expenseCategory.labels[category as keyof typeof expenseCategory.labels] ?? category;
    return td('books.roleExpenses', '{category} expenses', {
      category: td(`books.expenseCategory.${category}`, english),
    });
  }
  return td(`books.role.${role}`, roleLabels[role] ?? role);
};

/** An account type's label in the page's language (`books.type.<type>`). */
export const accountTypeText = (type: AccountType, td: TranslateDerived): string =>
  td(`books.type.${type}`, accountTypeLabels[type]);
