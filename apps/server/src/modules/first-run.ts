import { hashPassword } from '../platform/passwords.ts';
import { randomToken } from '../platform/tokens.ts';
import type { Config } from '../config.ts';
import { sql } from 'drizzle-orm';
import { execRows, type Database } from '../db/client.ts';
import { seedReferenceData } from '../db/seed/reference-data.ts';
import { seedDemoData } from '../db/seed/demo.ts';
import { advisoryLocks } from '../db/advisory-locks.ts';
import { createFirstAdmin } from './identity/accounts.ts';
import { recordColumns } from '../crud/record-columns.ts';

/** The company the demo data lives in (never the administrator's). */
export const DEMO_COMPANY_NAME = 'Demo Properties';

export type BootstrapResult = { createdAdmin?: { email: string; password: string; generated: boolean } };

/**
 * First run: reference data (idempotent), then, on an empty database, a first company and its admin
 * (the company empty), and the demo data in its own company ('Demo Properties') when asked for. A PostgreSQL advisory lock keeps two starting servers apart.
 */
export const bootstrap = async (
  database: Database,
  config: Config,
  today = new Date(),
): Promise<BootstrapResult> => {
  const { db } = database;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${advisoryLocks.startUp})`);
    await seedReferenceData(tx);
    const users = await execRows<{ n: number }>(tx, 'SELECT count(*)::int AS n FROM users');
    if (Number(users[0]?.n ?? 0) > 0) return {};

    const email = (config.adminEmail ?? 'admin@kodi.local').toLowerCase();
    const generated = !config.adminPassword;
    const password = config.adminPassword ?? randomToken(12);
    const companyId = await recordColumns.insert(tx, 'companies', null, {
      name: 'Kodi Properties',
      email: 'office@kodi.local',
      currency_code: 'UGX',
      country_code: 'UGA',
      address: 'Plot 12, Kampala Road, Kampala',
      industry_type: 'Real estate',
      description: 'Residential and commercial rentals in Kampala.',
    });
    const passwordHash = await hashPassword(password);
    await createFirstAdmin(tx, { email, companyId, countryCode: 'UGA', passwordHash });
    // the demo data lives in a company of its own: the administrator's starts clean (issue 26); an
    // admin looks at the demo by choosing 'Demo Properties' as their profile's company
    if (config.demoData) {
      const demoId = await recordColumns.insert(tx, 'companies', null, {
        name: DEMO_COMPANY_NAME,
        email: 'demo@kodi.local',
        currency_code: 'UGX',
        country_code: 'UGA',
        address: 'Plot 14, Acacia Avenue, Kololo, Kampala',
        industry_type: 'Real estate',
        description: 'Demo data: residential and commercial rentals in Kampala, made up.',
      });
      await seedDemoData(tx, demoId, today);
    }
    return { createdAdmin: { email, password, generated } };
  });
};
