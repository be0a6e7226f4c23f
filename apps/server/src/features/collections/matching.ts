import { sql } from 'drizzle-orm';
import {
  buildLedger,
  centsToNumber,
  formatMoney,
  rateOn,
  type Cents,
  type StatementLineStatus,
} from '@kodi/domain';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { loadLeaseBooks } from '../../modules/leases/lease-book.ts';
import { callingCodeOf, toE164, type CallingCode } from '../../modules/companies/phones.ts';

/**
 * How money received is matched to a lease (docs/decisions.md, 'Collections: matching'), in one
 * module: the payer's phone in E.164 against the tenants' phones, the reference against unit names,
 * tenant names and external_refs (case, spaces and punctuation ignored), the amount against what the
 * lease owes. `matchLine` is the rule alone (no database); `loadMatchIndex` and `dueAmounts` read
 * what it needs, once per statement and once per batch of lines.
 */

/** A lease as the matching sees it. */
export type MatchLease = {
  id: number;
  tenant_id: number;
  unit_id: number;
  start_date: string;
  end_date: string | null;
};

export type MatchIndex = {
  /** E.164 phone → the tenants with that phone */
  byPhone: Map<string, number[]>;
  /** a normalised name or reference → the leases, tenants or units it names */
  byKey: Map<string, { leases: number[]; tenants: number[]; units: number[] }>;
  leases: Map<number, MatchLease>;
  leasesByTenant: Map<number, MatchLease[]>;
  leasesByUnit: Map<number, MatchLease[]>;
  /** the company's country's dialling code (256), for phones written without +code */
  callingCode: number | null;
  /**
   * What staff taught it (issue 26): `phone:+256…` or `reference:<key>` → the lease a line of that
   * payer phone (or that reference, for a line without a phone) was matched to by hand.
   */
  memory: Map<string, number>;
  /** the company's currency, for the reasons' amounts */
  currency: string | null;
};

/** A name or reference compared with case, spaces and punctuation ignored: 'Unit A-12' → 'unita12'. */
export const normalKey = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * A phone in E.164 by the one reading of phones (lib/phones.ts): with its +code (or 00) as written,
 * else as a number of the country whose dialling code is given ('0772 123456' → '+256772123456');
 * null when it is not a number of that country.
 */
export const e164 = (raw: string | null | undefined, callingCode: CallingCode): string | null =>
  toE164(raw, callingCode) ?? null;

type IndexRow = {
  id: number;
  tenant_id: number;
  unit_id: number;
  start_date: string;
  end_date: string | null;
  lease_ref: string | null;
  phone: string | null;
  tenant_code: string | null;
  first_name: string;
  last_name: string;
  tenant_ref: string | null;
  unit_name: string;
  unit_ref: string | null;
};

/** Builds the index from the company's leases with their tenants and units (a pure step: tested alone). */
export const buildMatchIndex = (
  rows: readonly IndexRow[],
  callingCode: number | null,
  memory: readonly MemoryRow[] = [],
  currency: string | null = null,
): MatchIndex => {
  const index: MatchIndex = {
    byPhone: new Map(),
    byKey: new Map(),
    leases: new Map(),
    leasesByTenant: new Map(),
    leasesByUnit: new Map(),
    callingCode,
    memory: new Map(memory.map((m) => [`${m.kind}:${m.key}`, Number(m.occupancy_id)])),
    currency,
  };
  const push = <K, V>(map: Map<K, V[]>, k: K, v: V) => {
    const list = map.get(k);
    if (!list) map.set(k, [v]);
    else if (!list.includes(v)) list.push(v);
  };
  const key = (text: string | null, kind: 'leases' | 'tenants' | 'units', id: number) => {
    if (!text) return;
    const k = normalKey(text);
    if (k.length < 2) return;
    let entry = index.byKey.get(k);
    if (!entry) index.byKey.set(k, (entry = { leases: [], tenants: [], units: [] }));
    if (!entry[kind].includes(id)) entry[kind].push(id);
  };
  for (const r of rows) {
    const lease: MatchLease = {
      id: Number(r.id),
      tenant_id: Number(r.tenant_id),
      unit_id: Number(r.unit_id),
      start_date: String(r.start_date),
      end_date: r.end_date === null ? null : String(r.end_date),
    };
    index.leases.set(lease.id, lease);
    push(index.leasesByTenant, lease.tenant_id, lease);
    push(index.leasesByUnit, lease.unit_id, lease);
    // the tenant's own country code first (its form's field, '+256'), else the company's
    const phone = e164(r.phone, callingCodeOf(r.tenant_code, callingCode));
    if (phone) push(index.byPhone, phone, lease.tenant_id);
    key(r.lease_ref, 'leases', lease.id);
    key(`${r.first_name} ${r.last_name}`, 'tenants', lease.tenant_id);
    key(`${r.last_name} ${r.first_name}`, 'tenants', lease.tenant_id);
    key(r.tenant_ref, 'tenants', lease.tenant_id);
    key(r.unit_name, 'units', lease.unit_id);
    key(r.unit_ref, 'units', lease.unit_id);
  }
  return index;
};

