import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { serverRoot } from '../db/client.ts';
import { freePort, stopper } from '../test/processes.ts';
import type { LoadAnswer, LoadMessage, LoadResult, LoadSpec } from './load.ts';
import type { MixPlan, MixResult } from './working-day.ts';

export const repoRoot = path.resolve(serverRoot, '..', '..');

export type Child = {
  url: string;
  pid: number;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

const waitFor = async (child: ChildProcess, url: string, out: () => string, seconds: number) => {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${out()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`process did not start:\n${out()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

const startChild = async (
  args: string[],
  env: Record<string, string>,
  ready: (url: string) => string,
  cwd = repoRoot,
  seconds = 300,
): Promise<Child> => {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(child, ready(url), () => out, seconds);
  return {
    url,
    pid: child.pid ?? 0,
    child,
    output: () => out,
    stop: stopper(child),
  };
};

/** The real server, as deployed: the esbuild bundle run by node. */
/**
 * The built server in its own process. Its first start on a bulk-loaded dataset posts the dataset's
 * history to the books before it listens (the upgrade, docs/decisions.md "Rent posting"): on the
 * embedded database, one core of a shared machine, that takes minutes, hence 15 minutes to start.
 */
export const startKodi = (env: Record<string, string>): Promise<Child> =>
  startChild(
    [path.join(serverRoot, 'dist', 'main.js')],
    { NODE_ENV: 'development', LOG_LEVEL: 'warn', ...env },
    (url) => `${url}/rentapi/api/health`,
    repoRoot,
    900,
  );

/** The bare baseline (bench/baseline.ts) in its own process. */
export const startBaseline = (env: Record<string, string>): Promise<Child> =>
  startChild(
    ['--import', 'tsx', path.join(serverRoot, 'src', 'bench', 'baseline.ts')],
    env,
    (url) => `${url}/sql`,
  );

/** The resident memory of a process now, in MB (Linux). */
export const rssMb = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};

/** Samples a process's memory every 100 ms until stopped; answers the peak. */
export const memorySampler = (pid: number) => {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid));
    },
  };
};

/**
 * The load generator (bench/load.ts), one process for the whole benchmark. `run(spec)` starts a run;
 * its `stop()` ends it early and it still answers the results so far.
 */
export const startLoadGenerator = () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(serverRoot, 'src', 'bench', 'load.ts')],
    {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let nextId = 1;
  let err = '';
  const waiting = new Map<number, { resolve: (a: LoadAnswer) => void; reject: (e: Error) => void }>();
  child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-5000)));
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const a = JSON.parse(line) as LoadAnswer;
    const w = waiting.get(a.id);
    waiting.delete(a.id);
    if (a.result || a.mix) w?.resolve(a);
    else w?.reject(new Error(`load run failed: ${a.error ?? 'no result'}`));
  });
  child.on('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`load generator exited (${code}): ${err}`));
    waiting.clear();
  });
  const send = (m: LoadMessage) => child.stdin.write(`${JSON.stringify(m)}\n`);
  return {
    run: (spec: LoadSpec) => {
      const id = nextId++;
      const done = new Promise<LoadAnswer>((resolve, reject) => waiting.set(id, { resolve, reject })).then(
        (a) => a.result as LoadResult,
      );
      send({ id, spec });
      return { done, stop: () => send({ stop: id }) };
    },
    /** The working day's sessions (bench/working-day.ts), run in the generator's process. */
    mix: (plan: MixPlan): Promise<MixResult> => {
      const id = nextId++;
      const done = new Promise<LoadAnswer>((resolve, reject) => waiting.set(id, { resolve, reject }));
      send({ id, mix: plan });
      return done.then((a) => a.mix as MixResult);
    },
    close: () => child.stdin.end(),
  };
};

export type LoadGenerator = ReturnType<typeof startLoadGenerator>;
