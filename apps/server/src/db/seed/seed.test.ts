import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../client.ts';
import { companies } from '../schema.ts';
import { PHONE_PATTERN } from '@kodi/domain';
import { toE164 } from '../../modules/companies/phones.ts';
import { followLeases } from '../../modules/leases/unit-status.ts';
import { seedDemoData } from './demo.ts';
import { countryRows, currencyRows, seedReferenceData } from './reference-data.ts';

const TODAY = new Date('2026-11-22T09:30:00Z');

let database: Database;
let companyId: number;

const count = async (table: string, where = 'TRUE'): Promise<number> => {
  const [row] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`);
  return row?.n ?? -1;
};
const referenceCounts = async () => ({
  roles: await count('roles'),
  countries: await count('countries'),
  currencies: await count('currencies'),
});

beforeAll(async () => {
  database = await openPglite();
}, 60_000);

afterAll(async () => {
  await database?.close();
});

describe('reference data', () => {
  it('has unique, well-formed rows whose currencies point at listed countries', () => {
    const codes = new Set(countryRows.map((c) => c.country_code));
    expect(codes.size).toBe(countryRows.length);
    expect(countryRows.every((c) => /^[A-Z]{3}$/.test(c.country_code) && c.phone_code > 0)).toBe(true);
    expect(new Set(currencyRows.map((c) => c.currency_code)).size).toBe(currencyRows.length);
    for (const c of currencyRows) {
      expect(c.symbol.length).toBeLessThanOrEqual(10);
      if (c.country !== null) expect(codes.has(c.country), `${c.currency_code} → ${c.country}`).toBe(true);
    }
  });

  it('seeds roles, countries and currencies idempotently', async () => {
    await seedReferenceData(database.db);
    const first = await referenceCounts();
    await seedReferenceData(database.db);
    expect(await referenceCounts()).toEqual(first);

    // the four staff roles and the portals' (the tenant's and the owner's)
    expect(first.roles).toBe(6);
    expect(first.countries).toBeGreaterThanOrEqual(240);
    expect(first.currencies).toBeGreaterThanOrEqual(150);

    const phones = await database.query<{ country_code: string; phone_code: number }>(
      `SELECT country_code, phone_code FROM countries WHERE country_code IN ('UGA', 'USA', 'GBR', 'KEN') ORDER BY country_code`,
    );
    expect(phones).toEqual([
      { country_code: 'GBR', phone_code: 44 },
      { country_code: 'KEN', phone_code: 254 },
      { country_code: 'UGA', phone_code: 256 },
      { country_code: 'USA', phone_code: 1 },
    ]);
    const money = await database.query<{
      currency_code: string;
      decimal_places: number;
      country: string | null;
    }>(
      `SELECT currency_code, decimal_places, country FROM currencies
        WHERE currency_code IN ('UGX', 'USD', 'JPY', 'KWD', 'EUR') ORDER BY currency_code`,
    );
    expect(money).toEqual([
      { currency_code: 'EUR', decimal_places: 2, country: null },
      { currency_code: 'JPY', decimal_places: 0, country: 'JPN' },
      { currency_code: 'KWD', decimal_places: 3, country: 'KWT' },
      { currency_code: 'UGX', decimal_places: 0, country: 'UGA' },
      { currency_code: 'USD', decimal_places: 2, country: 'USA' },
    ]);
  });
});

describe('demo data', () => {
  beforeAll(async () => {
    await seedReferenceData(database.db);
    const [company] = await database.db
      .insert(companies)
      .values({ name: 'Kampala Homes Ltd', currency_code: 'UGX' })
      .returning({ id: companies.id });
    if (!company) throw new Error('no company');
    companyId = company.id;
    await seedDemoData(database.db, companyId, TODAY);
  }, 60_000);

  const own = () => `company_id = ${companyId}`;

  it('fills every table with a believable amount of data', async () => {
    expect(await count('vendors', own())).toBe(8);
    expect(await count('units', own())).toBe(24);
    expect(await count('units', `${own()} AND status = 'occupied'`)).toBeGreaterThanOrEqual(16);
    expect(await count('units', `${own()} AND status = 'available'`)).toBeGreaterThanOrEqual(2);
    expect(await count('units', `${own()} AND status = 'maintenance'`)).toBe(1);
    const tenantCount = await count('tenants', own());
    expect(tenantCount).toBeGreaterThanOrEqual(18);
    expect(tenantCount).toBeLessThanOrEqual(25);
    const occupancyCount = await count('occupancy', own());
    expect(occupancyCount).toBeGreaterThanOrEqual(18);
    expect(occupancyCount).toBeLessThanOrEqual(25);
    expect(
      await count('occupancy', `${own()} AND occupancy_status = 'terminated' AND end_date < '2026-11-22'`),
    ).toBeGreaterThan(0);
    const paymentCount = await count('payments', own());
    expect(paymentCount).toBeGreaterThanOrEqual(200);
    expect(paymentCount).toBeLessThanOrEqual(400);
    expect(await count('payments', `${own()} AND status = 'failed'`)).toBe(1);
    expect(await count('payments', `${own()} AND status = 'pending'`)).toBeGreaterThan(0);
    expect(await count('expenses', own())).toBe(80);
    expect(await count('maintenance_requests', own())).toBe(10);
    expect(await count('employees', own())).toBe(5);
    // issue 27: two owners of three buildings (Naguru View shared 60/40), each at 10% of what is collected
    expect(await count('owners', own())).toBe(2);
    expect(await count('property_owner_shares', own())).toBe(4);
    expect(
      await count(
        'management_agreements',
        `${own()} AND fee_kind = 'percent_of_collected' AND fee_amount = 10`,
      ),
    ).toBe(3);
    expect(await count('commission_wages', `${own()} AND payment_category = 'salary'`)).toBe(60);
    expect(await count('commission_wages', `${own()} AND status = 'pending'`)).toBe(5);
    expect(
      await count(
        'commission_wages',
        `${own()} AND payment_category = 'commission' AND commission_split_percentage > 0`,
      ),
    ).toBeGreaterThan(0);
  });

  it('has one active lease per occupied unit and none on the others', async () => {
    const rows = await database.query<{ status: string; active: number }>(
      `SELECT u.status, count(o.id)::int AS active
         FROM units u LEFT JOIN occupancy o ON o.unit_id = u.id AND o.occupancy_status = 'active'
        WHERE u.company_id = $1 GROUP BY u.id, u.status`,
      [companyId],
    );
    for (const r of rows) expect(r.active).toBe(r.status === 'occupied' ? 1 : 0);
  });

  it('marks occupied exactly the units a lease lets on its day (the statuses follow the leases)', async () => {
    const units = await database.query<{ id: number }>('SELECT id FROM units WHERE company_id = $1', [
      companyId,
    ]);
    const changed = await database.db.transaction((tx) =>
      followLeases(
        tx,
        companyId,
        TODAY.toISOString().slice(0, 10),
        units.map((u) => u.id),
      ),
    );
    expect(changed).toEqual([]);
  });

  it('numbers payments and receipts without gaps, in date order, and keeps the counters in step', async () => {
    const rows = await database.query<{
      serial: string;
      receipt: string | null;
      status: string;
      payment_date: string;
    }>(
      `SELECT payment_serial AS serial, receipt_number AS receipt, status, payment_date::text AS payment_date
         FROM payments WHERE company_id = $1 ORDER BY payment_serial`,
      [companyId],
    );
    rows.forEach((r, i) => expect(r.serial).toBe(`PAY-${String(i + 1).padStart(6, '0')}`));
    const dates = rows.map((r) => r.payment_date);
    expect(dates).toEqual([...dates].sort());
    expect(dates.every((d) => d <= '2026-11-22')).toBe(true);

    const completed = rows.filter((r) => r.status === 'completed');
    expect(completed.every((r) => r.receipt !== null)).toBe(true);
    expect(rows.filter((r) => r.status !== 'completed').every((r) => r.receipt === null)).toBe(true);
    completed.forEach((r, i) => expect(r.receipt).toBe(`RCT-${String(i + 1).padStart(6, '0')}`));

    const counterRows = await database.query<{ name: string; value: string }>(
      `SELECT name, value::text AS value FROM counters WHERE company_id = $1 ORDER BY name`,
      [companyId],
    );
    expect(counterRows).toEqual([
      { name: 'payment_serial', value: String(rows.length) },
      { name: 'receipt_number', value: String(completed.length) },
    ]);
  });

  it('ties every payment to a lease of the same tenant and unit, within the lease', async () => {
    expect(
      await count(
        `payments p JOIN occupancy o ON o.company_id = p.company_id AND o.id = p.occupancy_id`,
        `p.company_id = ${companyId} AND (o.tenant_id <> p.tenant_id OR o.unit_id <> p.unit_id
          OR p.effective_start_date < o.start_date OR (o.end_date IS NOT NULL AND p.effective_start_date > o.end_date)
          OR p.effective_end_date < p.effective_start_date)`,
      ),
    ).toBe(0);
    expect(await count('payments', `${own()} AND amount_paid <= 0`)).toBe(0);
  });

  it('totals money exactly in SQL', async () => {
    const [row] = await database.query<{ total: string | null }>(
      `SELECT sum(amount_paid)::text AS total FROM payments WHERE company_id = $1 AND status = 'completed'`,
      [companyId],
    );
    expect(typeof row?.total).toBe('string');
    expect(row?.total).toMatch(/^\d+(\.\d{1,2})?$/);
    expect(Number(row?.total)).toBeGreaterThan(0);
  });

  it('keeps tenants’ phones in E.164, as the app saves them', async () => {
    const rows = await database.query<{ phone: string; country_code: string | null }>(
      `SELECT phone, country_code FROM tenants WHERE company_id = $1`,
      [companyId],
    );
    for (const r of rows) {
      expect(r.phone).toMatch(PHONE_PATTERN);
      expect(toE164(r.phone, null)).toBe(r.phone);
      expect(r.country_code).toBe('+256');
    }
  });

  it('produces the same data for the same day', async () => {
    const snapshot = async (id: number) =>
      database.query<{ t: string }>(
        `SELECT string_agg(payment_serial || coalesce(receipt_number, '-') || payment_date || amount_paid || status
                           || reference_number || invoice_id, ',' ORDER BY payment_serial) AS t
           FROM payments WHERE company_id = $1`,
        [id],
      );
    const [other] = await database.db
      .insert(companies)
      .values({ name: 'Second Co', currency_code: 'UGX' })
      .returning({ id: companies.id });
    if (!other) throw new Error('no company');
    await seedDemoData(database.db, other.id, TODAY);
    expect(await snapshot(other.id)).toEqual(await snapshot(companyId));
  }, 60_000);
});
