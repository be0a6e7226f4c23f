import { pathToFileURL } from 'node:url';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { dropPostgresDatabase, freshPostgresDatabase } from '../db/databases.ts';
import { seedReferenceData } from '../db/seed/reference-data.ts';
import { billUtilities } from '../modules/utilities/billing.ts';
import type { Row } from './report.ts';

/**
 * A timing of the utility billing run (issue 28, budget 30 s): a company of N units (20,000 by
 * default), each let, with a water meter on a block tariff and one ready reading, billed by one run
 * (`billUtilities`: N charges posted to the books, N readings marked), then the run again (nothing).
 *   npx tsx apps/server/src/bench/utility-billing.ts [meters]             (PGlite, in memory)
 *   DATABASE_URL=postgres://… npx tsx apps/server/src/bench/utility-billing.ts [meters]
 * `npm run bench` runs it on PostgreSQL as its part `utilities` (`utilityBillingPhase`).
 */

export const BILLING_BUDGET_S = 30;

const fill = async (database: Database, n: number): Promise<number> => {
  await seedReferenceData(database.db);
  const [company] = await database.query<{ id: number }>(
    `INSERT INTO companies (name, email, currency_code, country_code) VALUES ('Timing', 't@t.test', 'KES', 'KEN') RETURNING id`,
  );
  const c = Number(company?.id);
  const [property] = await database.query<{ id: number }>(
    `INSERT INTO properties (company_id, name, address) VALUES ($1, 'Block', 'Nairobi') RETURNING id`,
    [c],
  );
  const p = Number(property?.id);
  await database.query(
    `INSERT INTO units (company_id, name, address, property_id, monthly_rate, weekly_rate, daily_rate)
     SELECT $1, 'U' || g, 'Nairobi', $3, 20000, 6000, 1000 FROM generate_series(1, $2) g`,
    [c, n, p],
  );
  await database.query(
    `INSERT INTO tenants (company_id, first_name, last_name, sex, phone, date_of_birth)
     SELECT $1, 'T' || g, 'N', 'F', '0722' || lpad(g::text, 6, '0'), '1990-01-01' FROM generate_series(1, $2) g`,
    [c, n],
  );
  await database.query(
    `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate, rent_cycle)
     SELECT $1, t.id, u.id, '2026-01-01', 20000, 'monthly'
       FROM (SELECT id, row_number() OVER (ORDER BY id) r FROM tenants WHERE company_id = $1) t
       JOIN (SELECT id, row_number() OVER (ORDER BY id) r FROM units WHERE company_id = $1) u ON u.r = t.r`,
    [c],
  );
  const [tariff] = await database.query<{ id: number }>(
    `INSERT INTO tariffs (company_id, name, kind, blocks, fixed_charge, minimum_charge)
     VALUES ($1, 'Water', 'water', '10: 150.5; 30: 200; above: 250.25', 300, 1000) RETURNING id`,
    [c],
  );
  await database.query(
    `INSERT INTO meters (company_id, number, kind, unit_id, property_id, unit_of_measure, tariff_id, installed_on, initial_reading)
     SELECT $1, 'WM-' || u.id, 'water', u.id, $2, 'm3', $3, '2026-01-01', 1000 FROM units u WHERE u.company_id = $1`,
    [c, p, Number(tariff?.id)],
  );
  await database.query(
    `INSERT INTO meter_readings (company_id, meter_id, reading_date, value, previous_value, previous_date, consumption,
                                 status, property_id)
     SELECT $1, m.id, '2026-01-31', 1000 + (m.id % 40) + 0.5, 1000, '2026-01-01', (m.id % 40) + 0.5, 'ready', $2
       FROM meters m WHERE m.company_id = $1`,
    [c, p],
  );
  // as autovacuum would after such a load: the planner knows the tables' sizes
  await database.query('ANALYZE');
  return c;
};

/** Fills a company of `n` let units with a reading each and times its billing run, then the run again. */
export const timeUtilityBilling = async (
  database: Database,
  n: number,
): Promise<{ seconds: number; again: number; charges: number }> => {
  const c = await fill(database, n);
  const t0 = performance.now();
  const first = await billUtilities(database, { companyId: c, periodEnd: '2026-01-31' });
  const seconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const second = await billUtilities(database, { companyId: c, periodEnd: '2026-01-31' });
  if (second.readings_billed !== 0) throw new Error('utility billing: a second run billed again');
  return { seconds, again: (performance.now() - t1) / 1000, charges: first.charges_made };
};

/** `npm run bench`'s part `utilities`: the run of 20,000 meters on a database of its own. */
export const utilityBillingPhase = async (p: {
  databaseUrl: string;
  reduced: boolean;
  add: (row: Row) => void;
  log: (...args: unknown[]) => void;
}) => {
  const n = p.reduced ? 500 : 20_000;
  const name = `${new URL(p.databaseUrl).pathname.slice(1)}_utilities`;
  const database = await openPostgres(await freshPostgresDatabase(p.databaseUrl, name));
  try {
    const r = await timeUtilityBilling(database, n);
    p.add({
      db: 'PostgreSQL',
      endpoint: `utility billing run (${n.toLocaleString('en-US')} meters)`,
      p50: Math.round(r.seconds * 1000),
      budget: `< ${BILLING_BUDGET_S} s`,
      note: `${r.charges.toLocaleString('en-US')} charges posted; again: ${r.again.toFixed(1)} s, nothing billed`,
      ok: p.reduced || r.seconds < BILLING_BUDGET_S,
    });
    p.log(`utility billing: ${n} meters in ${r.seconds.toFixed(1)} s (again ${r.again.toFixed(1)} s)`);
  } finally {
    await database.close();
    await dropPostgresDatabase(p.databaseUrl, name);
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const n = Number(process.argv[2] ?? 20_000);
  const base = process.env.DATABASE_URL;
  const name = `kodi_utility_billing_${process.pid}`;
  const database: Database = base
    ? await openPostgres(await freshPostgresDatabase(base, name))
    : await openPglite();
  try {
    const r = await timeUtilityBilling(database, n);
    console.log(
      `${database.driver} ${n} meters: ${r.charges} charges billed and posted in ${r.seconds.toFixed(1)} s; again (nothing) in ${r.again.toFixed(1)} s`,
    );
  } finally {
    await database.close();
    if (base) await dropPostgresDatabase(base, name);
  }
}
