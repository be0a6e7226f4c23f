import { sql, type SQL } from 'drizzle-orm';
import {
  AppError,
  addDays,
  arrearsSortFields,
  ARREARS_DEFAULT_SORT,
  agingBuckets,
  centsToNumber,
  type ArrearsSortField,
} from '@kodi/domain';
import { likePattern } from '../../crud/sql.ts';
import { isoDaySql } from '../../db/dates.ts';
import { searchCondition } from '../../crud/paged-list.ts';

/**
 * The arrears of every lease of a company in one statement, O(1) per lease.
 *
 * A lease's debits are its rent charges, late fees and other charges, each less its waivers dated on
 * or before the as-of day; its credits, its completed payments and the part of its deposit applied by
 * a settlement. Credits pay the oldest debits first, so what is unpaid on a day is the newest debits
 * worth `debited − paid`. With D(d) the debits dated on or before day d, the unpaid amount of those
 * dated in (a, b] is `GREATEST(0, D(b) − GREATEST(paid, D(a)))`; the buckets are the debits dated on
 * the as-of day (current), 1–30, 31–60, 61–90 and more than 90 days before it. No floating point: the
 * sums are NUMERIC and the arithmetic is in integer cents (bigint).
 *
 * D(d) = rent(d) + stored(d):
 * - rent(d) = N(d)·R₀ + Σⱼ Δⱼ·max(0, N(d) − mⱼ): N(d) is the number of rent charges due on or before d
 *   (date arithmetic, below), R₀ the lease's first rate, and each rate change j (Δⱼ its step from the
 *   rate before it) counts from the first period starting on or after its day, mⱼ = N(eⱼ − 1) periods
 *   in. The company's rate changes up to the as-of day are read once, and only leases that have some
 *   join them.
 * - stored(d) = the lease's charges less waivers (`lease_charge_totals`, kept by triggers, with the
 *   waivers dated after the as-of day added back) less what of it is dated after d: the filter and
 *   the balance read only the charges dated on the as-of day or later (`charges_date_idx`); the
 *   buckets of the rows answered read their lease's charges of the last 91 days
 *   (`charges_occupancy_idx`); only a sort by a bucket reads the company's charges of 91 days.
 * - opening balances (issue 25): the periods due on or before the lease's opening balance date are
 *   not charged, so rent(d) = f(N(d)) − f(min(N(d), n_ob)), f(n) the rent of the first n periods
 *   above and n_ob = N(opening balance date) (`charges_to_opening`, a generated column); an opening
 *   balance owed (`opening_cents` > 0) is a debit dated on its date, a credit (< 0) is counted with
 *   `paid` from its date.
 * `paid` is the lease's row of `lease_payment_totals` (the sum of its completed payments, kept by
 * triggers) less its completed payments dated after the as-of day (none, usually, for today), plus
 * the deposit applied when the settlement is dated on or before it.
 *
 * N(D) for D ≥ start (0 before), with D capped at the end date:
 * - daily: D − start + 1; weekly: (D − start) / 7 + 1;
 * - monthly: whole months from the start's month to D's month, plus one when D's day has reached the
 *   start's day, or D is the last day of its month (a Jan 31 lease falls due on Feb 28).
 * `packages/domain/src/ledger.ts` computes the same by walking the debits; a property test holds
 * both equal on generated leases, payments, rate changes, charges, waivers and settlements.
 */

/** Days before the as-of day at which the buckets start: D(asOf − k) for these k. */
const EDGES = [0, 1, 31, 61, 91] as const;
type Edge = (typeof EDGES)[number];
const LATE_EDGES = [31, 61, 91] as const;

const monthIndex = (iso: string) => {
  const [y, m] = iso.split('-').map(Number) as [number, number];
  return y * 12 + m - 1;
};

