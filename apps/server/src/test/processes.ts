import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { serverRoot } from '../db/client.ts';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * Starts the real server (src/main.ts through tsx) as its own process and waits for /health
 * (60 s unless `startTimeoutMs` says otherwise: a first start on a new embedded database is slow on a busy machine).
 */
export const startServerProcess = async (
  env: Record<string, string>,
  { startTimeoutMs = 60_000 }: { startTimeoutMs?: number } = {},
): Promise<ServerProcess> => {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverRoot, 'src', 'main.ts')], {
    cwd: serverRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/rentapi/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL'); // not left running behind a failed test
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, output: () => out, stop: stopper(child) };
};

/** Stops a child process with SIGTERM; resolves once it has exited. */
export const stopper = (child: ChildProcess) => (): Promise<void> =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** A fetch-based browser: one cookie jar, the CSRF token, for talking to real server processes. */
export class HttpClient {
  cookie = '';
  csrf = '';
  async call(
    base: string,
    method: string,
    p: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}/rentapi/api${p}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('kodi_sid='));
    if (set) this.cookie = set.split(';')[0] ?? '';
    const text = await res.text();
    const json =
      (res.headers.get('content-type') ?? '').includes('json') && text
        ? (JSON.parse(text) as Record<string, unknown>)
        : {};
    if (typeof json.csrf_token === 'string') this.csrf = json.csrf_token;
    return { status: res.status, json };
  }
}
