import { sql } from 'drizzle-orm';
import { AppError, formatDate } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { books, fromCents, toCents, type PostLine } from '../books/post.ts';
import { agreementsOf, ownershipOf, percentOf } from '../books/owned.ts';
import { memoAmount } from '../books/rent.ts';
import { recordAuditEntry } from '../audit/audit.ts';

/**
 * An owner's money (issue 27, docs/decisions.md "What money events post for an owned property"): what
 * the journal holds for them (Owner funds held lines with their `owner_id`, per property), what is
 * available to pay out (held less their share of each property's reserve), the payouts, and their
 * statement. Plain functions of a database or transaction, so the owner portal can call them too.
 */

type PropertyFunds = {
  property_id: number | null;
  property_name: string | null;
  held: bigint;
  reserve: bigint;
};

/** The owner's funds held per property through `through` (the properties they own on it included). */
const fundsByProperty = async (
  db: DbOrTx,
  companyId: number,
  ownerId: number,
  through: string,
): Promise<PropertyFunds[]> => {
  const rows = await execRows<{ property_id: number | null; property_name: string | null; held: string }>(
    db,
    sql`WITH held AS (
          SELECT l.property_id, sum(l.credit - l.debit) AS held
            FROM journal_lines l
            JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.role = 'owner_funds'
           WHERE l.company_id = ${companyId} AND l.owner_id = ${ownerId} AND l.date <= ${through}::date
           GROUP BY l.property_id
        ), owned AS (
          SELECT DISTINCT s.property_id FROM property_owner_sets s
            JOIN property_owner_shares h ON h.company_id = s.company_id AND h.set_id = s.id
           WHERE s.company_id = ${companyId} AND h.owner_id = ${ownerId} AND s.effective_from <= ${through}::date
        )
        SELECT x.property_id, p.name AS property_name, coalesce(h.held, 0)::text AS held
          FROM (SELECT property_id FROM held UNION SELECT property_id FROM owned) x
          LEFT JOIN held h ON h.property_id IS NOT DISTINCT FROM x.property_id
          LEFT JOIN properties p ON p.company_id = ${companyId} AND p.id = x.property_id
         ORDER BY p.name NULLS LAST, x.property_id`,
  );
  const ids = rows.map((r) => (r.property_id === null ? null : Number(r.property_id)));
  const ownership = await ownershipOf(db, companyId, ids);
  const agreements = await agreementsOf(db, companyId, ids);
  return rows.map((r) => {
    const id = r.property_id === null ? null : Number(r.property_id);
    const share = ownership.on(id, through).find((s) => s.owner_id === ownerId);
    const reserve =
      id !== null && share ? percentOf(agreements.get(id)?.reserve ?? 0n, share.hundredths) : 0n;
    return { property_id: id, property_name: r.property_name, held: toCents(r.held), reserve };
  });
};

