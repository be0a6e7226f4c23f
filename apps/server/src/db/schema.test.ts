import { beforeEach, describe, expect, it } from 'vitest';
import { resetDatabase, testDatabase, testDriver } from '../test/harness.ts';
import { buildCompany } from '../test/factories.ts';
import type { Database } from './client.ts';
import { findPgError } from '../plugins/errors.ts';

const pgCode = async (p: Promise<unknown>): Promise<string | undefined> => {
  try {
    await p;
    return undefined;
  } catch (err) {
    return findPgError(err)?.code;
  }
};

describe(`database schema (${testDriver})`, () => {
  let database: Database;
  let a: number;
  let b: number;

  const unit = async (companyId: number) =>
    Number(
      (
        await database.query<{ id: number }>(
          `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate)
           VALUES ($1, 'U', 'Addr', 100, 25, 4) RETURNING id`,
          [companyId],
        )
      )[0]?.id,
    );
  const tenant = async (companyId: number) =>
    Number(
      (
        await database.query<{ id: number }>(
          `INSERT INTO tenants (company_id, first_name, last_name, sex, phone, date_of_birth)
           VALUES ($1, 'T', 'N', 'F', '+256772000000', '1990-01-01') RETURNING id`,
          [companyId],
        )
      )[0]?.id,
    );

  beforeEach(async () => {
    database = await testDatabase();
    await resetDatabase(database);
    a = (await buildCompany(database)).id;
    b = (await buildCompany(database)).id;
  });

  it("refuses, in the database itself, a reference to another company's record", async () => {
    const unitOfB = await unit(b);
    const tenantOfA = await tenant(a);
    const code = await pgCode(
      database.query(
        `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate) VALUES ($1, $2, $3, '2026-01-01', 100)`,
        [a, tenantOfA, unitOfB],
      ),
    );
    expect(code).toBe('23503'); // foreign_key_violation
    const unitOfA = await unit(a);
    await database.query(
      `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate) VALUES ($1, $2, $3, '2026-01-01', 100)`,
      [a, tenantOfA, unitOfA],
    );
  });

  it('restricts deleting a referenced record', async () => {
    const u = await unit(a);
    const tn = await tenant(a);
    await database.query(
      `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate) VALUES ($1, $2, $3, '2026-01-01', 100)`,
      [a, tn, u],
    );
    // ON DELETE RESTRICT: PostgreSQL 18 says 23001 restrict_violation, 15 says 23503 foreign_key_violation
    const refused = ['23001', '23503'];
    expect(refused).toContain(await pgCode(database.query('DELETE FROM units WHERE id = $1', [u])));
    expect(refused).toContain(await pgCode(database.query('DELETE FROM companies WHERE id = $1', [a])));
    expect(refused).toContain(
      await pgCode(database.query(`DELETE FROM currencies WHERE currency_code = 'UGX'`)),
    );
  });

  it("keeps status-like columns to the spec's values and money exact", async () => {
    expect(
      await pgCode(
        database.query(
          `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate, status)
           VALUES ($1, 'U', 'A', 1, 1, 1, 'vacant')`,
          [a],
        ),
      ),
    ).toBe('23514');
    expect(
      await pgCode(
        database.query(
          `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate) VALUES ($1, 'U', 'A', 0, 1, 1)`,
          [a],
        ),
      ),
    ).toBe('23514');
    await database.query(
      `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate)
       VALUES ($1, 'A', 'A', 0.1, 1, 1), ($1, 'B', 'B', 0.2, 1, 1)`,
      [a],
    );
    const sum = await database.query<{ s: string }>(
      `SELECT sum(monthly_rate)::text AS s FROM units WHERE company_id = $1`,
      [a],
    );
    expect(sum[0]?.s).toBe('0.30');
  });

  it('gives every company-owned table an indexed company_id and every table created_at, updated_at, version', async () => {
    const cols = await database.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name IN ('created_at', 'updated_at', 'version')`,
    );
    const tables = await database.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of tables) {
      expect(cols.filter((c) => c.table_name === table_name).length, table_name).toBe(3);
    }
    const owned = [
      'units',
      'tenants',
      'occupancy',
      'payments',
      'maintenance_requests',
      'expenses',
      'vendors',
      'employees',
      'commission_wages',
      'counters',
      'audit_entries',
      'imports',
      'import_rows',
    ];
    for (const table of owned) {
      const idx = await database.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE '%(company_id%'`,
        [table],
      );
      expect(idx.length, table).toBeGreaterThan(0);
    }
  });
});
