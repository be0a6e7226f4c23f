/**
 * `npm run backup -- <file>` and `npm run restore -- <file>`.
 * PostgreSQL (DATABASE_URL set): pg_dump's custom format and pg_restore.
 * Embedded (PGlite under DATA_DIR): PGlite's own data-directory dump (a gzipped tar), loaded back
 * into a fresh data directory. Stop the server first when it runs on the embedded database.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';

const run = (cmd: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}`))));
  });

export const backup = async (file: string, env: NodeJS.ProcessEnv = process.env): Promise<void> => {
  const config = loadConfig(env);
  if (config.databaseUrl) {
    await run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, config.databaseUrl]);
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const dir = path.join(config.dataDir, 'pglite');
  if (!fs.existsSync(dir)) throw new Error(`No embedded database at ${dir}`);
  const db = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } });
  const dump = await db.dumpDataDir('gzip');
  await db.close();
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
};

export const restore = async (file: string, env: NodeJS.ProcessEnv = process.env): Promise<void> => {
  const config = loadConfig(env);
  if (!fs.existsSync(file)) throw new Error(`No backup file at ${file}`);
  if (config.databaseUrl) {
    await run('pg_restore', [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      `--dbname=${config.databaseUrl}`,
      file,
    ]);
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const dir = path.join(config.dataDir, 'pglite');
  if (fs.existsSync(dir)) fs.renameSync(dir, `${dir}.before-restore-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  const blob = new Blob([fs.readFileSync(file)], { type: 'application/x-gzip' });
  const db = await PGlite.create({ dataDir: dir, loadDataDir: blob, extensions: { pg_trgm } });
  await db.query('SELECT 1');
  await db.close();
};

const isMain = process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]));
if (isMain) {
  const [verb, file] = process.argv.slice(2);
  if ((verb !== 'backup' && verb !== 'restore') || !file) {
    console.error('usage: npm run backup -- <file>   |   npm run restore -- <file>');
    process.exit(2);
  }
  (verb === 'backup' ? backup(file) : restore(file))
    .then(() => console.log(`${verb} done: ${path.resolve(file)}`))
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