/** N(asOf − k) of the lease row `a`: the end-date count when the lease ended before, else the day's. */
const chargeCount = (asOf: string, k: Edge, a: string): SQL => {
  const d = addDays(asOf, -k);
  const day = Number(d.slice(8, 10));
  const lastOfMonth = addDays(d, 1).endsWith('-01');
  const x = sql.raw(a);
  return sql`CASE WHEN ${x}.e < ${d}::date THEN ${x}.n_end
       WHEN ${d}::date < ${x}.s THEN 0
       WHEN ${x}.rent_cycle = 'daily' THEN (${d}::date - ${x}.s) + 1
       WHEN ${x}.rent_cycle = 'weekly' THEN (${d}::date - ${x}.s) / 7 + 1
       ELSE ${monthIndex(d)}::int - ${x}.smi + (${day}::int >= ${x}.sd OR ${lastOfMonth}::boolean)::int END`;
};

/** N(d) of the lease row `a` for a date expression `d` (a column): the same count, computed in SQL. */
const chargeCountAt = (d: string, a: string): string => `CASE WHEN ${a}.e < ${d} THEN ${a}.n_end
       WHEN ${d} < ${a}.s THEN 0
       WHEN ${a}.rent_cycle = 'daily' THEN (${d} - ${a}.s) + 1
       WHEN ${a}.rent_cycle = 'weekly' THEN (${d} - ${a}.s) / 7 + 1
       ELSE (date_part('year', ${d}) * 12 + date_part('month', ${d}) - 1)::int - ${a}.smi
            + (date_part('day', ${d}) >= ${a}.sd OR date_part('day', ${d} + 1) = 1)::int END`;

const counts = (asOf: string, edges: readonly Edge[], a: string): SQL =>
  sql.join(
    edges.map((k) => sql`${chargeCount(asOf, k, a)} AS n${sql.raw(String(k))}`),
    sql`, `,
  );

/**
 * D(asOf − k) in cents of the row `c` (its rate, stored debits, opening balance, n_ob), with `n` its
 * N(asOf − k) (`n` of row `c` unless given), `a` its rate-change sums, `r` its recent charges: the rent
 * of the periods after the first n_ob (those due on or before the opening balance date are not
 * charged), and the opening balance owed from its date.
 */
const debited = (asOf: string, k: Edge, c: string, a: string, r: string, n = `${c}.n${k}`) =>
  `(${n} - LEAST(${n}, ${c}.n_ob)) * ${c}.rate_c + COALESCE(${a}.a${k}, 0) + ${c}.stored_c - COALESCE(${r}.r${k}, 0)
   + CASE WHEN ${c}.ob_c > 0 AND ${c}.obd <= '${addDays(asOf, -k)}'::date THEN ${c}.ob_c ELSE 0 END`;

/**
 * The lease's charges dated after the earliest of these edges (less their waivers dated on or before
 * the as-of day), in cents: what D leaves out of the stored total on those days. `where` picks the
 * company's (every lease) or one lease's.
 */
const recentCharges = (asOf: string, edges: readonly Edge[], where: SQL): SQL => sql`
  SELECT ch.occupancy_id, ch.date, ((ch.amount - COALESCE(w.amount, 0)) * 100)::bigint AS net_c
    FROM charges ch
    LEFT JOIN charge_waivers w
      ON w.company_id = ch.company_id AND w.charge_id = ch.id AND w.date <= ${asOf}::date
   WHERE ${where} AND ch.date > ${addDays(asOf, -Math.max(...edges))}::date`;

const recentSums = (asOf: string, edges: readonly Edge[], x: string): SQL =>
  sql.raw(
    edges
      .map(
        (k) =>
          `COALESCE(sum(${x}.net_c) FILTER (WHERE ${x}.date > '${addDays(asOf, -k)}'::date), 0) AS r${k}`,
      )
      .join(', '),
  );

/**
 * Σⱼ Δⱼ·(max(0, n − mⱼ) − max(0, min(n, n_ob) − mⱼ)) for these edges, over the rate changes `rc`
 * joined to leases `c` (whose n_ob is that of `o`, `c` unless given): the steps of the charged periods.
 */
const rateSums = (edges: readonly Edge[], c: string, o = c) =>
  edges
    .map(
      (k) =>
        `sum(rc.delta_c * (GREATEST(0, ${c}.n${k} - rc.m) - GREATEST(0, LEAST(${c}.n${k}, ${o}.n_ob) - rc.m)))::bigint AS a${k}`,
    )
    .join(', ');