type MemoryRow = { kind: string; key: string; occupancy_id: number };

/** The key a line is remembered by: its payer phone in E.164, else its reference (none: too short). */
export const memoryKey = (
  line: { payer_phone: string | null; reference: string | null },
  callingCode: CallingCode,
): { kind: 'phone' | 'reference'; key: string } | undefined => {
  const phone = e164(line.payer_phone, callingCode);
  if (phone) return { kind: 'phone', key: phone };
  // a reference is remembered only for a line without a phone (a bank transfer's narration): a
  // phone's payer may write 'rent' as anyone else does
  if (line.payer_phone) return undefined;
  const ref = normalKey(line.reference ?? '').slice(0, 300);
  return ref.length >= 4 ? { kind: 'reference', key: ref } : undefined;
};

/**
 * Staff matched a line by hand to one lease: later lines of its phone (or reference) go to that
 * lease. The latest hand match of a key wins.
 */
export const rememberMatch = async (
  tx: DbOrTx,
  companyId: number,
  line: { id: number; payer_phone: string | null; reference: string | null },
  occupancyId: number,
): Promise<void> => {
  const [company] = await execRows<{ phone_code: number | null }>(
    tx,
    sql`SELECT co.phone_code FROM companies c LEFT JOIN countries co ON co.country_code = c.country_code
         WHERE c.id = ${companyId}`,
  );
  const k = memoryKey(line, company?.phone_code ? Number(company.phone_code) : null);
  if (!k) return;
  await execRows(
    tx,
    sql`INSERT INTO match_memory (company_id, kind, key, occupancy_id, line_id)
        VALUES (${companyId}, ${k.kind}, ${k.key}, ${occupancyId}, ${line.id})
        ON CONFLICT (company_id, kind, key) DO UPDATE
          SET occupancy_id = EXCLUDED.occupancy_id, line_id = EXCLUDED.line_id,
              version = match_memory.version + 1, updated_at = now()`,
  );
};

/** The company's leases, tenants and units, and its country's dialling code: read once per statement. */
export const loadMatchIndex = async (db: DbOrTx, companyId: number): Promise<MatchIndex> => {
  const [company] = await execRows<{ phone_code: number | null; currency: string | null }>(
    db,
    sql`SELECT co.phone_code, trim(c.currency_code) AS currency
          FROM companies c LEFT JOIN countries co ON co.country_code = c.country_code
         WHERE c.id = ${companyId}`,
  );
  const memory = await execRows<MemoryRow>(
    db,
    sql`SELECT kind, key, occupancy_id FROM match_memory WHERE company_id = ${companyId}`,
  );
  const rows = await execRows<IndexRow>(
    db,
    sql`SELECT o.id, o.tenant_id, o.unit_id, to_char(o.start_date, 'YYYY-MM-DD') AS start_date,
               to_char(o.end_date, 'YYYY-MM-DD') AS end_date, o.external_ref AS lease_ref,
               t.phone, t.country_code AS tenant_code, t.first_name, t.last_name, t.external_ref AS tenant_ref,
               u.name AS unit_name, u.external_ref AS unit_ref
          FROM occupancy o
          JOIN tenants t ON t.company_id = o.company_id AND t.id = o.tenant_id
          JOIN units u ON u.company_id = o.company_id AND u.id = o.unit_id
         WHERE o.company_id = ${companyId}`,
  );
  const code = company?.phone_code ? Number(company.phone_code) : null;
  return buildMatchIndex(rows, code, memory, company?.currency || null);
};

