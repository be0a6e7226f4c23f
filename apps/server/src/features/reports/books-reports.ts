import { sql, type SQL } from 'drizzle-orm';
import { AppError } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { fromCents, toCents } from '../../modules/books/post.ts';

/**
 * The reports read from the journal (issue 25, docs/decisions.md "Books reports"): the trial balance,
 * an account's general ledger and the balance sheet. The company's figures are index reads over
 * `account_day_totals` (kept by books.post); one property's read its lines through
 * `journal_lines_property_idx` (company, property, account, day).
 */

export type AccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';

/** Assets and expenses are debit balances; the others credit balances. */
export const debitNormal = (type: string): boolean => type === 'asset' || type === 'expense';

type AccountNet = {
  id: number;
  code: string;
  name: string;
  type: AccountType;
  role: string | null;
  /** Σ debit − Σ credit through the day, in cents */
  net: bigint;
  /** Σ debit − Σ credit before `split` (when asked), in cents */
  before: bigint;
};

/** The movements of the company's accounts: its day totals, or one property's lines. */
const movements = (companyId: number, propertyId: number | undefined): SQL =>
  propertyId === undefined
    ? sql`SELECT account_id, day, debit, credit FROM account_day_totals WHERE company_id = ${companyId}`
    : sql`SELECT account_id, date AS day, debit, credit FROM journal_lines
           WHERE company_id = ${companyId} AND property_id = ${propertyId}`;

