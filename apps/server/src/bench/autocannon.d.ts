/** The part of autocannon's API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
  };
  type Histogram = { p50: number; p99: number; max: number; average: number };
  type Result = {
    start: Date;
    finish: Date;
    latency: Histogram;
    requests: Histogram & { total: number };
    throughput: Histogram & { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  };
  type Instance = { stop: () => void };
  const autocannon: (opts: Options, done: (err: Error | null, result: Result) => void) => Instance;
  export default autocannon;
}