const ensureOwner = async (
  db: DbOrTx,
  companyId: number,
  ownerId: number,
  lock = false,
): Promise<{ id: number; name: string; payout_method: string | null }> => {
  const rows = await execRows<{ id: number; display_name: string; payout_method: string | null }>(
    db,
    sql`SELECT id, display_name, payout_method FROM owners WHERE company_id = ${companyId} AND id = ${ownerId}
        ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  const o = rows[0];
  if (!o) throw new AppError('not_found', 'Owner not found.');
  return { id: Number(o.id), name: o.display_name, payout_method: o.payout_method };
};

export type OwnerAvailable = {
  owner_id: number;
  owner_name: string;
  payout_method: string | null;
  held: string;
  reserve: string;
  available: string;
};

const sum = (xs: readonly bigint[]) => xs.reduce((a, b) => a + b, 0n);

/** What an owner holds and may be paid out on `asOf`: held less their share of the reserves, never below 0. */
export const ownerAvailable = async (
  db: DbOrTx,
  companyId: number,
  ownerId: number,
  asOf: string,
): Promise<OwnerAvailable> => {
  const owner = await ensureOwner(db, companyId, ownerId);
  const funds = await fundsByProperty(db, companyId, ownerId, asOf);
  const held = sum(funds.map((f) => f.held));
  const reserve = sum(funds.map((f) => f.reserve));
  const available = held - reserve > 0n ? held - reserve : 0n;
  return {
    owner_id: owner.id,
    owner_name: owner.name,
    payout_method: owner.payout_method,
    held: fromCents(held),
    reserve: fromCents(reserve),
    available: fromCents(available),
  };
};

/** Every owner's available amount on `asOf` (a payout run's proposal, which staff confirm line by line). */
export const proposePayouts = async (
  db: DbOrTx,
  companyId: number,
  asOf: string,
): Promise<OwnerAvailable[]> => {
  const owners = await execRows<{ id: number }>(
    db,
    sql`SELECT id FROM owners WHERE company_id = ${companyId} ORDER BY display_name, id`,
  );
  const out: OwnerAvailable[] = [];
  for (const o of owners) out.push(await ownerAvailable(db, companyId, Number(o.id), asOf));
  return out;
};

export type PayoutRequest = {
  owner_id: number;
  date: string;
  amount: string;
  method: 'bank' | 'mobilemoney' | 'cash' | 'check';
  reference?: string | null | undefined;
  override?: boolean | undefined;
  reason?: string | null | undefined;
};

export type OwnerPayout = {
  id: number;
  owner_id: number;
  owner_name: string;
  date: string;
  amount: string;
  method: string;
  reference: string | null;
  override_reason: string | null;
  entry_id: number | null;
  created_at: string;
};

/** The money account a payout is paid from, by its method. */
export const payoutRole = (method: string): string =>
  method === 'mobilemoney' ? 'mobile_money' : method === 'bank' || method === 'check' ? 'bank' : 'cash';

const PAYOUT_COLUMNS = sql`p.id, p.owner_id, o.display_name AS owner_name, to_char(p.date, 'YYYY-MM-DD') AS date,
  p.amount::text AS amount, p.method, p.reference, p.override_reason,
  (SELECT e.id FROM journal_entries e WHERE e.company_id = p.company_id AND e.key = 'owner_payout:' || p.id) AS entry_id,
  to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at`;

const presentPayout = (r: Record<string, unknown>): OwnerPayout => ({
  id: Number(r.id),
  owner_id: Number(r.owner_id),
  owner_name: String(r.owner_name),
  date: String(r.date),
  amount: String(r.amount),
  method: String(r.method),
  reference: r.reference === null ? null : String(r.reference),
  override_reason: r.override_reason === null ? null : String(r.override_reason),
  entry_id: r.entry_id === null || r.entry_id === undefined ? null : Number(r.entry_id),
  created_at: String(r.created_at),
});

/**
 * Pays an owner out (in the caller's transaction): refused above what is available on its date
 * (409 above_available) unless `override` with a reason; posts Dr Owner funds held (the owner's, per
 * property: first what each property has available, the rest on the one holding most) / Cr the money
 * account of its method, source `owner_payout`, key `owner_payout:{id}`; audited.
 */
export const payOwner = async (
  tx: DbOrTx,
  companyId: number,
  userId: number | null,
  p: PayoutRequest,
): Promise<OwnerPayout> => {
  // one owner's payouts in turn: the owner's row locked while what is available is read
  const owner = await ensureOwner(tx, companyId, p.owner_id, true);
  const cents = toCents(p.amount);
  const funds = await fundsByProperty(tx, companyId, p.owner_id, p.date);
  const held = sum(funds.map((f) => f.held));
  const reserve = sum(funds.map((f) => f.reserve));
  const available = held - reserve > 0n ? held - reserve : 0n;
  const overridden = cents > available;
  if (overridden && !p.override)
    throw new AppError(
      'above_available',
      `The payout is more than the ${memoAmount(available)} available to ${owner.name} on ${formatDate(p.date)}.`,
      { amount: `At most ${fromCents(available)}, unless overridden with a reason.` },
    );
  const reason = p.reason?.trim() ?? '';
  if (overridden && reason === '')
    throw new AppError('validation_failed', 'Give the reason for paying out more than is available.', {
      reason: 'Required when the payout is more than is available.',
    });
  const [row] = await execRows<{ id: number }>(
    tx,
    sql`INSERT INTO owner_payouts (company_id, owner_id, date, amount, method, reference, override_reason, user_id)
        VALUES (${companyId}, ${p.owner_id}, ${p.date}::date, ${fromCents(cents)}::numeric, ${p.method},
                ${p.reference ?? null}, ${overridden ? reason : null}, ${userId})
        RETURNING id`,
  );
  const id = Number(row?.id);
  // the payout taken from each property's available amount, the rest from the one holding most
  const parts = new Map<number | null, bigint>();
  let left = cents;
  for (const f of funds) {
    const free = f.held - f.reserve;
    if (left <= 0n || free <= 0n) continue;
    const take = free < left ? free : left;
    parts.set(f.property_id, take);
    left -= take;
  }
  if (left > 0n) {
    const most = [...funds].sort((a, b) => (b.held > a.held ? 1 : b.held < a.held ? -1 : 0))[0];
    const key = most?.property_id ?? null;
    parts.set(key, (parts.get(key) ?? 0n) + left);
  }
  const lines: PostLine[] = [
    ...[...parts].map(([property_id, c]) => ({
      role: 'owner_funds',
      debit: fromCents(c),
      property_id,
      owner_id: p.owner_id,
    })),
    { role: payoutRole(p.method), credit: fromCents(cents) },
  ];
  await books.post(tx, companyId, [
    {
      date: p.date,
      memo: `Payout to ${owner.name}${p.reference ? ` (${p.reference})` : ''}`.slice(0, 1000),
      source: 'owner_payout',
      source_id: id,
      user_id: userId,
      key: `owner_payout:${id}`,
      lines,
    },
  ]);
  const payout = await getPayout(tx, companyId, id);
  await recordAuditEntry(tx, {
    companyId,
    userId,
    action: 'create',
    entity: 'owner_payouts',
    recordId: id,
    after: { ...payout, available: fromCents(available), ...(overridden ? { override: true, reason } : {}) },
  });
  return payout;
};

export const getPayout = async (db: DbOrTx, companyId: number, id: number): Promise<OwnerPayout> => {
  const rows = await execRows<Record<string, unknown>>(
    db,
    sql`SELECT ${PAYOUT_COLUMNS} FROM owner_payouts p
          JOIN owners o ON o.company_id = p.company_id AND o.id = p.owner_id
         WHERE p.company_id = ${companyId} AND p.id = ${id}`,
  );
  const r = rows[0];
  if (!r) throw new AppError('not_found', 'Payout not found.');
  return presentPayout(r);
};

export type PayoutFilter = {
  owner_id?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

const payoutWhere = (companyId: number, f: PayoutFilter) => {
  const where = [sql`p.company_id = ${companyId}`];
  if (f.owner_id !== undefined) where.push(sql`p.owner_id = ${f.owner_id}`);
  if (f.from) where.push(sql`p.date >= ${f.from}::date`);
  if (f.to) where.push(sql`p.date <= ${f.to}::date`);
  return sql.join(where, sql` AND `);
};

/** The company's payouts, newest first, a page of them, and how many in all. */
export const listPayouts = async (
  db: DbOrTx,
  companyId: number,
  f: PayoutFilter & { page?: number; page_size?: number },
): Promise<{ rows: OwnerPayout[]; total: number }> => {
  const size = f.page_size ?? 100;
  const offset = ((f.page ?? 1) - 1) * size;
  const where = payoutWhere(companyId, f);
  const [count] = await execRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM owner_payouts p WHERE ${where}`,
  );
  const rows =
    size === 0
      ? []
      : await execRows<Record<string, unknown>>(
          db,
          sql`SELECT ${PAYOUT_COLUMNS} FROM owner_payouts p
                JOIN owners o ON o.company_id = p.company_id AND o.id = p.owner_id
               WHERE ${where} ORDER BY p.date DESC, p.id DESC LIMIT ${size} OFFSET ${offset}`,
        );
  return { rows: rows.map(presentPayout), total: Number(count?.n ?? 0) };
};