/**
 * The leases of the company that have started, with what the counts need (start month and day, the
 * number of charges up to the end date: columns PostgreSQL keeps with each lease), the first rate,
 * the stored debits and the credits counted on the as-of day in cents, N on the as-of day and the
 * day before (`edges` adds more), and D on those days (`debits`).
 */
const leasesCte = (
  companyId: number,
  asOf: string,
  edges: readonly Edge[],
  propertyId: number | undefined,
  search?: string,
): SQL => {
  // a search (the tenant's or the unit's name) picks the leases from occupancy's trigram index of
  // its search_text (which holds both names, and the dates: the names are then checked)
  const searched = search
    ? sql`AND ${searchCondition(search, 'o')}
          AND (lower(o.tenant_name) LIKE lower(${likePattern(search)}) OR lower(o.unit_name) LIKE lower(${likePattern(search)}))`
    : sql``;
  // one property's leases (and payments): `property_id` is kept on each row (db/derived.ts)
  const of = (alias: string) =>
    propertyId === undefined ? sql`` : sql`AND ${sql.raw(alias)}.property_id = ${propertyId}`;
  return sql`
  late AS (
    SELECT p.occupancy_id, sum(p.amount_paid) AS amount
      FROM payments p
     WHERE p.company_id = ${companyId} AND p.status = 'completed' AND p.payment_date > ${asOf}::date ${of('p')}
     GROUP BY p.occupancy_id
  ),
  stored AS (
    SELECT k.occupancy_id,
           (sum(CASE WHEN k.source = 'charges' THEN k.amount ELSE -k.amount END) * 100)::bigint AS net_c
      FROM lease_charge_totals k WHERE k.company_id = ${companyId} AND k.amount <> 0
     GROUP BY k.occupancy_id
  ),
  future_waivers AS (
    SELECT w.occupancy_id, (sum(w.amount) * 100)::bigint AS amount_c
      FROM charge_waivers w WHERE w.company_id = ${companyId} AND w.date > ${asOf}::date
     GROUP BY w.occupancy_id
  ),
  recent AS (
    SELECT x.occupancy_id, ${recentSums(asOf, edges, 'x')}
      FROM (${recentCharges(asOf, edges, sql`ch.company_id = ${companyId}`)}) x
     GROUP BY x.occupancy_id
  ),
  settled AS (
    SELECT ds.occupancy_id, (ds.applied_amount * 100)::bigint AS applied_c
      FROM deposit_settlements ds WHERE ds.company_id = ${companyId} AND ds.date <= ${asOf}::date
  ),
  lease AS (
    SELECT o.id, o.tenant_id, o.unit_id, o.rent_cycle, o.start_date AS s, o.end_date AS e,
           o.charge_start_month AS smi, o.charge_day AS sd, o.charges_to_end AS n_end, o.rate_cents AS rate_c,
           o.charges_to_opening AS n_ob, o.opening_balance_date AS obd, o.opening_cents AS ob_c,
           COALESCE(tp.paid_cents, 0) - COALESCE((lt.amount * 100)::bigint, 0) + COALESCE(st.applied_c, 0)
             + CASE WHEN o.opening_cents < 0 AND o.opening_balance_date <= ${asOf}::date THEN -o.opening_cents ELSE 0 END AS paid_c,
           COALESCE(sd.net_c, 0) + COALESCE(fw.amount_c, 0) AS stored_c
      FROM occupancy o
      LEFT JOIN lease_payment_totals tp ON tp.company_id = o.company_id AND tp.occupancy_id = o.id
      LEFT JOIN late lt ON lt.occupancy_id = o.id
      LEFT JOIN settled st ON st.occupancy_id = o.id
      LEFT JOIN stored sd ON sd.occupancy_id = o.id
      LEFT JOIN future_waivers fw ON fw.occupancy_id = o.id
     WHERE o.company_id = ${companyId} AND o.start_date <= ${asOf}::date ${of('o')} ${searched}
  ),
  counted AS MATERIALIZED (
    SELECT l.*, ${counts(asOf, edges, 'l')} FROM lease l
  ),
  rc AS MATERIALIZED (
    SELECT r.occupancy_id,
           ((r.rate - lag(r.rate, 1, o.rate) OVER (PARTITION BY r.occupancy_id ORDER BY r.effective_date)) * 100)::bigint AS delta_c,
           ${sql.raw(chargeCountAt('(r.effective_date - 1)', 'o'))} AS m
      FROM rate_changes r
      JOIN (SELECT id, rate, rent_cycle, start_date AS s, end_date AS e, charge_start_month AS smi,
                   charge_day AS sd, charges_to_end AS n_end
              FROM occupancy WHERE company_id = ${companyId}) o ON o.id = r.occupancy_id
     WHERE r.company_id = ${companyId} AND r.effective_date <= ${asOf}::date
  ),
  adjusted AS (
    SELECT c.id AS occupancy_id, ${sql.raw(rateSums(edges, 'c'))}
      FROM rc JOIN counted c ON c.id = rc.occupancy_id
     GROUP BY c.id
  ),
  debits AS MATERIALIZED (
    SELECT c.*, ${sql.raw(edges.map((k) => `${debited(asOf, k, 'c', 'a', 'r')} AS d${k}`).join(', '))}
      FROM counted c
      LEFT JOIN adjusted a ON a.occupancy_id = c.id
      LEFT JOIN recent r ON r.occupancy_id = c.id
  )`;
};

