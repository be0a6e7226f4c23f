import { addMonths, localTime } from '@kodi/domain';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { dropPostgresDatabase, freshPostgresDatabase } from '../db/databases.ts';
import { postCompanyRent } from '../modules/books/rent.ts';
import { seedReferenceData } from '../db/seed/reference-data.ts';

/**
 * A quick timing of the daily run's rent posting (issue 25, budget 60 s): a company of N leases (100,000
 * by default) all falling due today, posted by `postCompanyRent` through today (leases never posted:
 * the full reconciliation), then a month later (leases posted already, same terms: the daily path).
 *   npx tsx apps/server/src/bench/rent-posting.ts [leases]             (PGlite, in memory)
 *   DATABASE_URL=postgres://… npx tsx apps/server/src/bench/rent-posting.ts [leases]
 */
const n = Number(process.argv[2] ?? 100_000);
const base = process.env.DATABASE_URL;
const name = `kodi_rent_posting_${process.pid}`;
const database: Database = base
  ? await openPostgres(await freshPostgresDatabase(base, name))
  : await openPglite();
try {
  const today = localTime('UTC').date;
  await seedReferenceData(database.db);
  const [company] = await database.query<{ id: number }>(
    `INSERT INTO companies (name, email, currency_code, country_code) VALUES ('Timing', 't@t.test', 'UGX', 'UGA') RETURNING id`,
  );
  const c = Number(company?.id);
  await database.query(
    `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate)
     SELECT $1, 'U' || g, 'Kampala', 500000, 150000, 30000 FROM generate_series(1, $2) g`,
    [c, n],
  );
  await database.query(
    `INSERT INTO tenants (company_id, first_name, last_name, sex, phone, date_of_birth)
     SELECT $1, 'T' || g, 'N', 'F', '0772' || lpad(g::text, 6, '0'), '1990-01-01' FROM generate_series(1, $2) g`,
    [c, n],
  );
  await database.query(
    `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate, rent_cycle)
     SELECT $1, t.id, u.id, $2::date, 500000, 'monthly'
       FROM (SELECT id, row_number() OVER (ORDER BY id) r FROM tenants WHERE company_id = $1) t
       JOIN (SELECT id, row_number() OVER (ORDER BY id) r FROM units WHERE company_id = $1) u ON u.r = t.r`,
    [c, today],
  );
  for (const [label, day] of [
    ['first posting (no state)', today],
    ['a month later (daily path)', addMonths(today, 1)],
    ['again (nothing new)', addMonths(today, 1)],
  ] as const) {
    const t0 = performance.now();
    const posted = await postCompanyRent(database, c, day);
    console.log(
      `${database.driver} ${n} leases, ${label}: ${posted} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
} finally {
  await database.close();
  if (base) await dropPostgresDatabase(base, name);
}