export type StatementProperty = {
  property_id: number | null;
  property_name: string | null;
  share_percent: number | null;
  opening_balance: string;
  collected: string;
  expenses: string;
  management_fees: string;
  rental_tax: string;
  payouts: string;
  adjustments: string;
  closing_balance: string;
  reserve: string;
  available: string;
  units: number;
  occupied_units: number;
  arrears: { tenant_name: string; unit_name: string | null; amount: string }[];
};

export type OwnerStatement = {
  owner_id: number;
  owner_name: string;
  from: string;
  to: string;
  properties: StatementProperty[];
  totals: Omit<
    StatementProperty,
    'property_id' | 'property_name' | 'share_percent' | 'units' | 'occupied_units' | 'arrears'
  >;
};

/** What each journal source is on a statement (a reversal counts as what it reverses). */
const KIND = sql`CASE coalesce(r.source, e.source)
  WHEN 'payment' THEN 'collected' WHEN 'deposit_applied' THEN 'collected'
  WHEN 'expense' THEN 'expenses'
  WHEN 'management_fee' THEN 'fees' WHEN 'monthly_fee' THEN 'fees'
  WHEN 'rental_tax' THEN 'tax'
  WHEN 'owner_payout' THEN 'payouts'
  ELSE 'adjustments' END`;

