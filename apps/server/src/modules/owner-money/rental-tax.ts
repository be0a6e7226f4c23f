import { sql } from 'drizzle-orm';
import { AppError, rentalTaxRules, type RentalTaxRules } from '@kodi/domain';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { loadSettings } from '../companies/company-settings.ts';
import { fromCents, toCents } from '../books/post.ts';
import { percentOf } from '../books/owned.ts';

/**
 * The landlords' rental-tax figures (issue 27, docs/decisions.md 'Rental tax figures'). A landlord is
 * the company for its own properties, and each owner for theirs. Gross rent received: on the company's
 * own properties, its tenants' completed payments of the period whose entry holds no owner's line;
 * for an owner, what was collected for them (their share, the statement's 'collected'). Expenses: on
 * the company's own properties, the expense accounts' lines of expenses on a property whose entry holds
 * no owner's line; for an owner, the expenses taken from their funds. Read from the books alone.
 */

export type Landlord = {
  kind: 'company' | 'owner';
  owner_id: number | null;
  name: string;
  tax_id: string | null;
};

export type RentalTaxMonthRow = Landlord & {
  gross_rent: string;
  rate: number;
  tax: string;
  /** rental tax withheld for an owner by the agency in the month (the journal's); null for the company */
  withheld: string | null;
  due_date: string;
};

export type RentalTaxMonth = {
  month: string;
  rate: number;
  due_date: string;
  landlords: RentalTaxMonthRow[];
  totals: { gross_rent: string; tax: string; withheld: string };
};

export type RentalTaxYearRow = Landlord & { gross_rent: string; expenses: string; net: string };

export type RentalTaxYear = {
  tax_year: number;
  from: string;
  to: string;
  landlords: RentalTaxYearRow[];
  totals: { gross_rent: string; expenses: string; net: string };
};

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};
const addMonths = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};

/** The day a month's tax is due: `dueDay` of the month after. */
export const rentalTaxDueDate = (month: string, dueDay: number): string =>
  `${addMonths(month, 1)}-${pad(dueDay)}`;

/** The company's rental-tax rules in force (its settings, or its country's defaults). */
export const companyRentalTaxRules = async (
  database: Database,
  companyId: number,
): Promise<RentalTaxRules & { defaults: RentalTaxRules; country: string | null }> => {
  const settings = await loadSettings(database, companyId);
  const rows = await database.query<{ country: string | null }>(
    'SELECT trim(country_code) AS country FROM companies WHERE id = $1',
    [companyId],
  );
  const country = rows[0]?.country ?? null;
  return { ...rentalTaxRules(settings.rental_tax, country), country };
};

type Sums = Map<number | null, { gross: bigint; expenses: bigint; withheld: bigint }>;

/** Each landlord's gross rent, expenses and tax withheld from `from` through `to` (days), by owner (null: the company). */
const sums = async (db: DbOrTx, companyId: number, from: string, to: string): Promise<Sums> => {
  const noOwnerLine = (entry: ReturnType<typeof sql>) => sql`NOT EXISTS (
      SELECT 1 FROM journal_lines x WHERE x.company_id = ${companyId} AND x.entry_id = ${entry}
         AND x.owner_id IS NOT NULL)`;
  const [company] = await execRows<{ gross: string; expenses: string }>(
    db,
    sql`SELECT
          (SELECT coalesce(sum(p.amount_paid), 0)::text FROM payments p
            WHERE p.company_id = ${companyId} AND p.status = 'completed'
              AND p.payment_date BETWEEN ${from}::date AND ${to}::date
              AND NOT EXISTS (
                SELECT 1 FROM journal_entries e JOIN journal_lines x
                    ON x.company_id = e.company_id AND x.entry_id = e.id AND x.owner_id IS NOT NULL
                 WHERE e.company_id = p.company_id AND e.source = 'payment' AND e.source_id = p.id)) AS gross,
          (SELECT coalesce(sum(l.debit - l.credit), 0)::text FROM journal_lines l
             JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.type = 'expense'
             JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
             LEFT JOIN journal_entries r ON r.company_id = e.company_id AND r.id = e.reverses_id
            WHERE l.company_id = ${companyId} AND coalesce(r.source, e.source) = 'expense'
              AND l.property_id IS NOT NULL AND l.date BETWEEN ${from}::date AND ${to}::date
              AND ${noOwnerLine(sql`e.id`)}) AS expenses`,
  );
  const owners = await execRows<{ owner_id: number; gross: string; expenses: string; withheld: string }>(
    db,
    sql`SELECT l.owner_id,
               coalesce(sum(l.credit - l.debit) FILTER (
                 WHERE coalesce(r.source, e.source) IN ('payment', 'deposit_applied')), 0)::text AS gross,
               coalesce(sum(l.debit - l.credit) FILTER (
                 WHERE coalesce(r.source, e.source) = 'expense'), 0)::text AS expenses,
               coalesce(sum(l.debit - l.credit) FILTER (
                 WHERE coalesce(r.source, e.source) = 'rental_tax'), 0)::text AS withheld
          FROM journal_lines l
          JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.role = 'owner_funds'
          JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
          LEFT JOIN journal_entries r ON r.company_id = e.company_id AND r.id = e.reverses_id
         WHERE l.company_id = ${companyId} AND l.owner_id IS NOT NULL
           AND l.date BETWEEN ${from}::date AND ${to}::date
         GROUP BY l.owner_id`,
  );
  const out: Sums = new Map();
  out.set(null, {
    gross: toCents(company?.gross ?? '0'),
    expenses: toCents(company?.expenses ?? '0'),
    withheld: 0n,
  });
  for (const o of owners)
    out.set(Number(o.owner_id), {
      gross: toCents(o.gross),
      expenses: toCents(o.expenses),
      withheld: toCents(o.withheld),
    });
  return out;
};

