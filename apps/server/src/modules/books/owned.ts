import { sql } from 'drizzle-orm';
import { execRows, jsonColumn, type DbOrTx } from '../../db/client.ts';
import { fromCents, toCents, type PostLine } from './post.ts';

/**
 * The books of an agency (issue 27, docs/decisions.md "What money events post for an owned
 * property"): who owns a property on a day (the owners' shares in force: the latest set from that day
 * or before; a set without shares, or none, is the company's own property), its management agreement,
 * and the lines that move money to and from the owners' funds, one line per owner by their share.
 * Read here, written by features/owners (the shares, the agreements).
 */

export type Share = { owner_id: number; hundredths: bigint };

export type Agreement = {
  fee_kind: 'percent_of_collected' | 'fixed_monthly' | 'per_occupied_unit';
  /** a percent in hundredths (1000 = 10%) for percent_of_collected, else cents */
  fee_amount: bigint;
  minimum_fee: bigint;
  reserve: bigint;
  withhold_rental_tax: boolean;
  /** hundredths of a percent */
  rental_tax_rate: bigint;
};

/** The owners' shares of some properties by day. */
export type Ownership = {
  /** none of the properties ever had owners */
  none: boolean;
  /** the shares in force on `day` (empty: the company's own property) */
  on: (propertyId: number | null | undefined, day: string) => Share[];
};

const idList = (ids: readonly number[]) => `{${[...new Set(ids)].sort((a, b) => a - b).join(',')}}`;

type ShareRow = {
  property_id: number;
  effective_from: string;
  owner_id: number | null;
  share_percent: string | null;
};

/** The owners' shares of some properties from their rows, newest set first per property. */
const ownershipFromRows = (rows: readonly ShareRow[]): Ownership => {
  const sets = new Map<number, { from: string; shares: Share[] }[]>();
  for (const r of rows) {
    const p = Number(r.property_id);
    const list = sets.get(p) ?? [];
    let set = list.find((x) => x.from === r.effective_from);
    if (!set) {
      set = { from: r.effective_from, shares: [] };
      list.push(set);
    }
    if (r.owner_id !== null && r.share_percent !== null)
      set.shares.push({ owner_id: Number(r.owner_id), hundredths: toCents(r.share_percent) });
    sets.set(p, list);
  }
  return {
    none: sets.size === 0,
    on: (propertyId, day) => {
      if (propertyId === null || propertyId === undefined) return [];
      // newest first: the first set from the day or before
      return sets.get(propertyId)?.find((s) => s.from <= day)?.shares ?? [];
    },
  };
};

/** The owners' shares of these properties, every set of them (one read). */
export const ownershipOf = async (
  tx: DbOrTx,
  companyId: number,
  propertyIds: readonly (number | null | undefined)[],
): Promise<Ownership> => {
  const ids = propertyIds.filter((p): p is number => typeof p === 'number' && Number.isInteger(p));
  if (ids.length === 0) return ownershipFromRows([]);
  return ownershipFromRows(
    await execRows<ShareRow>(
      tx,
      sql`SELECT s.property_id, to_char(s.effective_from, 'YYYY-MM-DD') AS effective_from, h.owner_id,
                 h.share_percent::text AS share_percent
            FROM property_owner_sets s
            LEFT JOIN property_owner_shares h ON h.company_id = s.company_id AND h.set_id = s.id
           WHERE s.company_id = ${companyId} AND s.property_id = ANY(${idList(ids)}::int[])
           ORDER BY s.property_id, s.effective_from DESC, h.share_percent DESC, h.owner_id`,
    ),
  );
};

type AgreementRow = {
  property_id: number;
  fee_kind: Agreement['fee_kind'];
  fee_amount: string;
  minimum_fee: string;
  reserve: string;
  withhold_rental_tax: boolean;
  rental_tax_rate: string;
};

