import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import { syncDerived } from './derived.ts';
import { advisoryLocks } from './advisory-locks.ts';

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
  /**
   * The same for a hot statement of fixed text: on PostgreSQL it is parsed (and planned, when a
   * generic plan does) once per connection, as a named prepared statement. Only for text built from
   * code, never from input: each distinct text is kept by every connection.
   */
  prepared: <T extends Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
  /**
   * SQL a library brings (the job runner, pg-boss): a statement with parameters, or several without,
   * answered as the pg driver answers (one result, or a list of them for several statements).
   */
  sql: (text: string, params?: unknown[]) => Promise<unknown>;
  /**
   * Runs `fn` while this process holds PostgreSQL's session advisory lock `key` (on a connection of
   * its own): servers starting together on one database do it one after the other. The embedded
   * database has one process: it just runs `fn`.
   */
  exclusive: <T>(key: number, fn: () => Promise<T>) => Promise<T>;
};

/** Named prepared statements per text, up to a bound (beyond it, statements run unnamed). */
const statementNames = new Map<string, string>();
const statementName = (text: string): string | undefined => {
  let name = statementNames.get(text);
  if (!name && statementNames.size < 1000) {
    name = `kodi_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
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
  // jit=off: short OLTP queries never repay LLVM's compile time (a 12-month report spent 0.8 s compiling).
  const pool = new pg.Pool({ connectionString: url, max, types, options: '-c jit=off' });
  pool.on('error', () => {
    /* an idle client's error is reported on its next use */
  });
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  // Two servers starting together on an empty database: one migrates, the other waits for it (on one
  // connection, which holds the session-level advisory lock), then finds nothing left to do.
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [advisoryLocks.migrations]);
    await migrate(drizzle({ client, schema }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [advisoryLocks.migrations]).catch(() => undefined);
    client.release();
  }
  await syncDerived(db);
  return {
    db,
    driver: 'pg',
    close: () => pool.end(),
    query: async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      (await pool.query(text, params)).rows as T[],
    prepared: async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => {
      const name = statementName(text);
      return (await pool.query(name ? { name, text, values: params } : { text, values: params })).rows as T[];
    },
    sql: (text: string, params?: unknown[]) => pool.query(text, params),
    exclusive: async <T>(key: number, fn: () => Promise<T>): Promise<T> => {
      const holder = await pool.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [key]);
        return await fn();
      } finally {
        await holder.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
        holder.release();
      }
    },
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
  await syncDerived(db as unknown as Db);
  return {
    db: db as unknown as Db,
    driver: 'pglite',
    close: () => client.close(),
    query: async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      (await client.query<T>(text, params)).rows,
    prepared: async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      (await client.query<T>(text, params)).rows,
    // PGlite's query takes one statement; exec takes several without parameters
    sql: async (text: string, params?: unknown[]) => {
      if (params && params.length > 0) return client.query(text, params);
      const results = await client.exec(text);
      return results.length === 1 ? results[0] : results;
    },
    exclusive: <T>(_key: number, fn: () => Promise<T>) => fn(),
  };
};

export const openDatabase = (opts: { databaseUrl?: string; dataDir: string }): Promise<Database> =>
  opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(path.join(opts.dataDir, 'pglite'));

/** Rows of a raw statement run through drizzle (inside a transaction too), for both drivers. */
/** A json column's value: pg answers it parsed, a driver may answer its text. */
export const jsonColumn = <T>(v: T | string | null | undefined, fallback: T): T =>
  v === null || v === undefined ? fallback : typeof v === 'string' ? (JSON.parse(v) as T) : v;

export const execRows = async <T>(db: DbOrTx, query: SQL | string): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;
