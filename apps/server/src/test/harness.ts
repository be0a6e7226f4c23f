import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.ts';
import { loadConfig, type Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { buildApp, type AppOptions } from '../app.ts';
import type { FastifyInstance } from 'fastify';

/** Which database the API tests run on: PGlite by default, PostgreSQL with TEST_DB=pg. */
export const testDriver = process.env.TEST_DB === 'pg' ? 'pg' : 'pglite';
export const CAPTCHA = 'kodi7';
/** The tests' key for stored secrets (lib/secrets.ts). */
export const TEST_SECRET_KEY = '7f'.repeat(32);

let shared: Promise<Database> | undefined;

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const openPerWorkerPostgres = async (): Promise<Database> => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=pg needs TEST_DATABASE_URL');
  const { default: pg } = await import('pg');
  // Named after the worker process: VITEST_POOL_ID is not unique when several projects run together,
  // and two runs side by side on one PostgreSQL server must not share a database either.
  const name = `kodi_test_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  // The databases of workers that have ended.
  const ended = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname ~ '^kodi_test_[0-9]+$'`,
  );
  for (const { datname } of ended.rows) {
    if (!processAlive(Number(datname.slice('kodi_test_'.length)))) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    }
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return openPostgres(url.toString(), 8);
};

/** One database per test worker (PGlite takes seconds and hundreds of MB to create). */
export const testDatabase = (): Promise<Database> =>
  (shared ??= testDriver === 'pg' ? openPerWorkerPostgres() : openPglite());

/**
 * Every table of the schema but the roles (put back below, never changed by the app) and the
 * checksum of the installed triggers (db/derived.ts: they stay installed).
 */
const TABLES = (Object.values(schema) as unknown[])
  .flatMap((v) => (is(v, PgTable) ? [getTableName(v)] : []))
  .filter((name) => name !== 'roles' && name !== 'derived_state');

/** Empties every table and puts back the few reference rows tests rely on. */
export const resetDatabase = async (database: Database): Promise<void> => {
  await database.query(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY CASCADE`);
  await database.query(`INSERT INTO roles (name, readable_name) VALUES
      ('admin','Admin'),('company_admin','Company admin'),('editor','Editor'),('viewer','Viewer'),('tenant','Tenant'),('owner','Owner')
      ON CONFLICT (name) DO NOTHING`);
  await database.query(`INSERT INTO countries (country_code, country_name, phone_code) VALUES
      ('UGA','Uganda',256),('KEN','Kenya',254),('USA','United States of America',1),('GBR','United Kingdom',44)`);
  await database.query(`INSERT INTO currencies (currency_code, currency_name, symbol, decimal_places, country) VALUES
      ('UGX','Ugandan shilling','USh',0,'UGA'),('KES','Kenyan shilling','KSh',2,'KEN'),
      ('USD','US dollar','$',2,'USA'),('GBP','Pound sterling','£',2,'GBR')`);
};

export const testConfig = (overrides: Partial<Config> = {}): Config => ({
  ...loadConfig({
    NODE_ENV: 'test',
    CAPTCHA_TEST_ANSWER: CAPTCHA,
    DATA_DIR: '/tmp/kodi-test-unused',
    SECRET_KEY: TEST_SECRET_KEY,
  }),
  ...overrides,
});

export type TestContext = { app: FastifyInstance; database: Database; config: Config };

/**
 * A fresh app on the worker's database, emptied. Close the app after the test (the database stays).
 * `options`: what `buildApp` takes besides (entities a test adds).
 */
export const setupApp = async (
  overrides: Partial<Config> = {},
  options: AppOptions = {},
): Promise<TestContext> => {
  const database = await testDatabase();
  await resetDatabase(database);
  const config = testConfig(overrides);
  const app = await buildApp(config, database, options);
  await app.ready();
  return { app, database, config };
};
