import { AppError, expenses } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { expensePosted, withPaidFrom } from '../../modules/books/hooks.ts';

/** Expenses: the account each is paid from (default Cash on hand), and their entries in the books. */
export const expensesServer: ServerEntity = {
  def: expenses,
  sql: { table: 'expenses' },
  prepare: async ({ tx, user, values, existing }) => {
    const kept =
      values.paid_from_account_id === undefined && existing?.paid_from_account_id
        ? { ...values, paid_from_account_id: existing.paid_from_account_id }
        : values;
    const [out] = await withPaidFrom(tx, user.company_id, [kept]);
    if (!out || out instanceof AppError) throw out ?? new Error('expenses: no values');
    return out;
  },
  prepareMany: async ({ tx, companyId, values }) => withPaidFrom(tx, companyId, values),
  posted: expensePosted,
};