/** A line as the matching reads it. */
export type MatchInput = {
  date: string;
  /** the amount received, in cents */
  amount: Cents;
  payer_phone: string | null;
  reference: string | null;
};

/**
 * The leases a tenant or unit had on a day: those whose dates hold it, else the latest one started
 * by then (a payment after the end date), else none.
 */
const leasesOn = (list: readonly MatchLease[] | undefined, day: string): MatchLease[] => {
  if (!list) return [];
  const current = list.filter((l) => l.start_date <= day && (l.end_date === null || l.end_date >= day));
  if (current.length > 0) return current;
  const started = list
    .filter((l) => l.start_date <= day)
    .sort((a, b) => (a.start_date < b.start_date ? 1 : -1));
  return started[0] ? [started[0]] : [];
};

/** The leases a reference names: every run of up to 5 of its words, compared as keys. */
export const leasesByReference = (index: MatchIndex, reference: string | null, day: string): MatchLease[] => {
  if (!reference) return [];
  const words = reference.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const found = new Map<number, MatchLease>();
  for (let i = 0; i < words.length; i++) {
    let k = '';
    for (let j = i; j < Math.min(words.length, i + 5); j++) {
      k += normalKey(words[j] ?? '');
      const hit = index.byKey.get(k);
      if (!hit) continue;
      for (const id of hit.leases) {
        const l = index.leases.get(id);
        if (l) found.set(l.id, l);
      }
      for (const t of hit.tenants)
        for (const l of leasesOn(index.leasesByTenant.get(t), day)) found.set(l.id, l);
      for (const u of hit.units) for (const l of leasesOn(index.leasesByUnit.get(u), day)) found.set(l.id, l);
    }
  }
  return [...found.values()];
};

/** The leases of the tenants whose phone is the payer's. */
export const leasesByPhone = (index: MatchIndex, phone: string | null, day: string): MatchLease[] => {
  const p = e164(phone, index.callingCode);
  if (!p) return [];
  const out: MatchLease[] = [];
  for (const t of index.byPhone.get(p) ?? []) out.push(...leasesOn(index.leasesByTenant.get(t), day));
  return out;
};

/** What the matching found for a line, before its amount is compared. */
export type Candidates = {
  byPhone: MatchLease[];
  byReference: MatchLease[];
  /** the lease staff matched a line of this phone (or reference) to, and by which */
  remembered?: { lease: MatchLease; by: 'phone' | 'reference' } | undefined;
  /** the tenants whose phone is the payer's */
  phoneTenants?: number;
  /** the line's phone is one of the company's country (or has its +code) */
  phoneRead?: boolean;
};

export const candidatesOf = (index: MatchIndex, line: MatchInput): Candidates => {
  const k = memoryKey(line, index.callingCode);
  const id = k ? index.memory.get(`${k.kind}:${k.key}`) : undefined;
  const lease = id === undefined ? undefined : index.leases.get(id);
  const phone = e164(line.payer_phone, index.callingCode);
  return {
    byPhone: leasesByPhone(index, line.payer_phone, line.date),
    byReference: leasesByReference(index, line.reference, line.date),
    remembered: lease && k ? { lease, by: k.kind } : undefined,
    phoneTenants: phone ? (index.byPhone.get(phone)?.length ?? 0) : 0,
    phoneRead: phone !== null,
  };
};

/** The leases whose amount due must be known to decide (a phone or a reference naming one lease). */
export const needsDue = (c: Candidates): number[] => {
  if (c.remembered) return [];
  if (c.byPhone.length === 1 && c.byPhone[0]) return [c.byPhone[0].id];
  if (c.byPhone.length === 0 && c.byReference.length === 1 && c.byReference[0]) return [c.byReference[0].id];
  return [];
};

export type MatchResult = {
  status: Exclude<StatementLineStatus, 'ignored'>;
  confidence: number;
  occupancy_id: number | null;
  tenant_id: number | null;
  /** matched with certainty: posted at once when the company's `auto_post_matches` is on */
  certain: boolean;
  /** why (issue 26): what the matching found, or what stopped it */
  reason: string;
};