/**
 * An owner's statement of `from` through `to`: per property, the funds held at the start, what was
 * collected for them (their share), the expenses, fees, rental tax and payouts taken from it, any
 * other entry (adjustments), the funds held at the end and what is available (less their share of the
 * reserve); occupancy and each tenant's arrears on the property. Read from the journal alone: opening
 * + collected − expenses − fees − tax − payouts + adjustments = closing, by construction and by test.
 */
export const ownerStatement = async (
  db: DbOrTx,
  companyId: number,
  ownerId: number,
  from: string,
  to: string,
): Promise<OwnerStatement> => {
  const owner = await ensureOwner(db, companyId, ownerId);
  const funds = await fundsByProperty(db, companyId, ownerId, to);
  const moves = await execRows<{ property_id: number | null; kind: string; before: string; amount: string }>(
    db,
    sql`SELECT l.property_id, CASE WHEN l.date < ${from}::date THEN 'opening' ELSE ${KIND} END AS kind,
               sum(l.credit - l.debit)::text AS amount
          FROM journal_lines l
          JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.role = 'owner_funds'
          JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
          LEFT JOIN journal_entries r ON r.company_id = e.company_id AND r.id = e.reverses_id
         WHERE l.company_id = ${companyId} AND l.owner_id = ${ownerId} AND l.date <= ${to}::date
         GROUP BY 1, 2`,
  );
  const ids = funds.map((f) => f.property_id).filter((p): p is number => p !== null);
  const ownership = await ownershipOf(db, companyId, ids);
  const occupancy =
    ids.length === 0
      ? []
      : await execRows<{ id: number; units: number; occupied: number }>(
          db,
          sql`SELECT p.id, count(u.id)::int AS units,
                     count(u.id) FILTER (WHERE EXISTS (
                       SELECT 1 FROM occupancy o WHERE o.company_id = u.company_id AND o.unit_id = u.id
                          AND o.is_active AND o.occupancy_status <> 'terminated'
                          AND o.start_date <= ${to}::date AND COALESCE(o.end_date, 'infinity'::date) >= ${to}::date
                     ))::int AS occupied
                FROM properties p LEFT JOIN units u ON u.company_id = p.company_id AND u.property_id = p.id
               WHERE p.company_id = ${companyId} AND p.id = ANY(${`{${ids.join(',')}}`}::int[])
               GROUP BY p.id`,
        );
  // each tenant's arrears on the property: their leases' receivable as the journal holds it on `to`
  const arrears =
    ids.length === 0
      ? []
      : await execRows<{
          property_id: number;
          tenant_name: string;
          unit_name: string | null;
          amount: string;
        }>(
          db,
          sql`SELECT l.property_id, t.first_name || ' ' || t.last_name AS tenant_name, u.name AS unit_name,
                     sum(l.debit - l.credit)::text AS amount
                FROM journal_lines l
                JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.role = 'receivable'
                JOIN tenants t ON t.company_id = l.company_id AND t.id = l.tenant_id
                LEFT JOIN units u ON u.company_id = l.company_id AND u.id = l.unit_id
               WHERE l.company_id = ${companyId} AND l.property_id = ANY(${`{${ids.join(',')}}`}::int[])
                 AND l.date <= ${to}::date
               GROUP BY l.property_id, l.tenant_id, t.first_name, t.last_name, u.name
              HAVING sum(l.debit - l.credit) > 0
               ORDER BY l.property_id, sum(l.debit - l.credit) DESC, tenant_name`,
        );
  const zero = () => ({
    opening: 0n,
    collected: 0n,
    expenses: 0n,
    fees: 0n,
    tax: 0n,
    payouts: 0n,
    adjustments: 0n,
  });
  type Sums = ReturnType<typeof zero>;
  const byProperty = new Map<number | null, Sums>();
  for (const m of moves) {
    const id = m.property_id === null ? null : Number(m.property_id);
    const s = byProperty.get(id) ?? zero();
    const c = toCents(m.amount);
    // funds in are credits; the deductions are shown as positive amounts taken out
    if (m.kind === 'opening') s.opening += c;
    else if (m.kind === 'collected') s.collected += c;
    else if (m.kind === 'expenses') s.expenses -= c;
    else if (m.kind === 'fees') s.fees -= c;
    else if (m.kind === 'tax') s.tax -= c;
    else if (m.kind === 'payouts') s.payouts -= c;
    else s.adjustments += c;
    byProperty.set(id, s);
  }
  const closingOf = (s: Sums) =>
    s.opening + s.collected - s.expenses - s.fees - s.tax - s.payouts + s.adjustments;
  const totals = zero();
  let totalReserve = 0n;
  const properties: StatementProperty[] = funds.map((f) => {
    const s = byProperty.get(f.property_id) ?? zero();
    for (const k of Object.keys(totals) as (keyof Sums)[]) totals[k] += s[k];
    totalReserve += f.reserve;
    const closing = closingOf(s);
    const occ = occupancy.find((o) => Number(o.id) === f.property_id);
    const share = ownership.on(f.property_id, to).find((x) => x.owner_id === ownerId);
    return {
      property_id: f.property_id,
      property_name: f.property_name,
      share_percent: share ? Number(fromCents(share.hundredths)) : null,
      opening_balance: fromCents(s.opening),
      collected: fromCents(s.collected),
      expenses: fromCents(s.expenses),
      management_fees: fromCents(s.fees),
      rental_tax: fromCents(s.tax),
      payouts: fromCents(s.payouts),
      adjustments: fromCents(s.adjustments),
      closing_balance: fromCents(closing),
      reserve: fromCents(f.reserve),
      available: fromCents(closing - f.reserve > 0n ? closing - f.reserve : 0n),
      units: Number(occ?.units ?? 0),
      occupied_units: Number(occ?.occupied ?? 0),
      arrears: arrears
        .filter((a) => Number(a.property_id) === f.property_id)
        .map((a) => ({
          tenant_name: a.tenant_name,
          unit_name: a.unit_name,
          amount: fromCents(toCents(a.amount)),
        })),
    };
  });
  const closing = closingOf(totals);
  return {
    owner_id: owner.id,
    owner_name: owner.name,
    from,
    to,
    properties,
    totals: {
      opening_balance: fromCents(totals.opening),
      collected: fromCents(totals.collected),
      expenses: fromCents(totals.expenses),
      management_fees: fromCents(totals.fees),
      rental_tax: fromCents(totals.tax),
      payouts: fromCents(totals.payouts),
      adjustments: fromCents(totals.adjustments),
      closing_balance: fromCents(closing),
      reserve: fromCents(totalReserve),
      available: fromCents(closing - totalReserve > 0n ? closing - totalReserve : 0n),
    },
  };
};
