import { sql, type SQL } from 'drizzle-orm';
import { leaseDebits, netOn, type LeaseTerms, type LedgerExtras, type LedgerPayment } from '@kodi/domain';
import { execRows, type Database } from '../../db/client.ts';
import { loadLeaseBooks } from '../../modules/leases/lease-book.ts';
import { fromCents, toCents } from '../../modules/books/post.ts';

type Range = { from: string; to: string };

const monthEnd = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** What the month's payments paid of late fees and of other charges, in cents. */
export type PaidSplit = { late_fees: bigint; other: bigint };

/**
 * What each completed payment of one lease paid, oldest debit first as the ledger allocates
 * (@kodi/domain ledger.ts: by date; on one day rent, then late fees, then charges), against the
 * lease's debits charged on the payment's day. What pays no fee nor charge is rent (money that pays
 * nothing yet included), so the three add up to the payment.
 */
export const splitPayments = (
  terms: LeaseTerms,
  payments: readonly LedgerPayment[],
  extras: LedgerExtras,
  range: Range,
  into: Map<string, PaidSplit>,
): void => {
  const ordered = [...payments].sort(
    (a, b) =>
      (a.payment_date < b.payment_date ? -1 : a.payment_date > b.payment_date ? 1 : 0) ||
      (a.id ?? 0) - (b.id ?? 0),
  );
  let before = 0n;
  for (const p of ordered) {
    const amount = toCents(p.amount_paid);
    const day = p.payment_date;
    const month = day.slice(0, 7);
    if (month >= range.from && month <= range.to) {
      // credits before this payment: earlier payments, the deposit applied and an opening credit by its day
      let c0 = before;
      const s = extras.settlement;
      if (s && s.date <= day) c0 += toCents(s.applied_amount);
      const ob = terms.opening_balance ? toCents(String(terms.opening_balance)) : 0n;
      if (ob < 0n && terms.opening_balance_date && terms.opening_balance_date <= day) c0 -= ob;
      const c1 = c0 + amount;
      let start = 0n;
      const paid: PaidSplit = { late_fees: 0n, other: 0n };
      for (const d of leaseDebits(terms, extras, day)) {
        const owed = netOn(d, day);
        if (owed <= 0n) continue;
        const end = start + owed;
        const lo = c0 > start ? c0 : start;
        const hi = c1 < end ? c1 : end;
        if (hi > lo) {
          if (d.kind === 'late_fee') paid.late_fees += hi - lo;
          else if (d.kind === 'charge') paid.other += hi - lo;
        }
        start = end;
        if (start >= c1) break;
      }
      const m = into.get(month) ?? { late_fees: 0n, other: 0n };
      m.late_fees += paid.late_fees;
      m.other += paid.other;
      into.set(month, m);
    }
    before += amount;
  }
};

/**
 * The cash basis' split of each month's completed payments: what they paid of late fees and other
 * charges. Only leases with charges beyond rent and payments in the range are read (a page of 500
 * at a time): every other payment pays rent (or nothing yet) and is rental income.
 */
export const cashSplit = async (
  database: Database,
  companyId: number,
  range: Range,
  propertyId?: number,
): Promise<Map<string, PaidSplit>> => {
  const through = monthEnd(range.to);
  const start = `${range.from}-01`;
  // built from checked values only: ids are integers, days YYYY-MM-DD
  const where = `EXISTS (SELECT 1 FROM charges ch WHERE ch.company_id = o.company_id AND ch.occupancy_id = o.id
                           AND ch.date <= '${through}'::date)
    AND EXISTS (SELECT 1 FROM payments p WHERE p.company_id = o.company_id AND p.occupancy_id = o.id
                  AND p.status = 'completed' AND p.payment_date >= '${start}'::date AND p.payment_date <= '${through}'::date)
    ${propertyId === undefined ? '' : `AND o.property_id = ${Number(propertyId)}`}
    AND NOT EXISTS (SELECT 1 FROM property_owner_sets s JOIN property_owner_shares h
                      ON h.company_id = s.company_id AND h.set_id = s.id
                     WHERE s.company_id = o.company_id AND s.property_id = o.property_id)`;
  const into = new Map<string, PaidSplit>();
  let after = 0;
  for (;;) {
    const page = await loadLeaseBooks(database, companyId, {
      after,
      limit: 500,
      startedBy: through,
      through,
      where,
    });
    if (page.length === 0) break;
    for (const b of page) splitPayments(b.lease, b.payments, b.extras, range, into);
    after = page[page.length - 1]?.lease.id ?? after;
    if (page.length < 500) break;
  }
  return into;
};