const agreementsFromRows = (rows: readonly AgreementRow[]): Map<number, Agreement> =>
  new Map(
    rows.map((r) => [
      Number(r.property_id),
      {
        fee_kind: r.fee_kind,
        fee_amount: toCents(r.fee_amount),
        minimum_fee: toCents(r.minimum_fee),
        reserve: toCents(r.reserve),
        withhold_rental_tax: Boolean(r.withhold_rental_tax),
        rental_tax_rate: toCents(r.rental_tax_rate),
      },
    ]),
  );

/** The management agreements of these properties. */
export const agreementsOf = async (
  tx: DbOrTx,
  companyId: number,
  propertyIds: readonly (number | null | undefined)[],
): Promise<Map<number, Agreement>> => {
  const ids = propertyIds.filter((p): p is number => typeof p === 'number' && Number.isInteger(p));
  if (ids.length === 0) return new Map();
  return agreementsFromRows(
    await execRows<AgreementRow>(
      tx,
      sql`SELECT property_id, fee_kind, fee_amount::text AS fee_amount, minimum_fee::text AS minimum_fee,
                 reserve::text AS reserve, withhold_rental_tax, rental_tax_rate::text AS rental_tax_rate
            FROM management_agreements
           WHERE company_id = ${companyId} AND property_id = ANY(${idList(ids)}::int[])`,
    ),
  );
};

/**
 * An amount split by the owners' shares, to the cent: each owner's share rounded towards zero, what
 * is left over (a few cents) to the first owner (the largest share).
 */
export const splitByShares = (
  cents: bigint,
  shares: readonly Share[],
): { owner_id: number; cents: bigint }[] => {
  const parts = shares.map((s) => ({ owner_id: s.owner_id, cents: (cents * s.hundredths) / 10000n }));
  const rest = cents - parts.reduce((sum, p) => sum + p.cents, 0n);
  if (parts[0]) parts[0].cents += rest;
  return parts;
};

/** A percent (in hundredths) of an amount, rounded half away from zero to the cent. */
export const percentOf = (cents: bigint, hundredths: bigint): bigint => {
  const x = cents * hundredths;
  const negative = x < 0n;
  const a = negative ? -x : x;
  const r = (a + 5000n) / 10000n;
  return negative ? -r : r;
};

type Dims = Omit<PostLine, 'role' | 'account_id' | 'debit' | 'credit' | 'due_date'>;

/**
 * Lines moving an amount into (a credit: `side` 'credit') or out of (a debit) the owners' funds, one
 * per owner by their share, with the property's dimensions; and the other side on `role`.
 */
export const ownerFundLines = (
  cents: bigint,
  shares: readonly Share[],
  side: 'credit' | 'debit',
  counter: { role?: string; account_id?: number },
  dims: Dims,
): PostLine[] => {
  if (cents === 0n || shares.length === 0) return [];
  const amount = fromCents(cents);
  const other: 'credit' | 'debit' = side === 'credit' ? 'debit' : 'credit';
  return [
    { ...counter, [other]: amount, ...dims },
    ...splitByShares(cents, shares).map((p) => ({
      role: 'owner_funds',
      [side]: fromCents(p.cents),
      ...dims,
      owner_id: p.owner_id,
    })),
  ];
};

/** What a collection on an owned property posts besides the money in and the receivable out. */
export type Collection = {
  /** Dr Rent due to owners / Cr Owner funds held, per owner (in the payment's own entry) */
  collected: PostLine[];
  /** the percent_of_collected fee: Dr Owner funds held per owner / Cr Management fee income */
  fee: PostLine[];
  /** rental tax withheld: Dr Owner funds held per owner / Cr Rental tax payable */
  tax: PostLine[];
};