/**
 * The balance, the overdue amount and the five buckets of a lease in cents (bigint: exact, and much
 * faster than NUMERIC over 10,000 leases): `c` has the credits and d0, d1; `k` d31 to d91.
 */
const balance = (c: string) => `${c}.d0 - ${c}.paid_c`;
const OVERDUE = 'GREATEST(0, c.d1 - c.paid_c)';
const buckets = (c: string, k: string) => `
  GREATEST(0, ${c}.d0 - GREATEST(${c}.paid_c, ${c}.d1)) AS current,
  GREATEST(0, ${c}.d1 - GREATEST(${c}.paid_c, ${k}.d31)) AS days_1_30,
  GREATEST(0, ${k}.d31 - GREATEST(${c}.paid_c, ${k}.d61)) AS days_31_60,
  GREATEST(0, ${k}.d61 - GREATEST(${c}.paid_c, ${k}.d91)) AS days_61_90,
  GREATEST(0, ${k}.d91 - ${c}.paid_c) AS days_over_90`;

/** A lease is in arrears when some debit dated before the as-of day is unpaid. */
const IN_ARREARS = 'c.d1 > c.paid_c';

const NAMES =
  "tn.first_name AS tenant_first_name, tn.last_name AS tenant_last_name, (tn.first_name || ' ' || tn.last_name) AS tenant_name, un.name AS unit_name";
const nameJoins = (companyId: number, alias: string) =>
  sql`JOIN tenants tn ON tn.company_id = ${companyId} AND tn.id = ${sql.raw(alias)}.tenant_id
      JOIN units un ON un.company_id = ${companyId} AND un.id = ${sql.raw(alias)}.unit_id`;

const NAME_SORTS = new Set<ArrearsSortField>([
  'tenant_name',
  'tenant_first_name',
  'tenant_last_name',
  'unit_name',
]);
const BUCKET_SORTS = new Set<ArrearsSortField>(agingBuckets);

export type ArrearsQuery = {
  companyId: number;
  asOf: string;
  /** the leases of one property */
  propertyId?: number | undefined;
  q?: string | undefined;
  sort?: string | undefined;
  /** a page (limit and offset), or every row (exports). */
  page?: { limit: number; offset: number };
};

const parseSort = (sort: string | undefined): { field: ArrearsSortField; desc: boolean } => {
  const s = sort || ARREARS_DEFAULT_SORT;
  const desc = s.startsWith('-');
  const field = (desc ? s.slice(1) : s) as ArrearsSortField;
  if (!arrearsSortFields.includes(field)) {
    throw new AppError('validation_failed', `Unknown sort field: ${field}.`, { sort: 'Unknown field.' });
  }
  return { field, desc };
};

