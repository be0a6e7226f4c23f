import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { bootstrap } from '../db/bootstrap.ts';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { generateDataset, type DatasetSize } from './dataset.ts';

export { dropPostgresDatabase, freshPostgresDatabase } from '../db/databases.ts';

export const BENCH_ADMIN = { email: 'bench@kodi.test', password: 'bench-admin-password' };

/** Migrations, the first company and its admin (no demo data), then the benchmark's dataset. */
export const loadDataset = async (database: Database, size: DatasetSize): Promise<void> => {
  await bootstrap(
    database,
    loadConfig({ DEMO_DATA: '0', ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password }),
  );
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