/** The lines of money collected on an owned property (none on the company's own). */
export const collectionLines = (
  cents: bigint,
  shares: readonly Share[],
  agreement: Agreement | undefined,
  dims: Dims,
): Collection => {
  if (shares.length === 0 || cents === 0n) return { collected: [], fee: [], tax: [] };
  const collected = ownerFundLines(cents, shares, 'credit', { role: 'owner_rent_due' }, dims);
  const fee =
    agreement?.fee_kind === 'percent_of_collected'
      ? ownerFundLines(
          percentOf(cents, agreement.fee_amount),
          shares,
          'debit',
          { role: 'management_fee_income' },
          dims,
        )
      : [];
  const tax = agreement?.withhold_rental_tax
    ? ownerFundLines(
        percentOf(cents, agreement.rental_tax_rate),
        shares,
        'debit',
        { role: 'rental_tax_payable' },
        dims,
      )
    : [];
  return { collected, fee, tax };
};

/** What the hooks of several records read once: their units' properties, those properties' shares and agreements. */
export type OwnedContext = {
  propertyOf: (unitId: number | null, propertyId?: number | null) => number | null;
  shares: (propertyId: number | null, day: string) => Share[];
  agreement: (propertyId: number | null) => Agreement | undefined;
};

export const ownedContext = async (
  tx: DbOrTx,
  companyId: number,
  rows: readonly { unit_id?: unknown; property_id?: unknown }[],
): Promise<OwnedContext> => {
  const n = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
  const ids = (list: (number | null)[]) =>
    idList(list.filter((v): v is number => v !== null && Number.isInteger(v)));
  // the units' properties, and those properties' (and the rows' own) shares and agreements: one read
  const [read] = await execRows<{
    units: { id: number; property_id: number }[] | string;
    shares: ShareRow[] | string;
    agreements: AgreementRow[] | string;
  }>(
    tx,
    sql`WITH u AS (SELECT id, property_id FROM units
                    WHERE company_id = ${companyId} AND id = ANY(${ids(rows.map((r) => n(r.unit_id)))}::int[])),
             p AS (SELECT x AS id FROM unnest(${ids(rows.map((r) => n(r.property_id)))}::int[]) AS x
                   UNION SELECT property_id FROM u)
        SELECT (SELECT coalesce(json_agg(json_build_object('id', id, 'property_id', property_id)), '[]') FROM u) AS units,
               (SELECT coalesce(json_agg(json_build_object(
                         'property_id', s.property_id, 'effective_from', to_char(s.effective_from, 'YYYY-MM-DD'),
                         'owner_id', h.owner_id, 'share_percent', h.share_percent::text)
                         ORDER BY s.property_id, s.effective_from DESC, h.share_percent DESC, h.owner_id), '[]')
                  FROM property_owner_sets s
                  LEFT JOIN property_owner_shares h ON h.company_id = s.company_id AND h.set_id = s.id
                 WHERE s.company_id = ${companyId} AND s.property_id IN (SELECT id FROM p)) AS shares,
               (SELECT coalesce(json_agg(json_build_object(
                         'property_id', property_id, 'fee_kind', fee_kind, 'fee_amount', fee_amount::text,
                         'minimum_fee', minimum_fee::text, 'reserve', reserve::text,
                         'withhold_rental_tax', withhold_rental_tax, 'rental_tax_rate', rental_tax_rate::text)), '[]')
                  FROM management_agreements
                 WHERE company_id = ${companyId} AND property_id IN (SELECT id FROM p)) AS agreements`,
  );
  const units = new Map(
    jsonColumn<{ id: number; property_id: number }[]>(read?.units, []).map((u) => [
      Number(u.id),
      Number(u.property_id),
    ]),
  );
  const ownership = ownershipFromRows(jsonColumn<ShareRow[]>(read?.shares, []));
  const agreements = agreementsFromRows(jsonColumn<AgreementRow[]>(read?.agreements, []));
  const propertyOf = (unitId: number | null, propertyId: number | null = null) =>
    propertyId ?? (unitId === null ? null : (units.get(unitId) ?? null));
  return {
    propertyOf,
    shares: (propertyId, day) => ownership.on(propertyId, day),
    agreement: (propertyId) => (propertyId === null ? undefined : agreements.get(propertyId)),
  };
};
