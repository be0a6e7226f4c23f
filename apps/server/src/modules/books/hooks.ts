import { sql } from 'drizzle-orm';
import { AppError } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import {
  books,
  companyDay,
  methodRole,
  toCents,
  fromCents,
  type PostEntry,
  type PostLine,
  type JournalSource,
} from './post.ts';
import { collectionLines, ownedContext, ownerFundLines, type OwnedContext } from './owned.ts';
import { postLeaseRent } from './rent.ts';

/**
 * What the records' writes post (BOOKS.md "What each money event posts"): the `posted` hooks of
 * payments, expenses, commission wages and leases (their features' server parts attach them), and
 * the paying account an expense must name. Records are as the API answers them (money as numbers).
 */

type Row = Record<string, unknown>;
type PostedChange = { before?: Row; after?: Row };
type Actor = { company_id: number; id: number | null };

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const amount = (v: unknown): string => fromCents(toCents(typeof v === 'string' ? v : Number(v ?? 0)));
const day = (v: unknown): string => String(v).slice(0, 10);
const same = (a: Row | undefined, b: Row | undefined, fields: readonly string[]) =>
  !!a && !!b && fields.every((f) => String(a[f] ?? '') === String(b[f] ?? ''));

/** An entry posted with a record's own, of its own source (a payment's management fee, its rental tax). */
type Also = { source: JournalSource; memo: string; lines: PostLine[] };

/**
 * The shared shape of the four hooks: which records post (`posts`), the entry of one, and when a
 * change reverses what was posted (a record that no longer posts, or posts other figures).
 */
const hook =
  (spec: {
    source: JournalSource;
    voidSource: JournalSource;
    keyPrefix: string;
    posts: (r: Row) => boolean;
    figures: readonly string[];
    entry: (
      r: Row,
      today: () => Promise<string>,
      created: boolean,
      owned: () => Promise<OwnedContext>,
    ) => Promise<Omit<PostEntry, 'key' | 'source'> & { also?: Also[] }>;
    voidMemo: (r: Row) => string;
    /** the sources of the entries posted with the record's own (`also`), reversed with it */
    alsoSources?: readonly JournalSource[];
  }) =>
  async (tx: DbOrTx, user: Actor, changes: readonly PostedChange[]): Promise<void> => {
    const companyId = user.company_id;
    let todayValue: string | undefined;
    const today = async () => (todayValue ??= await companyDay(tx, companyId));
    // the records' properties, shares and agreements, read once for all of them when an entry needs them
    let ownedValue: Promise<OwnedContext> | undefined;
    const owned = () =>
      (ownedValue ??= ownedContext(
        tx,
        companyId,
        changes.flatMap(({ after }) => (after ? [after] : [])),
      ));
    const entries: PostEntry[] = [];
    for (const { before, after } of changes) {
      const was = !!before && spec.posts(before);
      const is = !!after && spec.posts(after);
      const unchanged = was && is && same(before, after, spec.figures);
      if (unchanged || (!was && !is)) continue;
      if (was && before) {
        for (const source of [spec.source, ...(spec.alsoSources ?? [])])
          await books.reverse(
            tx,
            companyId,
            { source, source_id: Number(before.id) },
            {
              date: await today(),
              memo: spec.voidMemo(before),
              source: is ? 'reversal' : spec.voidSource,
              user_id: user.id,
            },
          );
      }
      if (is && after) {
        const { also, ...e } = await spec.entry(after, today, !before, owned);
        const key = before
          ? `${spec.keyPrefix}:${String(after.id)}:v${String(after.version)}`
          : `${spec.keyPrefix}:${String(after.id)}`;
        entries.push({ ...e, source: spec.source, source_id: Number(after.id), user_id: user.id, key });
        for (const a of also ?? [])
          entries.push({
            date: e.date,
            memo: a.memo,
            lines: a.lines,
            source: a.source,
            source_id: Number(after.id),
            user_id: user.id,
            key: `${a.source}:${key}`,
          });
      }
    }
    if (entries.length > 0) await books.post(tx, companyId, entries);
  };

const leaseDims = (r: Row) => ({
  property_id: num(r.property_id),
  unit_id: num(r.unit_id),
  occupancy_id: num(r.occupancy_id),
  tenant_id: num(r.tenant_id),
});

/** A completed payment: Dr its method's account, Cr Accounts receivable; completed → anything else: its reversal. */
export const paymentPosted = hook({
  source: 'payment',
  voidSource: 'payment_void',
  keyPrefix: 'payment',
  posts: (r) => r.status === 'completed',
  figures: ['amount_paid', 'payment_method', 'payment_date', 'occupancy_id', 'tenant_id', 'unit_id'],
  alsoSources: ['management_fee', 'rental_tax'],
  entry: async (r, _today, _created, ownedOf) => {
    const date = day(r.payment_date);
    const serial = String(r.payment_serial ?? '');
    // an owned property's collection: to the owners' funds, less the fee and the tax (owned.ts)
    const o = await ownedOf();
    const propertyId = o.propertyOf(num(r.unit_id));
    const shares = o.shares(propertyId, date);
    const agreement = o.agreement(propertyId);
    const dims = { ...leaseDims(r), property_id: propertyId };
    const owned = collectionLines(toCents(amount(r.amount_paid)), shares, agreement, dims);
    return {
      date,
      memo: `Payment ${serial}${r.receipt_number ? ` (receipt ${String(r.receipt_number)})` : ''}`,
      lines: [
        { role: methodRole(r.payment_method as string | null), debit: amount(r.amount_paid), ...dims },
        { role: 'receivable', credit: amount(r.amount_paid), ...dims },
        ...owned.collected,
      ],
      also: [
        { source: 'management_fee' as const, memo: `Management fee on payment ${serial}`, lines: owned.fee },
        { source: 'rental_tax' as const, memo: `Rental tax withheld on payment ${serial}`, lines: owned.tax },
      ].filter((a) => a.lines.length > 0),
    };
  },
  voidMemo: (r) => `Payment ${String(r.payment_serial ?? '')} voided`,
});

