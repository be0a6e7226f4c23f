import { sql } from 'drizzle-orm';
import { AppError } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { findPgError } from '../../plugins/errors.ts';

/**
 * The chart of accounts and the closings: the one writer of `ledger_accounts` (besides the default
 * chart the database writes for every new company) and of `books_closings`.
 */

export type AccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';
export type AccountValues = { code: string; name: string; type: AccountType; is_active: boolean };

export type LedgerAccount = AccountValues & { id: number; role: string | null; balance: string };

const CODE_TAKEN = 'An account of this code exists already.';

/** Assets and expenses: debit − credit; the others: credit − debit. */
const BALANCE = `CASE WHEN a.type IN ('asset', 'expense') THEN 1 ELSE -1 END
  * coalesce((SELECT sum(d.debit - d.credit) FROM account_day_totals d
              WHERE d.company_id = a.company_id AND d.account_id = a.id), 0)`;

const present = (r: Record<string, unknown>): LedgerAccount => ({
  id: Number(r.id),
  code: String(r.code),
  name: String(r.name),
  type: r.type as AccountType,
  role: r.role === null ? null : String(r.role),
  is_active: Boolean(r.is_active),
  balance: String(r.balance),
});

/** The company's accounts by code, or one of them (404 when it is not the company's). */
export const listAccounts = async (tx: DbOrTx, companyId: number, id?: number): Promise<LedgerAccount[]> => {
  const rows = await execRows<Record<string, unknown>>(
    tx,
    sql`SELECT a.id, a.code, a.name, a.type, a.role, a.is_active, (${sql.raw(BALANCE)})::numeric(18,2)::text AS balance
          FROM ledger_accounts a
         WHERE a.company_id = ${companyId} ${id === undefined ? sql`` : sql`AND a.id = ${id}`}
         ORDER BY a.code, a.id`,
  );
  if (id !== undefined && rows.length === 0) throw new AppError('not_found', 'Ledger account not found.');
  return rows.map(present);
};

/** Whether any line posts to the account. */
const used = async (tx: DbOrTx, companyId: number, id: number): Promise<boolean> =>
  (
    await execRows(
      tx,
      sql`SELECT 1 FROM journal_lines WHERE company_id = ${companyId} AND account_id = ${id} LIMIT 1`,
    )
  ).length > 0;

const codeTaken = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (err) {
    if (findPgError(err)?.code === '23505') throw new AppError('duplicate', CODE_TAKEN, { code: CODE_TAKEN });
    throw err;
  }
};

export const ledgerAccounts = {
  create: async (tx: DbOrTx, companyId: number, v: AccountValues): Promise<LedgerAccount> => {
    const rows = await codeTaken(() =>
      execRows<{ id: number }>(
        tx,
        sql`INSERT INTO ledger_accounts (company_id, code, name, type, is_active)
            VALUES (${companyId}, ${v.code}, ${v.name}, ${v.type}, ${v.is_active}) RETURNING id`,
      ),
    );
    const [a] = await listAccounts(tx, companyId, Number(rows[0]?.id));
    if (!a) throw new AppError('not_found');
    return a;
  },

  /** A change; the type of an account posted to stays (409 in_use). */
  update: async (tx: DbOrTx, companyId: number, id: number, v: AccountValues): Promise<LedgerAccount> => {
    const [before] = await listAccounts(tx, companyId, id);
    if (before && before.type !== v.type && (await used(tx, companyId, id)))
      throw new AppError('in_use', 'The type of an account with entries cannot change.');
    await codeTaken(() =>
      tx.execute(
        sql`UPDATE ledger_accounts SET code = ${v.code}, name = ${v.name}, type = ${v.type}, is_active = ${v.is_active},
                   version = version + 1, updated_at = now()
             WHERE company_id = ${companyId} AND id = ${id}`,
      ),
    );
    const [a] = await listAccounts(tx, companyId, id);
    if (!a) throw new AppError('not_found');
    return a;
  },

  /** An account deleted: never one posted to, nor one of the default chart (deactivate them). */
  delete: async (tx: DbOrTx, companyId: number, id: number): Promise<void> => {
    const [a] = await listAccounts(tx, companyId, id);
    if (a?.role) throw new AppError('in_use', 'A default account cannot be deleted: deactivate it instead.');
    if (await used(tx, companyId, id))
      throw new AppError('in_use', 'This account has entries: deactivate it instead.');
    const paying = await execRows(
      tx,
      sql`SELECT 1 FROM expenses WHERE company_id = ${companyId} AND paid_from_account_id = ${id} LIMIT 1`,
    );
    if (paying.length > 0)
      throw new AppError('in_use', 'Expenses were paid from this account: deactivate it instead.');
    await tx.execute(sql`DELETE FROM ledger_accounts WHERE company_id = ${companyId} AND id = ${id}`);
  },
};

export type Closing = { through: string | null; closed_at: string | null; user_id: number | null };

/** The latest close of the company's books, or none. */
export const latestClosing = async (tx: DbOrTx, companyId: number): Promise<Closing> => {
  const rows = await execRows<{ through: string; closed_at: string; user_id: number | null }>(
    tx,
    sql`SELECT to_char(through, 'YYYY-MM-DD') AS through,
               to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS closed_at, user_id
          FROM books_closings WHERE company_id = ${companyId} ORDER BY id DESC LIMIT 1`,
  );
  const r = rows[0];
  return r
    ? { through: r.through, closed_at: r.closed_at, user_id: r.user_id === null ? null : Number(r.user_id) }
    : { through: null, closed_at: null, user_id: null };
};

/** The books closed through a day (the company's closings serialised by its lock on the row read). */
export const closeBooks = async (
  tx: DbOrTx,
  companyId: number,
  through: string,
  userId: number,
): Promise<Closing> => {
  await tx.execute(
    sql`INSERT INTO books_closings (company_id, through, user_id) VALUES (${companyId}, ${through}, ${userId})`,
  );
  return latestClosing(tx, companyId);
};
