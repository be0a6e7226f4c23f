import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { bootstrap } from '../modules/first-run.ts';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { generateDataset, type DatasetSize } from './dataset.ts';
import { staffUser } from './working-day.ts';

export { dropPostgresDatabase, freshPostgresDatabase } from '../db/databases.ts';

export const BENCH_ADMIN = { email: 'bench@kodi.test', password: 'bench-admin-password' };

/** Staff users of the large company the working day signs in as (bench/working-day.ts). */
export const STAFF_USERS = 32;

/**
 * `STAFF_USERS` staff of the first company, with the administrator's password: every fourth an
 * admin, the others editors (`staffUser`).
 */
const createStaff = async (database: Database) => {
  const staff = Array.from({ length: STAFF_USERS }, (_, i) => ({ ...staffUser(i), n: i + 1 }));
  await database.query(
    `INSERT INTO users (email, first_name, last_name, company_id, country_code, password_hash)
     SELECT s.email, 'Staff', 'Member ' || s.n, a.company_id, a.country_code, a.password_hash
       FROM users a, json_to_recordset($2::json) AS s(email text, n int)
      WHERE a.email = $1`,
    [BENCH_ADMIN.email, JSON.stringify(staff)],
  );
  await database.query(
    `INSERT INTO user_roles (user_id, role_id)
     SELECT u.id, r.id FROM users u, json_to_recordset($1::json) AS s(email text, admin boolean), roles r
      WHERE u.email = s.email AND r.name = CASE WHEN s.admin THEN 'admin' ELSE 'editor' END`,
    [JSON.stringify(staff)],
  );
};

/** Migrations, the first company and its admin (no demo data), then the benchmark's dataset. */
export const loadDataset = async (database: Database, size: DatasetSize): Promise<void> => {
  await bootstrap(
    database,
    loadConfig({ DEMO_DATA: '0', ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password }),
  );
  await createStaff(database);
  await generateDataset(database, 1, size);
  await database.query(database.driver === 'pg' ? 'VACUUM ANALYZE' : 'VACUUM ANALYZE');
};

export const preparePostgres = async (url: string, size: DatasetSize): Promise<void> => {
  const database = await openPostgres(url, 4);
  try {
    await loadDataset(database, size);
  } finally {
    await database.close();
  }
};

/** A fresh DATA_DIR holding an embedded database with the same dataset. */
export const preparePglite = async (dataDir: string, size: DatasetSize): Promise<void> => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    await loadDataset(database, size);
  } finally {
    await database.close();
  }
};