/**
 * The accrual basis: each month's credit − debit of the journal's income accounts (the kept day
 * totals, or one property's kept month totals).
 */
export type AccrualIncome = {
  rental_income: bigint;
  late_fees: bigint;
  other_income: bigint;
  /** Management fee income (issue 27), counted in other_income too */
  management_fees: bigint;
};

export const accrualIncome = async (
  database: Database,
  companyId: number,
  range: Range,
  propertyId?: number,
): Promise<Map<string, AccrualIncome>> => {
  const from = `${range.from}-01`;
  const to = monthEnd(range.to);
  const moves: SQL =
    propertyId === undefined
      ? sql`SELECT account_id, day, debit, credit FROM account_day_totals
             WHERE company_id = ${companyId} AND day >= ${from}::date AND day <= ${to}::date`
      : sql`SELECT account_id, month AS day, debit, credit FROM account_month_totals
             WHERE company_id = ${companyId} AND property_id = ${propertyId} AND month >= ${from}::date AND month <= ${to}::date`;
  const rows = await execRows<{ month: string; role: string | null; amount: string }>(
    database.db,
    sql`WITH m AS (${moves})
        SELECT to_char(m.day, 'YYYY-MM') AS month, a.role, sum(m.credit - m.debit)::text AS amount
          FROM m JOIN ledger_accounts a ON a.company_id = ${companyId} AND a.id = m.account_id
         WHERE a.type = 'income'
         GROUP BY 1, 2`,
  );
  const out = new Map<string, AccrualIncome>();
  for (const r of rows) {
    const m = out.get(r.month) ?? { rental_income: 0n, late_fees: 0n, other_income: 0n, management_fees: 0n };
    const cents = toCents(String(r.amount));
    if (r.role === 'management_fee_income') m.management_fees += cents;
    if (r.role === 'rental_income') m.rental_income += cents;
    else if (r.role === 'late_fee_income') m.late_fees += cents;
    else m.other_income += cents;
    out.set(r.month, m);
  }
  return out;
};

/** The journal's money accounts (cash, mobile money, bank, card clearing). */
export const MONEY_ROLES = ['cash', 'mobile_money', 'bank', 'card_clearing'] as const;

export type JournalCash = {
  opening: bigint;
  months: Map<string, { inflows: Map<string, bigint>; outflows: Map<string, bigint> }>;
};

/**
 * The money accounts' movements by month and by the entries' source: debits are inflows, credits
 * outflows; the opening balance is their balance before the range. Read from the kept month totals
 * (`account_month_totals`, by account, month, property and source), not the journal's lines.
 */
export const journalCash = async (
  database: Database,
  companyId: number,
  range: Range,
  propertyId?: number,
): Promise<JournalCash> => {
  const from = `${range.from}-01`;
  const to = monthEnd(range.to);
  const roles = `{${MONEY_ROLES.join(',')}}`;
  const money = sql`SELECT id FROM ledger_accounts WHERE company_id = ${companyId} AND role = ANY(${roles}::text[])`;
  const property = propertyId === undefined ? sql`` : sql`AND t.property_id = ${propertyId}`;
  const opening = await execRows<{ opening: string }>(
    database.db,
    propertyId === undefined
      ? sql`SELECT coalesce(sum(debit - credit), 0)::text AS opening FROM account_day_totals
             WHERE company_id = ${companyId} AND account_id IN (${money}) AND day < ${from}::date`
      : sql`SELECT coalesce(sum(debit - credit), 0)::text AS opening FROM account_month_totals t
             WHERE t.company_id = ${companyId} AND t.account_id IN (${money}) ${property} AND t.month < ${from}::date`,
  );
  const rows = await execRows<{ month: string; source: string; debit: string; credit: string }>(
    database.db,
    sql`SELECT to_char(t.month, 'YYYY-MM') AS month, t.source, sum(t.debit)::text AS debit, sum(t.credit)::text AS credit
          FROM account_month_totals t
         WHERE t.company_id = ${companyId} AND t.account_id IN (${money}) ${property}
           AND t.month >= ${from}::date AND t.month <= ${to}::date
         GROUP BY 1, 2`,
  );
  const months: JournalCash['months'] = new Map();
  for (const r of rows) {
    const m = months.get(r.month) ?? { inflows: new Map(), outflows: new Map() };
    const d = toCents(String(r.debit));
    const c = toCents(String(r.credit));
    if (d !== 0n) m.inflows.set(r.source, (m.inflows.get(r.source) ?? 0n) + d);
    if (c !== 0n) m.outflows.set(r.source, (m.outflows.get(r.source) ?? 0n) + c);
    months.set(r.month, m);
  }
  return { opening: toCents(String(opening[0]?.opening ?? '0')), months };
};