/** Every account of the company with its net (debit − credit) through `through`, and before `split`. */
export const accountNets = async (
  db: DbOrTx,
  companyId: number,
  through: string,
  propertyId?: number,
  split?: string,
): Promise<AccountNet[]> => {
  const rows = await execRows<Record<string, unknown>>(
    db,
    sql`WITH m AS (${movements(companyId, propertyId)}),
        sums AS (
          SELECT account_id, sum(debit - credit)::text AS net,
                 coalesce(sum(debit - credit) FILTER (WHERE day < ${split ?? '0001-01-01'}::date), 0)::text AS before
            FROM m WHERE day <= ${through}::date GROUP BY account_id
        )
        SELECT a.id, a.code, a.name, a.type, a.role, coalesce(s.net, '0') AS net, coalesce(s.before, '0') AS before
          FROM ledger_accounts a LEFT JOIN sums s ON s.account_id = a.id
         WHERE a.company_id = ${companyId}
         ORDER BY a.code, a.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    code: String(r.code),
    name: String(r.name),
    type: String(r.type) as AccountType,
    role: r.role === null ? null : String(r.role),
    net: toCents(String(r.net)),
    before: toCents(String(r.before)),
  }));
};

// ------------------------------------------------------------------------------ trial balance

export type TrialBalanceLine = {
  id: number;
  code: string;
  name: string;
  type: AccountType;
  /** a default account's role (the pages show its name in the reader's language while not renamed) */
  role: string | null;
  debit: string;
  credit: string;
};
export type TrialBalance = {
  as_of: string;
  property_id: number | null;
  accounts: TrialBalanceLine[];
  total_debit: string;
  total_credit: string;
};

/** Each account with a balance on `asOf`, on its debit or credit side; the two totals are equal. */
export const trialBalance = async (
  db: DbOrTx,
  companyId: number,
  asOf: string,
  propertyId?: number,
): Promise<TrialBalance> => {
  const nets = await accountNets(db, companyId, asOf, propertyId);
  let debit = 0n;
  let credit = 0n;
  const accounts = nets
    .filter((a) => a.net !== 0n)
    .map((a) => {
      if (a.net > 0n) debit += a.net;
      else credit -= a.net;
      return {
        id: a.id,
        code: a.code,
        name: a.name,
        type: a.type,
        role: a.role,
        debit: fromCents(a.net > 0n ? a.net : 0n),
        credit: fromCents(a.net < 0n ? -a.net : 0n),
      };
    });
  return {
    as_of: asOf,
    property_id: propertyId ?? null,
    accounts,
    total_debit: fromCents(debit),
    total_credit: fromCents(credit),
  };
};

// ------------------------------------------------------------------------------ general ledger

export type GeneralLedgerLine = {
  entry_id: number;
  line_id: number;
  date: string;
  memo: string;
  source: string;
  source_id: number | null;
  debit: string;
  credit: string;
  /** the account's balance after this line (debit − credit for assets and expenses, else credit − debit) */
  balance: string;
  property_id: number | null;
  unit_id: number | null;
  occupancy_id: number | null;
  tenant_id: number | null;
};
export type GeneralLedger = {
  account: { id: number; code: string; name: string; type: AccountType; role: string | null };
  from: string;
  to: string;
  property_id: number | null;
  opening_balance: string;
  total_debit: string;
  total_credit: string;
  closing_balance: string;
  page: number;
  page_size: number;
  /** how many lines the range holds */
  total: number;
  lines: GeneralLedgerLine[];
};

/**
 * One account's lines from `from` to `to` (a page of them, oldest first), each with the running
 * balance; the opening balance (before `from`) and the closing balance (through `to`).
 */
export const generalLedger = async (
  db: DbOrTx,
  companyId: number,
  q: { account_id: number; from: string; to: string; property_id?: number; page: number; page_size: number },
): Promise<GeneralLedger> => {
  const found = await execRows<Record<string, unknown>>(
    db,
    sql`SELECT id, code, name, type, role FROM ledger_accounts WHERE company_id = ${companyId} AND id = ${q.account_id}`,
  );
  const a = found[0];
  if (!a) throw new AppError('not_found', 'Ledger account not found.');
  const account = {
    id: Number(a.id),
    code: String(a.code),
    name: String(a.name),
    type: String(a.type) as AccountType,
    role: a.role === null || a.role === undefined ? null : String(a.role),
  };
  const sign = debitNormal(account.type) ? 1n : -1n;
  const property = q.property_id === undefined ? sql`` : sql`AND property_id = ${q.property_id}`;
  const sums = await execRows<Record<string, unknown>>(
    db,
    sql`WITH m AS (${movements(companyId, q.property_id)})
        SELECT coalesce(sum(debit - credit) FILTER (WHERE day < ${q.from}::date), 0)::text AS opening,
               coalesce(sum(debit) FILTER (WHERE day >= ${q.from}::date), 0)::text AS debit,
               coalesce(sum(credit) FILTER (WHERE day >= ${q.from}::date), 0)::text AS credit
          FROM m WHERE account_id = ${account.id} AND day <= ${q.to}::date`,
  );
  const opening = toCents(String(sums[0]?.opening ?? '0')) * sign;
  const totalDebit = toCents(String(sums[0]?.debit ?? '0'));
  const totalCredit = toCents(String(sums[0]?.credit ?? '0'));
  const counted = await execRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM journal_lines
         WHERE company_id = ${companyId} AND account_id = ${account.id} ${property}
           AND date >= ${q.from}::date AND date <= ${q.to}::date`,
  );
  const offset = (q.page - 1) * q.page_size;
  // the lines of the page, and what the range moved before it
  const rows = await execRows<Record<string, unknown>>(
    db,
    sql`WITH r AS (
          SELECT l.id, l.entry_id, l.date, l.debit, l.credit, l.property_id, l.unit_id, l.occupancy_id, l.tenant_id,
                 sum(l.debit - l.credit) OVER (ORDER BY l.date, l.id) AS run
            FROM journal_lines l
           WHERE l.company_id = ${companyId} AND l.account_id = ${account.id} ${property}
             AND l.date >= ${q.from}::date AND l.date <= ${q.to}::date
        )
        SELECT r.id, r.entry_id, to_char(r.date, 'YYYY-MM-DD') AS date, r.debit::text AS debit,
               r.credit::text AS credit, r.run::text AS run, r.property_id, r.unit_id, r.occupancy_id, r.tenant_id,
               e.memo, e.source, e.source_id
          FROM r JOIN journal_entries e ON e.company_id = ${companyId} AND e.id = r.entry_id
         ORDER BY r.date, r.id
         LIMIT ${q.page_size} OFFSET ${offset}`,
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    account,
    from: q.from,
    to: q.to,
    property_id: q.property_id ?? null,
    opening_balance: fromCents(opening),
    total_debit: fromCents(totalDebit),
    total_credit: fromCents(totalCredit),
    closing_balance: fromCents(opening + (totalDebit - totalCredit) * sign),
    page: q.page,
    page_size: q.page_size,
    total: Number(counted[0]?.n ?? 0),
    lines: rows.map((r) => ({
      entry_id: Number(r.entry_id),
      line_id: Number(r.id),
      date: String(r.date),
      memo: String(r.memo),
      source: String(r.source),
      source_id: num(r.source_id),
      debit: String(r.debit),
      credit: String(r.credit),
      balance: fromCents(opening + toCents(String(r.run)) * sign),
      property_id: num(r.property_id),
      unit_id: num(r.unit_id),
      occupancy_id: num(r.occupancy_id),
      tenant_id: num(r.tenant_id),
    })),
  };
};

