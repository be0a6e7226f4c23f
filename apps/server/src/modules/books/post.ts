import { sql } from 'drizzle-orm';
import { AppError, formatDate, localTime, defaultCompanySettings } from '@kodi/domain';
import { execRows, jsonColumn, type DbOrTx } from '../../db/client.ts';

/**
 * The books (issue 25, docs/decisions.md "Books core"): this file is the one code that writes
 * `journal_entries`, `journal_lines`, `account_day_totals`, `account_month_totals` and `lease_balances`
 * (writers.test.ts).
 * Every money event posts here, in the transaction of the event; entries never change (the
 * database refuses UPDATE and DELETE, and checks at commit that each entry balances).
 */

export type JournalSource =
  | 'rent'
  | 'rent_adjustment'
  | 'late_fee'
  | 'charge'
  | 'waiver'
  | 'payment'
  | 'payment_void'
  | 'deposit'
  | 'deposit_applied'
  | 'deposit_refund'
  | 'expense'
  | 'wage'
  | 'wage_void'
  | 'opening_balance'
  | 'manual'
  | 'reversal'
  | 'management_fee'
  | 'monthly_fee'
  | 'rental_tax'
  | 'owner_payout';

export const journalSources: readonly JournalSource[] = [
  'rent',
  'rent_adjustment',
  'late_fee',
  'charge',
  'waiver',
  'payment',
  'payment_void',
  'deposit',
  'deposit_applied',
  'deposit_refund',
  'expense',
  'wage',
  'wage_void',
  'opening_balance',
  'manual',
  'reversal',
  'management_fee',
  'monthly_fee',
  'rental_tax',
  'owner_payout',
];

/** A line: an account by its role (the default chart's purpose) or its id; a debit or a credit. */
export type PostLine = {
  role?: string;
  account_id?: number;
  /** exact decimal text ('1500.00'); a negative amount is posted on the other side */
  debit?: string;
  credit?: string;
  property_id?: number | null;
  unit_id?: number | null;
  occupancy_id?: number | null;
  tenant_id?: number | null;
  /** the owner whose funds an Owner funds held line moves (issue 27) */
  owner_id?: number | null;
  /**
   * A line of a lease's Accounts receivable that is (or takes off) a debit the tenant owes: the day
   * it ages from (rent: its due date; a charge: its date; a waiver: its charge's date). Receivable
   * lines without it (payments, their voids, a deposit applied, a credit) pay or unpay the oldest
   * debits first. A manual entry's receivable debit ages from the entry's date.
   */
  due_date?: string | null;
};

export type PostEntry = {
  date: string;
  memo: string;
  source: JournalSource;
  source_id?: number | null;
  user_id?: number | null;
  /** idempotency: an entry whose key the company has posted already is skipped */
  key?: string;
  reverses_id?: number;
  lines: PostLine[];
};

/** How a payment's method posts: the role of its money account. */
export const methodRole = (method: string | null | undefined): string => {
  switch (method) {
    case 'mobilemoney':
      return 'mobile_money';
    case 'banktransfer':
    case 'check':
      return 'bank';
    case 'creditcard':
      return 'card_clearing';
    default:
      return 'cash';
  }
};

const AMOUNT = /^-?\d{1,15}(\.\d{1,2})?$/;

/** Exact decimal text to cents. */
export const toCents = (v: string | number | null | undefined): bigint => {
  if (v === null || v === undefined || v === '') return 0n;
  const s = typeof v === 'number' ? v.toFixed(2) : v.trim();
  if (!AMOUNT.test(s)) throw new Error(`books: not an amount: ${s}`);
  const negative = s.startsWith('-');
  const [whole = '0', frac = ''] = s.replace('-', '').split('.');
  const cents = BigInt(whole) * 100n + BigInt((frac + '00').slice(0, 2));
  return negative ? -cents : cents;
};