/** An expense: Dr its category's account, Cr the account it was paid from. */
export const expensePosted = hook({
  source: 'expense',
  voidSource: 'reversal',
  keyPrefix: 'expense',
  posts: () => true,
  figures: ['amount', 'category', 'paid_from_account_id', 'expense_date', 'unit_id'],
  entry: async (r, _today, _created, ownedOf) => {
    const o = await ownedOf();
    const unitId = num(r.unit_id);
    const propertyId = o.propertyOf(unitId, num(r.property_id));
    const dims = { property_id: propertyId, unit_id: unitId };
    const date = day(r.expense_date);
    const memo = `Expense: ${String(r.category)}${r.description ? ` – ${String(r.description).slice(0, 200)}` : ''}`;
    // an owned property's expense is paid from its owners' funds (by their shares on its date)
    const shares = o.shares(propertyId, date);
    if (shares.length > 0)
      return {
        date,
        memo,
        lines: ownerFundLines(
          toCents(amount(r.amount)),
          shares,
          'debit',
          { account_id: Number(r.paid_from_account_id) },
          dims,
        ),
      };
    return {
      date,
      memo,
      lines: [
        { role: `expense:${String(r.category)}`, debit: amount(r.amount), ...dims },
        { account_id: Number(r.paid_from_account_id), credit: amount(r.amount), ...dims },
      ],
    };
  },
  voidMemo: () => 'Expense changed or deleted',
});

/** A paid wage: Dr Wages, Cr its method's account; paid → anything else: its reversal ('wage_void'). */
export const wagePosted = hook({
  source: 'wage',
  voidSource: 'wage_void',
  keyPrefix: 'wage',
  posts: (r) => r.status === 'paid',
  figures: ['amount', 'payment_method', 'payment_date'],
  entry: async (r) => ({
    date: day(r.payment_date),
    memo: `Wage: ${String(r.description ?? '').slice(0, 200)}`,
    lines: [
      { role: 'wages', debit: amount(r.amount) },
      { role: methodRole(r.payment_method as string | null), credit: amount(r.amount) },
    ],
  }),
  voidMemo: () => 'Wage voided',
});

/** A lease's deposit recorded as held: Dr Cash on hand, Cr Security deposits held. */
export const depositPosted = hook({
  source: 'deposit',
  voidSource: 'reversal',
  keyPrefix: 'deposit',
  posts: (r) => r.deposit_status === 'held' && toCents(Number(r.deposit_amount ?? 0)) > 0n,
  figures: ['deposit_amount'],
  entry: async (r, today, created) => {
    const dims = {
      property_id: num(r.property_id),
      unit_id: num(r.unit_id),
      occupancy_id: num(r.id),
      tenant_id: num(r.tenant_id),
    };
    return {
      date: created ? day(r.start_date) : await today(),
      memo: `Deposit held`,
      lines: [
        { role: 'cash', debit: amount(r.deposit_amount), ...dims },
        { role: 'deposits_held', credit: amount(r.deposit_amount), ...dims },
      ],
    };
  },
  voidMemo: () => 'Deposit changed or lease deleted',
});

/** What of a lease its rent follows: a change of one of these posts and adjusts its rent. */
const RENT_TERMS = [
  'start_date',
  'end_date',
  'rate',
  'rent_cycle',
  'opening_balance',
  'opening_balance_date',
];

/**
 * A lease's writes: its deposit (above), and its rent and opening balance (modules/books/rent.ts):
 * a lease created, or changed in its terms, or deleted, posts through today what is due and adjusts
 * what was posted, in the same transaction.
 */
export const leasePosted = async (
  tx: DbOrTx,
  user: Actor,
  changes: readonly PostedChange[],
): Promise<void> => {
  await depositPosted(tx, user, changes);
  const ids = changes
    .filter(({ before, after }) => !before || !after || !same(before, after, RENT_TERMS))
    .map(({ before, after }) => Number((after ?? before)?.id))
    .filter((id) => Number.isInteger(id));
  if (ids.length === 0) return;
  await postLeaseRent(tx, user.company_id, ids, await companyDay(tx, user.company_id), { userId: user.id });
};

const PAID_FROM = 'The account paid from must be an active asset account.';

/**
 * The account each expense is paid from: the one named, checked (an active asset account of the
 * company), else the company's Cash on hand. One read for all of them.
 */
export const withPaidFrom = async (
  tx: DbOrTx,
  companyId: number,
  values: readonly Row[],
): Promise<(Row | AppError)[]> => {
  const accounts = await execRows<{ id: number; type: string; is_active: boolean; role: string | null }>(
    tx,
    sql`SELECT id, type, is_active, role FROM ledger_accounts WHERE company_id = ${companyId} AND type = 'asset'`,
  );
  const cash = accounts.find((a) => a.role === 'cash');
  return values.map((v) => {
    const wanted = num(v.paid_from_account_id);
    if (wanted === null) {
      if (!cash) return new AppError('validation_failed', PAID_FROM, { paid_from_account_id: PAID_FROM });
      return { ...v, paid_from_account_id: Number(cash.id) };
    }
    const a = accounts.find((x) => Number(x.id) === wanted);
    if (!a || !a.is_active)
      return new AppError('validation_failed', PAID_FROM, { paid_from_account_id: PAID_FROM });
    return { ...v, paid_from_account_id: wanted };
  });
};