/** The landlords: the company first, then every owner by name (nil months included). */
const landlords = async (db: DbOrTx, companyId: number): Promise<Landlord[]> => {
  const rows = await execRows<{ id: number; name: string; tax_id: string | null }>(
    db,
    sql`SELECT id, display_name AS name, tax_id FROM owners WHERE company_id = ${companyId} ORDER BY display_name, id`,
  );
  const [company] = await execRows<{ name: string }>(
    db,
    sql`SELECT name FROM companies WHERE id = ${companyId}`,
  );
  return [
    { kind: 'company', owner_id: null, name: company?.name ?? 'The company', tax_id: null },
    ...rows.map((r) => ({ kind: 'owner' as const, owner_id: Number(r.id), name: r.name, tax_id: r.tax_id })),
  ];
};

/** `rate` is a percent with at most 2 decimals: its hundredths, as `percentOf` takes them. */
const hundredths = (rate: number) => BigInt(Math.round(rate * 100));

/** Each landlord's gross rent received in `month` (YYYY-MM), the tax at the rate in force and its due date. */
export const rentalTaxMonth = async (
  database: Database,
  companyId: number,
  month: string,
): Promise<RentalTaxMonth> => {
  const rules = await companyRentalTaxRules(database, companyId);
  const due = rentalTaxDueDate(month, rules.due_day);
  const got = await sums(database.db, companyId, `${month}-01`, lastDay(month));
  let gross = 0n;
  let tax = 0n;
  let withheld = 0n;
  const rows = (await landlords(database.db, companyId)).map((l): RentalTaxMonthRow => {
    const s = got.get(l.owner_id) ?? { gross: 0n, expenses: 0n, withheld: 0n };
    const t = s.gross > 0n ? percentOf(s.gross, hundredths(rules.rate)) : 0n;
    gross += s.gross;
    tax += t;
    withheld += s.withheld;
    return {
      ...l,
      gross_rent: fromCents(s.gross),
      rate: rules.rate,
      tax: fromCents(t),
      withheld: l.kind === 'owner' ? fromCents(s.withheld) : null,
      due_date: due,
    };
  });
  return {
    month,
    rate: rules.rate,
    due_date: due,
    landlords: rows,
    totals: { gross_rent: fromCents(gross), tax: fromCents(tax), withheld: fromCents(withheld) },
  };
};

/** The months of tax year `year`: from its first month (the company's setting) of `year`, twelve months. */
export const taxYearMonths = (year: number, startMonth: number): { from: string; to: string } => {
  const from = `${year}-${pad(startMonth)}`;
  return { from, to: addMonths(from, 11) };
};