// ------------------------------------------------------------------------------ balance sheet

export type BalanceSheetLine = {
  id: number | null;
  code: string | null;
  name: string;
  /** a default account's role; null for an account of the company's own and for the computed lines */
  role: string | null;
  balance: string;
};
export type BalanceSheet = {
  as_of: string;
  property_id: number | null;
  /** the first day of the financial year (the calendar year) of `as_of` */
  year_start: string;
  assets: BalanceSheetLine[];
  total_assets: string;
  liabilities: BalanceSheetLine[];
  total_liabilities: string;
  equity: BalanceSheetLine[];
  /** income − expenses of earlier years (in retained earnings) */
  retained_result: string;
  /** income − expenses from the year's start through `as_of` */
  year_result: string;
  total_equity: string;
  total_liabilities_and_equity: string;
};

export const EARLIER_YEARS = "Earlier years' result";
export const YEAR_RESULT = "The year's result";

/**
 * Assets = liabilities + equity on `asOf`: the asset, liability and equity accounts' balances, and as
 * computed equity lines the result of earlier years (into retained earnings) and the year's result.
 */
export const balanceSheet = async (
  db: DbOrTx,
  companyId: number,
  asOf: string,
  propertyId?: number,
): Promise<BalanceSheet> => {
  const yearStart = `${asOf.slice(0, 4)}-01-01`;
  const nets = await accountNets(db, companyId, asOf, propertyId, yearStart);
  const section = (type: AccountType) =>
    nets
      .filter((a) => a.type === type && a.net !== 0n)
      .map((a) => ({
        id: a.id,
        code: a.code,
        name: a.name,
        role: a.role,
        cents: debitNormal(type) ? a.net : -a.net,
      }));
  const sum = (lines: { cents: bigint }[]) => lines.reduce((s, l) => s + l.cents, 0n);
  const assets = section('asset');
  const liabilities = section('liability');
  const equity = section('equity');
  // income − expenses = −(Σ debit − Σ credit) of the income and expense accounts
  const results = nets.filter((a) => a.type === 'income' || a.type === 'expense');
  const earlier = -results.reduce((s, a) => s + a.before, 0n);
  const year = -results.reduce((s, a) => s + (a.net - a.before), 0n);
  const totalEquity = sum(equity) + earlier + year;
  const present = (l: {
    id: number;
    code: string;
    name: string;
    role: string | null;
    cents: bigint;
  }): BalanceSheetLine => ({
    id: l.id,
    code: l.code,
    name: l.name,
    role: l.role,
    balance: fromCents(l.cents),
  });
  return {
    as_of: asOf,
    property_id: propertyId ?? null,
    year_start: yearStart,
    assets: assets.map(present),
    total_assets: fromCents(sum(assets)),
    liabilities: liabilities.map(present),
    total_liabilities: fromCents(sum(liabilities)),
    equity: [
      ...equity.map(present),
      { id: null, code: null, name: EARLIER_YEARS, role: null, balance: fromCents(earlier) },
      { id: null, code: null, name: YEAR_RESULT, role: null, balance: fromCents(year) },
    ],
    retained_result: fromCents(earlier),
    year_result: fromCents(year),
    total_equity: fromCents(totalEquity),
    total_liabilities_and_equity: fromCents(sum(liabilities) + totalEquity),
  };
};