export const centsNumber = (c: bigint): number => Number(fromCents(c));

/** Of each month: what is the owners' money, not the company's (issue 27's agency books). */
export type OwnersPart = {
  /** completed payments on properties with owners on the payment's day */
  collections: bigint;
  /** expenses of properties with owners on the expense's day, by category */
  expenses: Map<string, bigint>;
};

/**
 * The spans during which each property has owners (a set with shares, until the next set), as a
 * CTE: a company without owners has none, and every read below is then an empty join.
 */
const ownedSpans = (companyId: number, propertyId?: number): SQL => sql`
  SELECT s.property_id, s.effective_from AS since,
         lead(s.effective_from) OVER (PARTITION BY s.property_id ORDER BY s.effective_from) AS until,
         EXISTS (SELECT 1 FROM property_owner_shares h WHERE h.company_id = s.company_id AND h.set_id = s.id) AS owned
    FROM property_owner_sets s
   WHERE s.company_id = ${companyId} ${propertyId === undefined ? sql`` : sql`AND s.property_id = ${propertyId}`}`;

/**
 * The owners' part of each month of the range: the completed payments and the expenses of properties
 * that had owners on the record's day (by `payments_property_status_idx` per owned property, and the
 * expenses of their units): what monthly_totals counts and the books post to Owner funds held.
 */
export const ownersPart = async (
  database: Database,
  companyId: number,
  range: Range,
  propertyId?: number,
): Promise<Map<string, OwnersPart>> => {
  const from = `${range.from}-01`;
  const to = monthEnd(range.to);
  const rows = await execRows<{ month: string; kind: string; key: string; amount: string }>(
    database.db,
    sql`WITH spans AS MATERIALIZED (SELECT * FROM (${ownedSpans(companyId, propertyId)}) x WHERE owned)
        SELECT to_char(p.payment_date, 'YYYY-MM') AS month, 'payment' AS kind, '' AS key,
               sum(p.amount_paid)::text AS amount
          FROM spans o
          JOIN payments p ON p.company_id = ${companyId} AND p.property_id = o.property_id AND p.status = 'completed'
           AND p.payment_date >= greatest(o.since, ${from}::date) AND p.payment_date <= ${to}::date
           AND (o.until IS NULL OR p.payment_date < o.until)
         GROUP BY 1
        UNION ALL
        SELECT to_char(e.expense_date, 'YYYY-MM'), 'expense', e.category, sum(e.amount)::text
          FROM spans o
          JOIN units u ON u.company_id = ${companyId} AND u.property_id = o.property_id
          JOIN expenses e ON e.company_id = ${companyId} AND e.unit_id = u.id
           AND e.expense_date >= greatest(o.since, ${from}::date) AND e.expense_date <= ${to}::date
           AND (o.until IS NULL OR e.expense_date < o.until)
         GROUP BY 1, 2, 3`,
  );
  const out = new Map<string, OwnersPart>();
  for (const r of rows) {
    const m = out.get(r.month) ?? { collections: 0n, expenses: new Map<string, bigint>() };
    const cents = toCents(String(r.amount));
    if (r.kind === 'payment') m.collections += cents;
    else m.expenses.set(r.key, (m.expenses.get(r.key) ?? 0n) + cents);
    out.set(r.month, m);
  }
  return out;
};

/**
 * Each month's Management fee income (credit − debit): the kept day totals of the account, or of one
 * property its kept month totals.
 */
export const managementFees = async (
  database: Database,
  companyId: number,
  range: Range,
  propertyId?: number,
): Promise<Map<string, bigint>> => {
  const from = `${range.from}-01`;
  const to = monthEnd(range.to);
  const account = sql`SELECT id FROM ledger_accounts WHERE company_id = ${companyId} AND role = 'management_fee_income'`;
  const rows = await execRows<{ month: string; amount: string }>(
    database.db,
    propertyId === undefined
      ? sql`SELECT to_char(day, 'YYYY-MM') AS month, sum(credit - debit)::text AS amount FROM account_day_totals
             WHERE company_id = ${companyId} AND account_id IN (${account}) AND day >= ${from}::date AND day <= ${to}::date
             GROUP BY 1`
      : sql`SELECT to_char(month, 'YYYY-MM') AS month, sum(credit - debit)::text AS amount FROM account_month_totals
             WHERE company_id = ${companyId} AND account_id IN (${account}) AND property_id = ${propertyId}
               AND month >= ${from}::date AND month <= ${to}::date
             GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.month, toCents(String(r.amount))]));
};