/** How a list of arrears is sorted and paged, and which of its parts come before the page. */
const arrearsPlan = (
  companyId: number,
  asOf: string,
  sort: string | undefined,
  page: ArrearsQuery['page'],
) => {
  const { field, desc } = parseSort(sort);
  const lastEarly = field === 'last_payment_date' || field === 'last_payment_amount';
  return {
    namesEarly: NAME_SORTS.has(field),
    bucketsEarly: BUCKET_SORTS.has(field),
    lastEarly,
    // qualified in the outer SELECT, which answers the amounts as text under the same names
    order: (prefix = '') =>
      sql.raw(`${prefix}${field} ${desc ? 'DESC' : 'ASC'} NULLS LAST, ${prefix}occupancy_id ASC`),
    // the latest counted payment: one probe of payments_completed_occupancy_idx, from the newest end
    lastPayment: (alias: string) => sql`LEFT JOIN LATERAL (
      SELECT p.payment_date AS last_payment_date, (p.amount_paid * 100)::bigint AS last_payment_amount
        FROM payments p
       WHERE p.company_id = ${companyId} AND p.occupancy_id = ${sql.raw(alias)}.occupancy_id
         AND p.status = 'completed' AND p.payment_date <= ${asOf}::date
       ORDER BY p.payment_date DESC, p.id DESC LIMIT 1) lp ON TRUE`,
    limit: page ? sql`LIMIT ${page.limit} OFFSET ${page.offset}` : sql``,
  };
};

/**
 * The page of an `arrears` CTE (`head`: `WITH ... arrears AS (...)`, one row per lease in arrears
 * with what the plan computes early): sorted and paged, then each row answered completed by the
 * buckets (`buckets`: their join and columns), the names and the last payment it still lacks.
 */
const arrearsPage = (
  companyId: number,
  plan: ReturnType<typeof arrearsPlan>,
  head: SQL,
  buckets: { join: SQL; columns: string },
): SQL => {
  const { namesEarly, bucketsEarly, lastEarly, order, lastPayment, limit } = plan;
  return sql`${head},
  ranked AS (
    SELECT a.*${lastEarly ? sql`, lp.last_payment_date, lp.last_payment_amount` : sql``}
      FROM arrears a ${lastEarly ? lastPayment('a') : sql``}
     ORDER BY ${order()} ${limit}
  )
  SELECT t.total, r.occupancy_id, r.tenant_id, r.unit_id, r.tenant_first_name, r.tenant_last_name,
         r.tenant_name, r.unit_name, r.balance::text AS balance, r.current::text AS current,
         r.days_1_30::text AS days_1_30, r.days_31_60::text AS days_31_60,
         r.days_61_90::text AS days_61_90, r.days_over_90::text AS days_over_90,
         ${sql.raw(isoDaySql('r.last_payment_date'))} AS last_payment_date,
         r.last_payment_amount::text AS last_payment_amount
    FROM (SELECT count(*)::int AS total FROM arrears) t
    LEFT JOIN (
      SELECT x.occupancy_id, x.tenant_id, x.unit_id, x.balance,
             ${sql.raw(bucketsEarly ? 'x.current, x.days_1_30, x.days_31_60, x.days_61_90, x.days_over_90' : buckets.columns)},
             ${sql.raw(namesEarly ? 'x.tenant_first_name, x.tenant_last_name, x.tenant_name, x.unit_name' : NAMES)},
             ${sql.raw(lastEarly ? 'x.last_payment_date, x.last_payment_amount' : 'lp.last_payment_date, lp.last_payment_amount')}
        FROM ranked x ${bucketsEarly ? sql`` : buckets.join}
        ${namesEarly ? sql`` : nameJoins(companyId, 'x')}
        ${lastEarly ? sql`` : lastPayment('x')}
    ) r ON TRUE
   ORDER BY ${order('r.')}`;
};

/**
 * The arrears rows (one per lease in arrears), searched, sorted and paged in SQL, with `total` (the
 * count before paging) on every row. Every lease gets only what the filter needs (N today and
 * yesterday); the buckets, the names and the last payment are computed for the rows
 * answered, or for all of them before paging when the search or the sort needs them.
 */
