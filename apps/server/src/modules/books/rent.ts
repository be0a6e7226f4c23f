import { sql } from 'drizzle-orm';
import { formatDate, openingBalance, rentCharges, toCents as centsOf, type LeaseTerms } from '@kodi/domain';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { advisoryLocks } from '../../db/advisory-locks.ts';
import { books, fromCents, type PostEntry } from './post.ts';
import { ownershipOf } from './owned.ts';

/**
 * Rent as it falls due (issue 25, docs/decisions.md "Rent posting"): the one code that posts a
 * lease's rent and opening balance, and writes what it posted (`lease_rent_posted`, per period, and
 * `lease_rent_state`, per lease). For each lease, under its advisory lock, it posts every period due
 * through the day that is not posted yet (Dr Accounts receivable / Cr Rental income, key
 * `rent:{lease}:{due}`), and for the periods posted already whose amount the terms now make
 * different, an adjustment (source 'rent_adjustment') that says why; so that for every period, Σ
 * posted = what the terms charge now. The opening balance likewise (source 'opening_balance').
 * A lease whose terms are those its periods were posted by (`lease_rent_state.terms`) only posts
 * the periods after the day it was posted through: the daily run reads no posted period.
 */

type Dims = {
  property_id: number | null;
  unit_id: number | null;
  occupancy_id: number;
  tenant_id: number | null;
};

type LeaseRow = {
  id: number;
  tenant_id: number | null;
  unit_id: number | null;
  property_id: number | null;
  start_date: string;
  end_date: string | null;
  rate: string;
  rent_cycle: string;
  opening_balance: string | null;
  opening_balance_date: string | null;
  rates: string | null;
  terms: string | null;
  through: string | null;
  opening_date: string | null;
  opening_amount: string | null;
  opening_adjustments: number | null;
};

type State = {
  terms: string;
  through: string;
  opening_date: string | null;
  opening_amount: bigint;
  opening_adjustments: number;
};

type Posted = { amount: bigint; adjustments: number };