/** Cents to exact decimal text ('1500.00'). */
export const fromCents = (c: bigint): string => {
  const negative = c < 0n;
  const a = negative ? -c : c;
  return `${negative ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const nextDay = (day: string): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

type Account = { id: number; role: string | null; type: string; is_active: boolean };

/**
 * What a posting reads before it writes, in one round trip: the day the books are closed through
 * (or null), the company's accounts that have a role (by role), and `count` new entry ids.
 */
const postingContext = async (
  tx: DbOrTx,
  companyId: number,
  count: number,
): Promise<{ closed: string | null; roles: Map<string, Account>; ids: number[] }> => {
  const [row] = await execRows<{
    closed: string | null;
    accounts: Account[] | string;
    ids: number[] | string;
  }>(
    tx,
    sql`SELECT (SELECT to_char(through, 'YYYY-MM-DD') FROM books_closings
                 WHERE company_id = ${companyId} ORDER BY id DESC LIMIT 1) AS closed,
               (SELECT coalesce(json_agg(json_build_object('id', id, 'role', role, 'type', type, 'is_active', is_active)), '[]')
                  FROM ledger_accounts WHERE company_id = ${companyId} AND role IS NOT NULL) AS accounts,
               (SELECT json_agg(nextval(pg_get_serial_sequence('journal_entries', 'id')))
                  FROM generate_series(1, ${count})) AS ids`,
  );
  const accounts = jsonColumn<Account[]>(row?.accounts, []);
  return {
    closed: row?.closed ?? null,
    roles: new Map(accounts.map((r) => [String(r.role), { ...r, id: Number(r.id) }])),
    ids: jsonColumn<number[]>(row?.ids, []).map(Number),
  };
};

/** The day the company's books are closed through (YYYY-MM-DD), or null. */
const closedThrough = async (tx: DbOrTx, companyId: number): Promise<string | null> => {
  const rows = await execRows<{ through: string }>(
    tx,
    sql`SELECT to_char(through, 'YYYY-MM-DD') AS through FROM books_closings
         WHERE company_id = ${companyId} ORDER BY id DESC LIMIT 1`,
  );
  return rows[0]?.through ?? null;
};

/** The refusal of a posting on or before the close. */
export const periodClosed = (through: string): AppError =>
  new AppError('period_closed', `The books are closed through ${formatDate(through)}.`);

/** Today in the company's time zone, read in the caller's transaction. */
export const companyDay = async (tx: DbOrTx, companyId: number, now = new Date()): Promise<string> => {
  const rows = await execRows<{ timezone: string }>(
    tx,
    sql`SELECT timezone FROM company_settings WHERE company_id = ${companyId}`,
  );
  return localTime(rows[0]?.timezone ?? defaultCompanySettings.timezone, now).date;
};

type Line = {
  n: number;
  account_id: number;
  debit: string;
  credit: string;
  property_id: number | null;
  unit_id: number | null;
  occupancy_id: number | null;
  tenant_id: number | null;
  owner_id: number | null;
};

/**
 * The kept ageing of these leases (docs/decisions.md, "Kept ageing"), after `post` has added the
 * posted debits to their days: each lease's receivable allocated to its newest debit days (what
 * payments have not paid, since they pay the oldest first), and its oldest unpaid day. Reads only these leases'
 * rows: a lease has a row per day something fell due.
 */
const keepAgeing = async (tx: DbOrTx, companyId: number, leaseIds: readonly number[]): Promise<void> => {
  if (leaseIds.length === 0) return;
  const ids = `{${[...leaseIds].sort((a, b) => a - b).join(',')}}`;
  await tx.execute(
    sql`WITH a AS MATERIALIZED (
          SELECT d.occupancy_id, d.day, d.open,
                 LEAST(GREATEST(d.amount, 0), GREATEST(0, b.receivable - COALESCE(sum(GREATEST(d.amount, 0)) OVER (
                   PARTITION BY d.occupancy_id ORDER BY d.day DESC
                   ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) AS now
            FROM lease_debit_days d
            JOIN lease_balances b ON b.company_id = d.company_id AND b.occupancy_id = d.occupancy_id
           WHERE d.company_id = ${companyId} AND d.occupancy_id = ANY(${ids}::int[])
        ), changed AS (
          UPDATE lease_debit_days d SET open = a.now, updated_at = now(), version = d.version + 1
            FROM a
           WHERE d.company_id = ${companyId} AND d.occupancy_id = a.occupancy_id AND d.day = a.day AND d.open <> a.now
          RETURNING 1
        ), oldest AS (
          SELECT x.id, g.day
            FROM unnest(${ids}::int[]) AS x (id)
            LEFT JOIN (SELECT occupancy_id, min(day) FILTER (WHERE now > 0) AS day FROM a GROUP BY occupancy_id) g
              ON g.occupancy_id = x.id
        )
        UPDATE lease_balances b SET oldest_due = o.day, updated_at = now(), version = b.version + 1
          FROM oldest o
         WHERE b.company_id = ${companyId} AND b.occupancy_id = o.id AND b.oldest_due IS DISTINCT FROM o.day`,
  );
};

/**
 * Transactions whose ageing is allocated once at the end (`deferAgeing`, then `flushAgeing`): a bulk
 * posting (the upgrade's history) posts thousands of entries of the same leases in many calls; the
 * debit days are still added at each call, the allocation runs once for every lease touched.
 */
const deferred = new WeakMap<object, Set<number>>();

const deferAgeing = (tx: DbOrTx): void => {
  if (!deferred.has(tx)) deferred.set(tx, new Set());
};

const flushAgeing = async (tx: DbOrTx, companyId: number): Promise<void> => {
  const leases = deferred.get(tx);
  deferred.delete(tx);
  if (leases && leases.size > 0) await keepAgeing(tx, companyId, [...leases]);
};

const post = async (
  tx: DbOrTx,
  companyId: number,
  entries: readonly PostEntry[],
  opts: { whenClosed?: 'refuse' | 'next_open_day' } = {},
): Promise<number[]> => {
  // zero lines dropped, negative amounts on the other side; entries of no amount are not posted
  const prepared = entries
    .map((e) => ({
      ...e,
      lines: e.lines.flatMap((l) => {
        const net = toCents(l.debit) - toCents(l.credit);
        if (net === 0n) return [];
        return [{ ...l, debit: net > 0n ? net : 0n, credit: net < 0n ? -net : 0n }];
      }),
    }))
    .filter((e) => e.lines.length > 0);
  if (prepared.length === 0) return [];
  for (const e of prepared) {
    if (!DAY.test(e.date)) throw new Error(`books: not a day: ${e.date}`);
    const d = e.lines.reduce((s, l) => s + l.debit, 0n);
    const c = e.lines.reduce((s, l) => s + l.credit, 0n);
    if (d !== c || e.lines.length < 2)
      throw new Error(`books: the entry '${e.memo}' does not balance (${fromCents(d)} / ${fromCents(c)})`);
  }
  const { closed, roles, ids } = await postingContext(tx, companyId, prepared.length);
  if (closed !== null) {
    for (const e of prepared) {
      if (e.date > closed) continue;
      if (opts.whenClosed === 'next_open_day') e.date = nextDay(closed);
      else throw periodClosed(closed);
    }
  }
  const receivable = roles.get('receivable')?.id;
  const accountOf = (l: Pick<PostLine, 'role' | 'account_id'>): number => {
    if (l.account_id !== undefined) return l.account_id;
    const a = l.role ? roles.get(l.role) : undefined;
    if (!a) throw new AppError('validation_failed', `The company has no account for '${l.role ?? ''}'.`);
    return a.id;
  };

  const entryRows = prepared.map((e, i) => ({
    id: ids[i],
    date: e.date,
    memo: e.memo,
    source: e.source,
    source_id: e.source_id ?? null,
    reverses_id: e.reverses_id ?? null,
    key: e.key ?? null,
    user_id: e.user_id ?? null,
  }));
  const lines: (Line & { entry_id: number; date: string })[] = [];
  // the receivable's debits by the day they age from, per entry (an entry already posted adds none)
  const aged = new Map<string, { entry_id: number; occupancy_id: number; day: string; amount: bigint }>();
  // the leases whose ageing each entry changes
  const touches = new Map<number, Set<number>>();
  prepared.forEach((e, i) => {
    const id = ids[i];
    if (id === undefined) throw new Error('books: an entry has no id');
    for (const l of e.lines) {
      const account = accountOf(l);
      if (account === receivable && l.occupancy_id !== null && l.occupancy_id !== undefined) {
        touches.set(id, (touches.get(id) ?? new Set<number>()).add(l.occupancy_id));
        const net = l.debit - l.credit;
        const day = l.due_date ?? (e.source === 'manual' && net > 0n ? e.date : null);
        if (day) {
          const k = `${id}|${l.occupancy_id}|${day}`;
          const was = aged.get(k);
          aged.set(k, { entry_id: id, occupancy_id: l.occupancy_id, day, amount: (was?.amount ?? 0n) + net });
        }
      }
      lines.push({
        n: lines.length,
        entry_id: id,
        date: e.date,
        account_id: account,
        debit: fromCents(l.debit),
        credit: fromCents(l.credit),
        property_id: l.property_id ?? null,
        unit_id: l.unit_id ?? null,
        occupancy_id: l.occupancy_id ?? null,
        tenant_id: l.tenant_id ?? null,
        owner_id: l.owner_id ?? null,
      });
    }
  });
  const days = [...aged.values()].map((a) => ({ ...a, amount: fromCents(a.amount) }));
  // In one statement: the entries (one whose key the company has posted already is skipped), the
  // lines of those written, the accounts' day and month totals, the leases' receivable and the days
  // their debits age from. Answers the entries written.
  const [written] = await execRows<{ kept: number[] | string }>(
    tx,
    sql`WITH e AS (
          INSERT INTO journal_entries (company_id, id, date, memo, source, source_id, reverses_id, key, user_id)
          SELECT ${companyId}, r.id, r.date, r.memo, r.source, r.source_id, r.reverses_id, r.key, r.user_id
            FROM jsonb_to_recordset(${JSON.stringify(entryRows)}::jsonb)
                 AS r (id int, date date, memo text, source text, source_id int, reverses_id int, key text, user_id int)
           ORDER BY r.id
          ON CONFLICT (company_id, key) WHERE key IS NOT NULL DO NOTHING
          RETURNING id, source
        ), l AS (
          INSERT INTO journal_lines (company_id, entry_id, account_id, debit, credit, date, property_id, unit_id,
                                     occupancy_id, tenant_id, owner_id)
          SELECT ${companyId}, r.entry_id, r.account_id, r.debit, r.credit, r.date,
                 -- a line of a unit without its property carries the unit's (the reports of a property read it)
                 coalesce(r.property_id, (SELECT u.property_id FROM units u
                                           WHERE u.company_id = ${companyId} AND u.id = r.unit_id)),
                 r.unit_id, r.occupancy_id, r.tenant_id, r.owner_id
            FROM jsonb_to_recordset(${JSON.stringify(lines)}::jsonb)
                 AS r (n int, entry_id int, account_id int, debit numeric, credit numeric, date date,
                       property_id int, unit_id int, occupancy_id int, tenant_id int, owner_id int)
           WHERE r.entry_id IN (SELECT id FROM e)
           ORDER BY r.n
          RETURNING entry_id, account_id, date, debit, credit, property_id, occupancy_id
        ), totals AS (
          INSERT INTO account_day_totals AS t (company_id, account_id, day, debit, credit)
          SELECT ${companyId}, account_id, date, sum(debit), sum(credit) FROM l
           GROUP BY account_id, date ORDER BY account_id, date
          ON CONFLICT (company_id, account_id, day)
            DO UPDATE SET debit = t.debit + excluded.debit, credit = t.credit + excluded.credit
          RETURNING 1
        ), months AS (
          INSERT INTO account_month_totals AS t (company_id, account_id, month, source, property_id, debit, credit)
          SELECT ${companyId}, l.account_id, date_trunc('month', l.date)::date, s.source, coalesce(l.property_id, 0),
                 sum(l.debit), sum(l.credit)
            FROM l JOIN e s ON s.id = l.entry_id
           GROUP BY 2, 3, 4, 5 ORDER BY 2, 3, 4, 5
          ON CONFLICT (company_id, account_id, month, source, property_id)
            DO UPDATE SET debit = t.debit + excluded.debit, credit = t.credit + excluded.credit,
                          updated_at = now(), version = t.version + 1
          RETURNING 1
        ), leases AS (
          INSERT INTO lease_balances AS b (company_id, occupancy_id, receivable)
          SELECT ${companyId}, occupancy_id, sum(debit - credit) FROM l
           WHERE account_id = ${receivable ?? -1} AND occupancy_id IS NOT NULL
           GROUP BY occupancy_id ORDER BY occupancy_id
          ON CONFLICT (company_id, occupancy_id) DO UPDATE SET receivable = b.receivable + excluded.receivable
          RETURNING 1
        ), debit_days AS (
          INSERT INTO lease_debit_days AS d (company_id, occupancy_id, day, amount)
          SELECT ${companyId}, r.occupancy_id, r.day, sum(r.amount)
            FROM jsonb_to_recordset(${JSON.stringify(days)}::jsonb)
                 AS r (entry_id int, occupancy_id int, day date, amount numeric)
           WHERE r.entry_id IN (SELECT id FROM e)
           GROUP BY r.occupancy_id, r.day ORDER BY r.occupancy_id, r.day
          ON CONFLICT (company_id, occupancy_id, day)
            DO UPDATE SET amount = d.amount + excluded.amount, updated_at = now(), version = d.version + 1
          RETURNING 1
        )
        SELECT coalesce((SELECT json_agg(id) FROM e), '[]') AS kept,
               (SELECT count(*) FROM totals) + (SELECT count(*) FROM months) + (SELECT count(*) FROM leases)
                 + (SELECT count(*) FROM debit_days) AS n`,
  );
  const keptIds = jsonColumn<number[]>(written?.kept, []).map(Number);
  const kept = new Set(keptIds);
  if (kept.size === 0) return [];
  // the ageing of the leases touched: now, or once at the end of a deferred (bulk) posting
  const leasesTouched = new Set<number>();
  for (const id of kept) for (const lease of touches.get(id) ?? []) leasesTouched.add(lease);
  if (leasesTouched.size > 0) {
    const later = deferred.get(tx);
    if (later) for (const id of leasesTouched) later.add(id);
    else await keepAgeing(tx, companyId, [...leasesTouched]);
  }
  return ids.filter((id) => kept.has(id));
};

/**
 * Reverses every entry of (source, source_id) not reversed yet: the same lines with debits and
 * credits swapped, on `as.date`, source 'reversal' or the one given, keyed by the entry reversed.
 */
const reverse = async (
  tx: DbOrTx,
  companyId: number,
  of: { source: JournalSource; source_id: number },
  as: { date: string; memo: string; source?: JournalSource; user_id?: number | null },
): Promise<number[]> => {
  const rows = await execRows<{
    entry_id: number;
    account_id: number;
    debit: string;
    credit: string;
    property_id: number | null;
    unit_id: number | null;
    occupancy_id: number | null;
    tenant_id: number | null;
    owner_id: number | null;
  }>(
    tx,
    sql`SELECT l.entry_id, l.account_id, l.debit, l.credit, l.property_id, l.unit_id, l.occupancy_id, l.tenant_id,
               l.owner_id
          FROM journal_entries e
          JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
         WHERE e.company_id = ${companyId} AND e.source = ${of.source} AND e.source_id = ${of.source_id}
           AND NOT EXISTS (SELECT 1 FROM journal_entries r WHERE r.company_id = e.company_id AND r.reverses_id = e.id)
         ORDER BY l.entry_id, l.id`,
  );
  const byEntry = new Map<number, PostLine[]>();
  for (const r of rows) {
    const id = Number(r.entry_id);
    byEntry.set(id, [
      ...(byEntry.get(id) ?? []),
      {
        account_id: Number(r.account_id),
        debit: String(r.credit),
        credit: String(r.debit),
        property_id: r.property_id,
        unit_id: r.unit_id,
        occupancy_id: r.occupancy_id,
        tenant_id: r.tenant_id,
        owner_id: r.owner_id,
      },
    ]);
  }
  return post(
    tx,
    companyId,
    [...byEntry].map(([id, lines]) => ({
      date: as.date,
      memo: as.memo,
      source: as.source ?? 'reversal',
      source_id: of.source_id,
      user_id: as.user_id ?? null,
      key: `reverse:${id}`,
      reverses_id: id,
      lines,
    })),
  );
};

/** The posting API: the only writer of the journal (BOOKS.md). */
export const books = { post, reverse, closedThrough, deferAgeing, flushAgeing };