/** The reasons a line gives (issue 26). */
export const matchReasons = {
  remembered: (by: 'phone' | 'reference') =>
    `Matched by hand before: a line of this ${by === 'phone' ? 'phone' : 'reference'} went to this lease`,
  phoneAndReference: 'The phone and the reference name this lease',
  phoneAndAmount: 'The tenant with this phone owes exactly this amount',
  amountDiffers: (due: string) => `Amount differs from the rent due (${due})`,
  referenceOnly: 'Found by its reference only: no tenant has this phone',
  referenceNoPhone: 'Found by its reference (no phone)',
  severalLeases: 'The tenant has several leases: split the amount between them',
  sharedPhone: 'Two tenants share this phone',
  noPhoneTenant: 'No tenant has this phone',
  noLease: 'The tenant with this phone has no lease on that day',
  unreadablePhone: "The phone is not a number of the company's country",
  severalReferences: 'The reference names several tenants',
  nothing: 'No phone or reference names a tenant',
} as const;

const UNMATCHED: MatchResult = {
  status: 'unmatched',
  confidence: 0,
  occupancy_id: null,
  tenant_id: null,
  certain: false,
  reason: matchReasons.nothing,
};

/**
 * The rule (issue 18):
 * - phone and reference naming the same one lease, or a phone naming one lease with exactly the amount
 *   due (the rent in force that day, or the balance owed that day): certain, `matched` when
 *   `autoPost`, else `suggested`;
 * - one lease by phone, or one by reference, with any amount: `suggested` with its confidence;
 * - a tenant with two leases or more (found by phone or reference): never certain; `suggested` with
 *   the tenant (and the lease, when the reference picks one), so that the user splits it;
 * - anything else `unmatched`.
 * `due` answers the amounts that count as due for a lease on the line's date.
 */
export const decideMatch = (
  index: MatchIndex,
  line: MatchInput,
  c: Candidates,
  due: (leaseId: number) => readonly Cents[],
  autoPost: boolean,
): MatchResult => {
  const tenantLeases = (l: MatchLease) => leasesOn(index.leasesByTenant.get(l.tenant_id), line.date).length;
  const result = (lease: MatchLease, certain: boolean, confidence: number, reason: string): MatchResult => {
    const sure = certain && tenantLeases(lease) === 1;
    return {
      status: sure && autoPost ? 'matched' : 'suggested',
      confidence: sure ? confidence : Math.min(confidence, 80),
      occupancy_id: lease.id,
      tenant_id: lease.tenant_id,
      certain: sure,
      reason,
    };
  };
  /** why a lease found is only suggested: its amount is not the rent due (named), or the finding */
  const amountReason = (lease: MatchLease, otherwise: string): { exact: boolean; reason: string } => {
    const amounts = due(lease.id);
    if (amounts.some((d) => d === line.amount)) return { exact: true, reason: otherwise };
    const [rent] = amounts;
    return rent === undefined
      ? { exact: false, reason: otherwise }
      : {
          exact: false,
          reason: matchReasons.amountDiffers(formatMoney(centsToNumber(rent), index.currency ?? undefined)),
        };
  };
  // what staff matched by hand before comes first (issue 26)
  if (c.remembered) return result(c.remembered.lease, true, 90, matchReasons.remembered(c.remembered.by));
  const refIds = new Set(c.byReference.map((l) => l.id));
  const both = c.byPhone.filter((l) => refIds.has(l.id));
  if (both.length === 1 && both[0]) return result(both[0], true, 95, matchReasons.phoneAndReference);
  if (c.byPhone.length === 1 && c.byPhone[0]) {
    const lease = c.byPhone[0];
    const { exact, reason } = amountReason(lease, matchReasons.phoneAndAmount);
    return result(
      lease,
      exact,
      exact ? 90 : 70,
      exact && tenantLeases(lease) > 1 ? matchReasons.severalLeases : reason,
    );
  }
  if (c.byPhone.length === 0 && c.byReference.length === 1 && c.byReference[0]) {
    const lease = c.byReference[0];
    const found = !line.payer_phone
      ? matchReasons.referenceNoPhone
      : c.phoneRead === false
        ? matchReasons.unreadablePhone
        : matchReasons.referenceOnly;
    const { exact, reason } = amountReason(lease, found);
    return result(lease, false, 60, exact ? found : `${found}. ${reason}`);
  }
  // several leases: one tenant's (the user splits it), or nobody's in particular
  const found = c.byPhone.length > 0 ? c.byPhone : c.byReference;
  const tenants = new Set(found.map((l) => l.tenant_id));
  const [tenant] = tenants;
  if (tenants.size === 1 && tenant !== undefined)
    return {
      status: 'suggested',
      confidence: 50,
      occupancy_id: null,
      tenant_id: tenant,
      certain: false,
      reason: matchReasons.severalLeases,
    };
  const reason =
    (c.phoneTenants ?? 0) > 1
      ? matchReasons.sharedPhone
      : (c.phoneTenants ?? 0) === 1 && c.byPhone.length === 0
        ? matchReasons.noLease
        : c.byReference.length > 1
          ? matchReasons.severalReferences
          : line.payer_phone && c.phoneRead === false
            ? matchReasons.unreadablePhone
            : line.payer_phone
              ? matchReasons.noPhoneTenant
              : matchReasons.nothing;
  return { ...UNMATCHED, reason };
};