/** Each landlord's gross rent, expenses and the net over tax year `year`. */
export const rentalTaxYear = async (
  database: Database,
  companyId: number,
  year: number,
): Promise<RentalTaxYear> => {
  const rules = await companyRentalTaxRules(database, companyId);
  const { from, to } = taxYearMonths(year, rules.year_start_month);
  const got = await sums(database.db, companyId, `${from}-01`, lastDay(to));
  const totals = { gross: 0n, expenses: 0n };
  const rows = (await landlords(database.db, companyId)).map((l): RentalTaxYearRow => {
    const s = got.get(l.owner_id) ?? { gross: 0n, expenses: 0n, withheld: 0n };
    totals.gross += s.gross;
    totals.expenses += s.expenses;
    return {
      ...l,
      gross_rent: fromCents(s.gross),
      expenses: fromCents(s.expenses),
      net: fromCents(s.gross - s.expenses),
    };
  });
  return {
    tax_year: year,
    from,
    to,
    landlords: rows,
    totals: {
      gross_rent: fromCents(totals.gross),
      expenses: fromCents(totals.expenses),
      net: fromCents(totals.gross - totals.expenses),
    },
  };
};

export type TaxCertificate = {
  month: string;
  company: { name: string; address: string | null; phone: string | null; email: string | null };
  owner: { id: number; name: string; tax_id: string | null };
  properties: {
    property_id: number | null;
    property_name: string | null;
    gross_rent: string;
    withheld: string;
  }[];
  totals: { gross_rent: string; withheld: string };
  due_date: string;
};

/**
 * An owner's rental-tax certificate of `month`: per property, the rent collected for them (their
 * share) and the rental tax withheld from it (the journal's Owner funds held lines of the month), with
 * the company's details; 404 for an owner not of the company.
 */
export const ownerTaxCertificate = async (
  database: Database,
  companyId: number,
  ownerId: number,
  month: string,
): Promise<TaxCertificate> => {
  const db = database.db;
  const [owner] = await execRows<{ id: number; name: string; tax_id: string | null }>(
    db,
    sql`SELECT id, display_name AS name, tax_id FROM owners WHERE company_id = ${companyId} AND id = ${ownerId}`,
  );
  if (!owner) throw new AppError('not_found', 'Owner not found.');
  const [company] = await execRows<TaxCertificate['company']>(
    db,
    sql`SELECT name, address, phone_number AS phone, email FROM companies WHERE id = ${companyId}`,
  );
  const rows = await execRows<{
    property_id: number | null;
    property_name: string | null;
    gross: string;
    withheld: string;
  }>(
    db,
    sql`SELECT l.property_id, p.name AS property_name,
               coalesce(sum(l.credit - l.debit) FILTER (
                 WHERE coalesce(r.source, e.source) IN ('payment', 'deposit_applied')), 0)::text AS gross,
               coalesce(sum(l.debit - l.credit) FILTER (
                 WHERE coalesce(r.source, e.source) = 'rental_tax'), 0)::text AS withheld
          FROM journal_lines l
          JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.role = 'owner_funds'
          JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
          LEFT JOIN journal_entries r ON r.company_id = e.company_id AND r.id = e.reverses_id
          LEFT JOIN properties p ON p.company_id = l.company_id AND p.id = l.property_id
         WHERE l.company_id = ${companyId} AND l.owner_id = ${ownerId}
           AND l.date BETWEEN ${`${month}-01`}::date AND ${lastDay(month)}::date
         GROUP BY l.property_id, p.name
         ORDER BY p.name NULLS LAST, l.property_id`,
  );
  const properties = rows
    .map((r) => ({
      property_id: r.property_id === null ? null : Number(r.property_id),
      property_name: r.property_name,
      gross: toCents(r.gross),
      withheld: toCents(r.withheld),
    }))
    .filter((r) => r.gross !== 0n || r.withheld !== 0n);
  const rules = await companyRentalTaxRules(database, companyId);
  return {
    month,
    company: {
      name: company?.name ?? '',
      address: company?.address ?? null,
      phone: company?.phone ?? null,
      email: company?.email ?? null,
    },
    owner: { id: Number(owner.id), name: owner.name, tax_id: owner.tax_id },
    properties: properties.map((p) => ({
      property_id: p.property_id,
      property_name: p.property_name,
      gross_rent: fromCents(p.gross),
      withheld: fromCents(p.withheld),
    })),
    totals: {
      gross_rent: fromCents(properties.reduce((a, p) => a + p.gross, 0n)),
      withheld: fromCents(properties.reduce((a, p) => a + p.withheld, 0n)),
    },
    due_date: rentalTaxDueDate(month, rules.due_day),
  };
};
