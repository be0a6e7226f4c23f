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