/**
 * What counts as due for these leases on each day asked: the rent in force that day and the balance
 * owed that day (when more than nothing), from the lease books (lib/lease-book.ts, the ledger's rules).
 */
export const dueAmounts = async (
  database: Database,
  companyId: number,
  asked: readonly { leaseId: number; date: string }[],
): Promise<Map<string, Cents[]>> => {
  const out = new Map<string, Cents[]>();
  if (asked.length === 0) return out;
  const ids = [...new Set(asked.map((a) => a.leaseId))].filter((n) => Number.isInteger(n));
  const through = asked.reduce((m, a) => (a.date > m ? a.date : m), asked[0]?.date ?? '');
  const books = new Map<number, Awaited<ReturnType<typeof loadLeaseBooks>>[number]>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const b of await loadLeaseBooks(database, companyId, {
      after: 0,
      limit: chunk.length,
      startedBy: through,
      through,
      where: `o.id IN (${chunk.map(Number).join(',')})`,
    }))
      books.set(b.lease.id, b);
  }
  // one ledger per lease, through the batch's last day: the balance on a day is the running balance
  // of its last entry on or before that day
  const ledgers = new Map<number, { dates: string[]; balances: Cents[] }>();
  for (const [id, book] of books) {
    const { entries } = buildLedger(book.lease, book.payments, through, book.extras);
    ledgers.set(id, { dates: entries.map((e) => e.date), balances: entries.map((e) => e.balance) });
  }
  const balanceOn = (leaseId: number, day: string): Cents => {
    const l = ledgers.get(leaseId);
    if (!l) return 0n;
    let lo = 0;
    let hi = l.dates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((l.dates[mid] ?? '') <= day) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0n : (l.balances[lo - 1] ?? 0n);
  };
  for (const a of asked) {
    const key = `${a.leaseId}:${a.date}`;
    const book = books.get(a.leaseId);
    if (!book || out.has(key)) continue;
    const amounts: Cents[] = [rateOn(book.lease, a.date)];
    const balance = balanceOn(a.leaseId, a.date);
    if (balance > 0n) amounts.push(balance);
    out.set(key, amounts);
  }
  return out;
};

/** Matches lines in a batch: candidates, the amounts due of the leases that need them, the rule. */
export const matchLines = async (
  database: Database,
  companyId: number,
  index: MatchIndex,
  lines: readonly MatchInput[],
  autoPost: boolean,
): Promise<MatchResult[]> => {
  const cands = lines.map((l) => candidatesOf(index, l));
  const asked = cands.flatMap((c, i) =>
    needsDue(c).map((leaseId) => ({ leaseId, date: lines[i]?.date ?? '' })),
  );
  const dues = await dueAmounts(database, companyId, asked);
  return lines.map((l, i) =>
    decideMatch(
      index,
      l,
      cands[i] ?? { byPhone: [], byReference: [] },
      (id) => dues.get(`${id}:${l.date}`) ?? [],
      autoPost,
    ),
  );
};
