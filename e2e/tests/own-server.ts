import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A Kodi server a spec starts for itself (its own port, database and environment). */
export type OwnServer = { process: ChildProcess; log: () => string };

/**
 * Starts the built server (apps/server/dist/main.js) with `env` beside the test's own environment,
 * and waits (up to 170 s) until `${base}/rentapi/api/health` answers; its last output is kept for
 * the errors.
 */
export const startOwnServer = async (base: string, env: NodeJS.ProcessEnv): Promise<OwnServer> => {
  let log = '';
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited:\n${log}`);
    if (Date.now() > deadline) throw new Error(`The server did not start:\n${log}`);
    const up = await fetch(`${base}/rentapi/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { process: child, log: () => log };
    await new Promise((r) => setTimeout(r, 500));
  }
};

/** Stops a server `startOwnServer` started: SIGTERM, then SIGKILL after 20 s. */
export const stopOwnServer = async (server: OwnServer | undefined) => {
  const child = server?.process;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
};

/**
 * Fails when something already answers on `base` (a server left over from an earlier run): a spec
 * never talks to a server it did not start. `variable` names the setting that moves the port.
 */
export const assertPortFree = async (base: string, variable: string) => {
  const leftover = await fetch(`${base}/rentapi/api/health`).then(
    () => true,
    () => false,
  );
  if (leftover) throw new Error(`${base} is in use; set ${variable} to a free port.`);
};

/** The settings every spec's own server shares: its port and data, a first administrator, no demo data. */
export const ownServerEnv = (o: {
  base: string;
  dataDir: string;
  databaseUrl?: string;
  admin: { email: string; password: string };
  captcha: string;
}): NodeJS.ProcessEnv => ({
  PORT: new URL(o.base).port,
  HOST: '127.0.0.1',
  DATA_DIR: o.dataDir,
  DATABASE_URL: o.databaseUrl ?? '',
  DEMO_DATA: '0',
  ADMIN_EMAIL: o.admin.email,
  ADMIN_PASSWORD: o.admin.password,
  CAPTCHA_TEST_ANSWER: o.captcha,
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  PUBLIC_URL: o.base,
});