export const arrearsQuery = ({ companyId, asOf, propertyId, q, sort, page }: ArrearsQuery): SQL => {
  const plan = arrearsPlan(companyId, asOf, sort, page);
  const { namesEarly, bucketsEarly } = plan;
  const search = q?.trim();
  const edges: readonly Edge[] = bucketsEarly ? EDGES : [0, 1];
  // D on the late edges of the rows answered: their counts, rate changes and recent charges
  const lateDebits = sql`CROSS JOIN LATERAL (SELECT ${counts(asOf, LATE_EDGES, 'x')}) kn
        LEFT JOIN LATERAL (SELECT ${sql.raw(rateSums(LATE_EDGES, 'kn', 'x'))} FROM rc WHERE rc.occupancy_id = x.occupancy_id) ka ON TRUE
        CROSS JOIN LATERAL (
          SELECT ${recentSums(asOf, LATE_EDGES, 'y')}
            FROM (${recentCharges(asOf, LATE_EDGES, sql`ch.company_id = ${companyId} AND ch.occupancy_id = x.occupancy_id`)}) y
        ) kr
        CROSS JOIN LATERAL (SELECT ${sql.raw(
          LATE_EDGES.map((k) => `${debited(asOf, k, 'x', 'ka', 'kr', `kn.n${k}`)} AS d${k}`).join(', '),
        )}) k`;

  return arrearsPage(
    companyId,
    plan,
    sql`WITH ${leasesCte(companyId, asOf, edges, propertyId, search)},
  arrears AS MATERIALIZED (
    SELECT c.*, c.id AS occupancy_id, ${sql.raw(balance('c'))} AS balance
           ${bucketsEarly ? sql.raw(`, ${buckets('c', 'c')}`) : sql``}
           ${namesEarly ? sql.raw(`, ${NAMES}`) : sql``}
      FROM debits c ${namesEarly ? nameJoins(companyId, 'c') : sql``}
     WHERE ${sql.raw(IN_ARREARS)}
  )`,
    { join: lateDebits, columns: buckets('x', 'k') },
  );
};

/** The count of leases in arrears and the sum of their overdue amounts (D today and yesterday only). */
export const arrearsSummaryQuery = (companyId: number, asOf: string, propertyId?: number): SQL =>
  sql`WITH ${leasesCte(companyId, asOf, [0, 1], propertyId)}
  SELECT count(*)::int AS leases, COALESCE(sum(${sql.raw(OVERDUE)}), 0)::text AS total_cents
    FROM debits c WHERE ${sql.raw(IN_ARREARS)}`;

const cents = (v: unknown): number => centsToNumber(BigInt(String(v)));

/** A row as the API answers it: ids as numbers, money from cents to JSON numbers. */
export const presentArrearsRow = (r: Record<string, unknown>) => ({
  occupancy_id: Number(r.occupancy_id),
  tenant_id: Number(r.tenant_id),
  tenant_first_name: String(r.tenant_first_name ?? ''),
  tenant_last_name: String(r.tenant_last_name ?? ''),
  tenant_name: String(r.tenant_name ?? ''),
  unit_id: Number(r.unit_id),
  unit_name: String(r.unit_name ?? ''),
  balance: cents(r.balance),
  current: cents(r.current),
  days_1_30: cents(r.days_1_30),
  days_31_60: cents(r.days_31_60),
  days_61_90: cents(r.days_61_90),
  days_over_90: cents(r.days_over_90),
  last_payment_date: (r.last_payment_date as string | null) ?? null,
  last_payment_amount:
    r.last_payment_amount === null || r.last_payment_amount === undefined
      ? null
      : cents(r.last_payment_amount),
});

/**
 * The arrears of today from what the books keep (issue 25, docs/decisions.md "Kept ageing"): a lease
 * is in arrears when its oldest unpaid debit (`lease_balances.oldest_due`) fell due before the day,
 * read from the index `(company_id, oldest_due)`; its balance is its kept receivable; its buckets
 * are its open debit days (`lease_debit_days`, a few rows from its oldest unpaid day on) aged by
 * the day: due on the day (or later) is current, then 1–30, 31–60, 61–90 and more than 90 days.
 * Nothing is derived from the terms and no history is read: only the rows of the leases in arrears
 * (and, for the rows answered, their names and last payment). The same columns as `arrearsQuery`.
 */