/** 1,200,000 (and 1,200,000.50): an amount of cents as the memos say it. */
export const memoAmount = (cents: bigint): string => {
  const negative = cents < 0n;
  const a = negative ? -cents : cents;
  const whole = (a / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = a % 100n;
  return `${negative ? '-' : ''}${whole}${frac === 0n ? '' : `.${frac.toString().padStart(2, '0')}`}`;
};

const termsOf = (r: LeaseRow): LeaseTerms => ({
  start_date: r.start_date,
  end_date: r.end_date,
  rate: r.rate,
  rent_cycle: r.rent_cycle,
  opening_balance: r.opening_balance,
  opening_balance_date: r.opening_balance_date,
  rate_changes: r.rates
    ? (JSON.parse(r.rates) as { effective_date: string; rate: string }[]).map((c) => ({
        effective_date: c.effective_date,
        rate: String(c.rate),
      }))
    : [],
});

/** What the posted periods of a lease depend on (the opening balance's amount is posted apart). */
const termsKey = (t: LeaseTerms): string =>
  JSON.stringify([
    t.start_date,
    t.end_date ?? null,
    fromCents(centsOf(t.rate)),
    t.rent_cycle,
    t.opening_balance_date ?? null,
    [...(t.rate_changes ?? [])]
      .map((c) => [c.effective_date, fromCents(centsOf(c.rate))])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  ]);

/** Why a period posted at `was` is charged `now` (the adjustment's memo). */
const why = (t: LeaseTerms | null, due: string, was: bigint, now: bigint): string => {
  if (!t) return `Lease deleted: rent due ${formatDate(due)} taken off`;
  if (was !== 0n && now !== 0n) return `Rate changed from ${memoAmount(was)} to ${memoAmount(now)}`;
  if (was === 0n) return `Rent due ${formatDate(due)} (the lease's terms changed)`;
  if (t.end_date && due > t.end_date) return `Lease ended ${formatDate(t.end_date)}`;
  if (due < t.start_date)
    return `Lease starts ${formatDate(t.start_date)}: rent due ${formatDate(due)} taken off`;
  if (t.opening_balance_date && due <= t.opening_balance_date)
    return `Covered by the opening balance of ${formatDate(t.opening_balance_date)}`;
  return `No rent falls due on ${formatDate(due)} under the lease's terms now (${t.rent_cycle} from ${formatDate(t.start_date)})`;
};

const idList = (ids: readonly number[]) => `{${ids.join(',')}}`;

/**
 * Posts the rent (and opening balance) of these leases of the company due through `through` and
 * adjusts what was posted for periods already due: in the caller's transaction, under each lease's
 * lock. A lease that no longer exists has what was posted taken off. Answers the new entries' ids.
 */
export const postLeaseRent = async (
  tx: DbOrTx,
  companyId: number,
  leaseIds: readonly number[],
  through: string,
  opts: { userId?: number | null } = {},
): Promise<number[]> => {
  const ids = [...new Set(leaseIds.filter((id) => Number.isInteger(id) && id > 0))].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  await execRows(
    tx,
    sql`SELECT count(pg_advisory_xact_lock(${advisoryLocks.rentPosting}, s.id))::int AS n
          FROM (SELECT id FROM unnest(${idList(ids)}::int[]) AS id ORDER BY id) s`,
  );
  const rows = await execRows<LeaseRow>(
    tx,
    sql`SELECT x.id, o.tenant_id, o.unit_id, o.property_id,
               to_char(o.start_date, 'YYYY-MM-DD') AS start_date, to_char(o.end_date, 'YYYY-MM-DD') AS end_date,
               o.rate::text AS rate, o.rent_cycle, o.opening_balance::text AS opening_balance,
               to_char(o.opening_balance_date, 'YYYY-MM-DD') AS opening_balance_date,
               (SELECT json_agg(json_build_object('effective_date', to_char(r.effective_date, 'YYYY-MM-DD'),
                                                  'rate', r.rate::text))::text
                  FROM rate_changes r WHERE r.company_id = ${companyId} AND r.occupancy_id = o.id) AS rates,
               s.terms, to_char(s.through, 'YYYY-MM-DD') AS through, to_char(s.opening_date, 'YYYY-MM-DD') AS opening_date,
               s.opening_amount::text AS opening_amount, s.opening_adjustments
          FROM unnest(${idList(ids)}::int[]) AS x (id)
          LEFT JOIN occupancy o ON o.company_id = ${companyId} AND o.id = x.id
          LEFT JOIN lease_rent_state s ON s.company_id = ${companyId} AND s.occupancy_id = x.id
         WHERE o.id IS NOT NULL OR s.occupancy_id IS NOT NULL
         ORDER BY x.id`,
  );
  if (rows.length === 0) return [];

  const leases = rows.map((r) => {
    const exists = r.start_date !== null && r.start_date !== undefined;
    const terms = exists ? termsOf(r) : null;
    const state: State | null =
      r.terms === null || r.terms === undefined
        ? null
        : {
            terms: r.terms,
            through: String(r.through),
            opening_date: r.opening_date,
            opening_amount: centsOf(r.opening_amount ?? '0'),
            opening_adjustments: Number(r.opening_adjustments ?? 0),
          };
    const key = terms ? termsKey(terms) : '';
    return { id: Number(r.id), row: r, terms, state, key, fast: !!state && !!terms && state.terms === key };
  });

  // the periods posted of the leases whose terms changed (or are new, or gone)
  const slow = leases.filter((l) => !l.fast && l.state).map((l) => l.id);
  const posted = new Map<number, Map<string, Posted>>();
  if (slow.length > 0) {
    const prows = await execRows<{
      occupancy_id: number;
      due_date: string;
      amount: string;
      adjustments: number;
    }>(
      tx,
      sql`SELECT occupancy_id, to_char(due_date, 'YYYY-MM-DD') AS due_date, amount::text AS amount, adjustments
            FROM lease_rent_posted WHERE company_id = ${companyId} AND occupancy_id = ANY(${idList(slow)}::int[])`,
    );
    for (const p of prows) {
      const id = Number(p.occupancy_id);
      const m = posted.get(id) ?? new Map<string, Posted>();
      m.set(p.due_date, { amount: centsOf(p.amount), adjustments: Number(p.adjustments) });
      posted.set(id, m);
    }
  }
  // a lease gone: its dimensions from what it posted
  const gone = leases.filter((l) => !l.terms).map((l) => l.id);
  const goneDims = new Map<number, Dims>();
  if (gone.length > 0) {
    const g = await execRows<{
      occupancy_id: number;
      property_id: number | null;
      unit_id: number | null;
      tenant_id: number | null;
    }>(
      tx,
      sql`SELECT DISTINCT ON (occupancy_id) occupancy_id, property_id, unit_id, tenant_id FROM journal_lines
           WHERE company_id = ${companyId} AND occupancy_id = ANY(${idList(gone)}::int[]) ORDER BY occupancy_id, id`,
    );
    for (const r of g)
      goneDims.set(Number(r.occupancy_id), {
        occupancy_id: Number(r.occupancy_id),
        property_id: r.property_id === null ? null : Number(r.property_id),
        unit_id: r.unit_id === null ? null : Number(r.unit_id),
        tenant_id: r.tenant_id === null ? null : Number(r.tenant_id),
      });
  }

  // an owned property's rent (and opening balance) is due to its owners, never the company's income
  const ownership = await ownershipOf(tx, companyId, [
    ...rows.map((r) => (r.property_id === null ? null : Number(r.property_id))),
    ...[...goneDims.values()].map((d) => d.property_id),
  ]);
  const entries: PostEntry[] = [];
  const periodRows: { occupancy_id: number; due_date: string; amount: string; adjustments: number }[] = [];
  const stateRows: {
    occupancy_id: number;
    terms: string;
    through: string;
    opening_date: string | null;
    opening_amount: string;
    opening_adjustments: number;
  }[] = [];
  const goneIds: number[] = [];

  for (const l of leases) {
    const dims: Dims = l.terms
      ? {
          occupancy_id: l.id,
          property_id: l.row.property_id === null ? null : Number(l.row.property_id),
          unit_id: l.row.unit_id === null ? null : Number(l.row.unit_id),
          tenant_id: l.row.tenant_id === null ? null : Number(l.row.tenant_id),
        }
      : (goneDims.get(l.id) ?? { occupancy_id: l.id, property_id: null, unit_id: null, tenant_id: null });
    const rent = (
      date: string,
      memo: string,
      source: 'rent' | 'rent_adjustment',
      key: string,
      cents: bigint,
    ) =>
      entries.push({
        date,
        memo,
        source,
        source_id: l.id,
        user_id: opts.userId ?? null,
        key,
        lines: [
          { role: 'receivable', debit: fromCents(cents), ...dims, due_date: date },
          {
            role: ownership.on(dims.property_id, date).length > 0 ? 'owner_rent_due' : 'rental_income',
            credit: fromCents(cents),
            ...dims,
          },
        ],
      });
    // the day reconciled: never less than what was posted already
    const upTo = l.state && l.state.through > through ? l.state.through : through;
    if (l.fast && l.state && l.terms) {
      if (through > l.state.through) {
        for (const c of rentCharges(l.terms, through)) {
          if (c.due_date <= l.state.through || c.amount === 0n) continue;
          rent(
            c.due_date,
            `Rent due ${formatDate(c.due_date)}`,
            'rent',
            `rent:${l.id}:${c.due_date}`,
            c.amount,
          );
          periodRows.push({
            occupancy_id: l.id,
            due_date: c.due_date,
            amount: fromCents(c.amount),
            adjustments: 0,
          });
        }
      }
    } else {
      const now = new Map<string, bigint>();
      if (l.terms) for (const c of rentCharges(l.terms, upTo)) now.set(c.due_date, c.amount);
      const was = posted.get(l.id) ?? new Map<string, Posted>();
      const days = [...new Set([...now.keys(), ...was.keys()])].sort();
      for (const due of days) {
        const target = now.get(due) ?? 0n;
        const p = was.get(due);
        if (!p) {
          if (target === 0n) continue;
          rent(due, `Rent due ${formatDate(due)}`, 'rent', `rent:${l.id}:${due}`, target);
          periodRows.push({ occupancy_id: l.id, due_date: due, amount: fromCents(target), adjustments: 0 });
          continue;
        }
        if (p.amount === target) continue;
        const n = p.adjustments + 1;
        rent(
          due,
          why(l.terms, due, p.amount, target),
          'rent_adjustment',
          `rent_adjustment:${l.id}:${due}:${n}`,
          target - p.amount,
        );
        periodRows.push({ occupancy_id: l.id, due_date: due, amount: fromCents(target), adjustments: n });
      }
    }
    // the opening balance: posted on its date; changed, the difference (a new date: off the old, on the new)
    const opening = l.terms ? openingBalance(l.terms, upTo) : null;
    const wasDate = l.state?.opening_date ?? null;
    const wasAmount = l.state?.opening_amount ?? 0n;
    let n = l.state?.opening_adjustments ?? 0;
    // an opening balance owed is a debit that ages from its date; a credit pays the oldest debits
    // first: a change of sign takes the old amount off and puts the new one on, in one entry
    const open = (date: string, memo: string, parts: { cents: bigint; due: string | null }[]) => {
      const first = n === 0 && !l.state?.opening_date;
      n += 1;
      const total = parts.reduce((sum, p) => sum + p.cents, 0n);
      entries.push({
        date,
        memo,
        source: 'opening_balance',
        source_id: l.id,
        user_id: opts.userId ?? null,
        key: first ? `opening:${l.id}` : `opening:${l.id}:${n}`,
        lines: [
          ...parts.map((p) => ({ role: 'receivable', debit: fromCents(p.cents), ...dims, due_date: p.due })),
          {
            role: ownership.on(dims.property_id, date).length > 0 ? 'owner_rent_due' : 'opening_balances',
            credit: fromCents(total),
            ...dims,
          },
        ],
      });
    };
    const part = (cents: bigint, date: string, owed: bigint) => ({ cents, due: owed > 0n ? date : null });
    const nowDate = opening?.date ?? null;
    const nowAmount = opening?.amount ?? 0n;
    if (wasDate !== null && wasAmount !== 0n && (wasDate !== nowDate || nowAmount === 0n)) {
      open(
        wasDate,
        l.terms
          ? `Opening balance of ${formatDate(wasDate)} changed`
          : 'Lease deleted: opening balance taken off',
        [part(-wasAmount, wasDate, wasAmount)],
      );
    }
    if (nowDate !== null && nowAmount !== 0n) {
      const base = wasDate === nowDate ? wasAmount : 0n;
      if (nowAmount !== base)
        open(
          nowDate,
          base === 0n
            ? `Opening balance`
            : `Opening balance changed from ${memoAmount(base)} to ${memoAmount(nowAmount)}`,
          base !== 0n && base > 0n !== nowAmount > 0n
            ? [part(-base, nowDate, base), part(nowAmount, nowDate, nowAmount)]
            : [part(nowAmount - base, nowDate, nowAmount)],
        );
    }
    if (l.terms) {
      stateRows.push({
        occupancy_id: l.id,
        terms: l.key,
        through: upTo,
        opening_date: nowAmount === 0n ? null : nowDate,
        opening_amount: fromCents(nowAmount),
        opening_adjustments: n,
      });
    } else {
      goneIds.push(l.id);
      stateRows.push({
        occupancy_id: l.id,
        terms: '"deleted"',
        through: upTo,
        opening_date: null,
        opening_amount: '0.00',
        opening_adjustments: n,
      });
    }
  }

  const posted_ids = await books.post(tx, companyId, entries, { whenClosed: 'next_open_day' });
  if (periodRows.length > 0)
    await tx.execute(
      sql`INSERT INTO lease_rent_posted AS p (company_id, occupancy_id, due_date, amount, adjustments)
          SELECT ${companyId}, r.occupancy_id, r.due_date, r.amount, r.adjustments
            FROM jsonb_to_recordset(${JSON.stringify(periodRows)}::jsonb)
                 AS r (occupancy_id int, due_date date, amount numeric, adjustments int)
          ON CONFLICT (company_id, occupancy_id, due_date)
            DO UPDATE SET amount = excluded.amount, adjustments = excluded.adjustments, updated_at = now(),
                          version = p.version + 1`,
    );
  if (stateRows.length > 0)
    await tx.execute(
      sql`INSERT INTO lease_rent_state AS s (company_id, occupancy_id, terms, through, opening_date, opening_amount,
                                             opening_adjustments)
          SELECT ${companyId}, r.occupancy_id, r.terms, r.through, r.opening_date, r.opening_amount, r.opening_adjustments
            FROM jsonb_to_recordset(${JSON.stringify(stateRows)}::jsonb)
                 AS r (occupancy_id int, terms text, through date, opening_date date, opening_amount numeric,
                       opening_adjustments int)
          ON CONFLICT (company_id, occupancy_id)
            DO UPDATE SET terms = excluded.terms, through = excluded.through, opening_date = excluded.opening_date,
                          opening_amount = excluded.opening_amount, opening_adjustments = excluded.opening_adjustments,
                          updated_at = now(), version = s.version + 1`,
    );
  return posted_ids;
};

/** How many leases a page of the company's run posts in one transaction. */
export const RENT_PAGE = 1000;

/**
 * Posts the rent of every lease of the company due through `through` (the daily run, the upgrade):
 * a page of leases per short transaction, so that no transaction is held long (on the embedded
 * database a transaction holds the whole database). Idempotent: run twice, or by two servers at
 * once, it posts each period once (each page reconciles its leases under their locks from what they
 * posted). Answers how many entries it posted.
 *
 * The leases to post are read once, then posted a page at a time: a read per page ("the next 1,000
 * leases after id x not posted through the day") was planned, on tables without statistics, as a
 * read of every lease after x sorted to keep 1,000, so the run's cost grew with the square of the
 * leases (docs/performance.md, "Rent posting: quadratic, and why").
 */
export const postCompanyRent = async (
  database: Database,
  companyId: number,
  through: string,
  opts: { page?: number } = {},
): Promise<number> => {
  const page = opts.page ?? RENT_PAGE;
  // leases not posted through the day yet (or with no state), by id
  const ids = (
    await database.query<{ id: number }>(
      `SELECT o.id FROM occupancy o
         LEFT JOIN lease_rent_state s ON s.company_id = o.company_id AND s.occupancy_id = o.id
        WHERE o.company_id = $1 AND o.start_date <= $2::date AND (s.through IS NULL OR s.through < $2::date)
        ORDER BY o.id`,
      [companyId, through],
    )
  ).map((r) => Number(r.id));
  let count = 0;
  for (let i = 0; i < ids.length; i += page) {
    const slice = ids.slice(i, i + page);
    const posted = await database.db.transaction((tx) => postLeaseRent(tx, companyId, slice, through));
    count += posted.length;
  }
  return count;
};
