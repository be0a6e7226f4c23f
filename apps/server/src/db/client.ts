import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type the code sees, whichever driver (pg or PGlite) is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A transaction has the same query surface. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  driver: 'pg' | 'pglite';
  close: () => Promise<void>;
  /** rows of a raw statement, for both drivers. */
  query: <T extends Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
};

/** apps/server, found from this file whether it runs from src/ or from the dist/ bundle. */
export const serverRoot = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, 'drizzle', 'meta', '_journal.json'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error('Cannot find the migrations folder (apps/server/drizzle).');
})();
export const migrationsFolder = path.join(serverRoot, 'drizzle');

export const openPostgres = async (url: string, max = 16): Promise<Database> => {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  // DATE stays 'YYYY-MM-DD', NUMERIC stays an exact string, BIGINT a string: no float anywhere.
  const types = { getTypeParser: pg.types.getTypeParser };
  const pool = new pg.Pool({ connectionString: url, max, types });
  pool.on('error', () => {
    /* an idle client's error is reported on its next use */
  });
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  await migrate(drizzle({ client: pool, schema }), { migrationsFolder });
  return {
    db,
    driver: 'pg',
    close: () => pool.end(),
    query: async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      (await pool.query(text, params)).rows as T[],
  };
};

export const openPglite = async (dataDir?: string): Promise<Database> => {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    driver: 'pglite',
    close: () => client.close(),
    query: async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      (await client.query<T>(text, params)).rows,
  };
};

export const openDatabase = (opts: { databaseUrl?: string; dataDir: string }): Promise<Database> =>
  opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(path.join(opts.dataDir, 'pglite'));

/** Rows of a raw statement run through drizzle (inside a transaction too), for both drivers. */
export const execRows = async <T>(db: DbOrTx, query: SQL | string): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;