const keptBuckets = (asOf: string, b: string) => sql`LEFT JOIN LATERAL (
      SELECT COALESCE((sum(d.open) FILTER (WHERE d.day >= ${asOf}::date) * 100)::bigint, 0) AS current,
             COALESCE((sum(d.open) FILTER (WHERE d.day < ${asOf}::date AND d.day >= ${addDays(asOf, -30)}::date) * 100)::bigint, 0) AS days_1_30,
             COALESCE((sum(d.open) FILTER (WHERE d.day < ${addDays(asOf, -30)}::date AND d.day >= ${addDays(asOf, -60)}::date) * 100)::bigint, 0) AS days_31_60,
             COALESCE((sum(d.open) FILTER (WHERE d.day < ${addDays(asOf, -60)}::date AND d.day >= ${addDays(asOf, -90)}::date) * 100)::bigint, 0) AS days_61_90,
             COALESCE((sum(d.open) FILTER (WHERE d.day < ${addDays(asOf, -90)}::date) * 100)::bigint, 0) AS days_over_90
        FROM lease_debit_days d
       WHERE d.company_id = ${sql.raw(b)}.company_id AND d.occupancy_id = ${sql.raw(b)}.occupancy_id
         AND d.day >= ${sql.raw(b)}.oldest_due AND d.open > 0) g ON TRUE`;

/** The leases in arrears on `asOf` as kept: their balance (cents), ids, of a property, searched. */
const keptLeases = (
  companyId: number,
  asOf: string,
  propertyId: number | undefined,
  search: string | undefined,
) => {
  const searched = search
    ? sql`AND ${searchCondition(search, 'o')}
          AND (lower(o.tenant_name) LIKE lower(${likePattern(search)}) OR lower(o.unit_name) LIKE lower(${likePattern(search)}))`
    : sql``;
  return sql`SELECT b.company_id, b.occupancy_id, b.oldest_due, o.tenant_id, o.unit_id,
                    (b.receivable * 100)::bigint AS balance
               FROM lease_balances b
               JOIN occupancy o ON o.company_id = b.company_id AND o.id = b.occupancy_id
              WHERE b.company_id = ${companyId} AND b.oldest_due IS NOT NULL AND b.oldest_due < ${asOf}::date
                ${propertyId === undefined ? sql`` : sql`AND o.property_id = ${propertyId}`} ${searched}`;
};

export const keptArrearsQuery = ({ companyId, asOf, propertyId, q, sort, page }: ArrearsQuery): SQL => {
  const plan = arrearsPlan(companyId, asOf, sort, page);
  const { namesEarly, bucketsEarly } = plan;
  return arrearsPage(
    companyId,
    plan,
    sql`WITH arrears AS MATERIALIZED (
    SELECT c.*${bucketsEarly ? sql`, g.*` : sql``}${namesEarly ? sql.raw(`, ${NAMES}`) : sql``}
      FROM (${keptLeases(companyId, asOf, propertyId, q?.trim())}) c
      ${bucketsEarly ? keptBuckets(asOf, 'c') : sql``}
      ${namesEarly ? nameJoins(companyId, 'c') : sql``}
  )`,
    {
      join: keptBuckets(asOf, 'x'),
      columns: 'g.current, g.days_1_30, g.days_31_60, g.days_61_90, g.days_over_90',
    },
  );
};

/** The count of leases in arrears today and the sum of their overdue (open before the day) amounts, as kept. */
export const keptArrearsSummaryQuery = (companyId: number, asOf: string, propertyId?: number): SQL =>
  sql`SELECT count(*)::int AS leases, COALESCE(sum(g.overdue), 0)::text AS total_cents
    FROM (${keptLeases(companyId, asOf, propertyId, undefined)}) c
    CROSS JOIN LATERAL (
      SELECT COALESCE((sum(d.open) * 100)::bigint, 0) AS overdue FROM lease_debit_days d
       WHERE d.company_id = c.company_id AND d.occupancy_id = c.occupancy_id
         AND d.day >= c.oldest_due AND d.day < ${asOf}::date AND d.open > 0) g`;
