/**
 * The load generator of the benchmark, run as its own process (so that it shares an event loop with
 * neither the server nor the process sampling it's memory): reads one JSON line per run on stdin,
 * `{"id":1,"spec":{"url":"...","connections":16,"duration":10}}`, drives that URL with autocannon and
 * answers `{"id":1,"result":{...}}`; `{"stop":1}` ends run 1 early (it still answers its results).
 * `{"id":2,"mix":{...}}` runs the working day's sessions instead (bench/working-day.ts) and answers
 * `{"id":2,"mix":{...}}`.
 *
 *   node --import tsx apps/server/src/bench/load.ts
 */
import readline from 'node:readline';
import autocannon from 'autocannon';
import { runMix, type MixPlan, type MixResult } from './working-day.ts';

export type LoadSpec = {
  url: string;
  connections: number;
  /** seconds */
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
};

export type LoadResult = {
  requests: number;
  /** seconds the run lasted */
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  bytes: number;
};

export type LoadMessage = { id: number; spec: LoadSpec } | { id: number; mix: MixPlan } | { stop: number };
export type LoadAnswer = { id: number; result?: LoadResult; mix?: MixResult; error?: string };

const running = new Map<number, { stop: () => void }>();
const answer = (a: LoadAnswer) => process.stdout.write(`${JSON.stringify(a)}\n`);

const start = (id: number, spec: LoadSpec) => {
  const instance = autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      duration: spec.duration,
      method: spec.method ?? 'GET',
      headers: spec.headers ?? {},
      ...(spec.body !== undefined ? { body: spec.body } : {}),
      timeout: 30,
    },
    (err, r) => {
      running.delete(id);
      if (err) return answer({ id, error: String(err) });
      const seconds = Math.max(0.001, (r.finish.getTime() - r.start.getTime()) / 1000);
      const requests = r['2xx'] + r.non2xx;
      answer({
        id,
        result: {
          requests,
          seconds,
          rps: requests / seconds,
          p50: r.latency.p50,
          p99: r.latency.p99,
          max: r.latency.max,
          errors: r.errors,
          timeouts: r.timeouts,
          non2xx: r.non2xx,
          bytes: r.throughput.total,
        },
      });
    },
  );
  running.set(id, instance);
};

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line) as LoadMessage;
  if ('stop' in msg) running.get(msg.stop)?.stop();
  else if ('mix' in msg)
    runMix(msg.mix).then(
      (mix) => answer({ id: msg.id, mix }),
      (err: unknown) => answer({ id: msg.id, error: String(err) }),
    );
  else start(msg.id, msg.spec);
});
process.stdin.on('end', () => process.exit(0));
