import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { payments } from '@kodi/domain';
import { MIX_LISTS, runMix, type KindStats, type MixPlan, type MixResult } from './working-day.ts';
import { mixBudget, mixRows, type MixRun } from './mix-report.ts';
import { planPath } from './sort-plans.ts';

/** A stand-in for the server: every route answers as Kodi would, except what `answer` changes. */
const fakeServer = async (answer: (method: string, path: string) => number | undefined = () => undefined) => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname.replace('/rentapi/api', '');
      seen.push(`${req.method} ${path}${url.search}`);
      const forced = answer(req.method ?? 'GET', path);
      if (forced) {
        res.writeHead(forced, { 'content-type': 'application/json' }).end('{"error":"x"}');
        return;
      }
      if (req.method === 'PUT') {
        const sent = JSON.parse(body) as { version?: number };
        // the version read is 3: a save with it is refused as if another edit came first
        res.writeHead(sent.version === 3 ? 409 : 400).end('{"error":"conflict"}');
        return;
      }
      if (req.method === 'POST') {
        res.writeHead(201, { 'content-type': 'application/json' }).end(body);
        return;
      }
      const record = /^\/[a-z_]+\/\d+$/.test(path);
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-total-count': '1000' })
        .end(record ? JSON.stringify({ id: 1, version: 3, payment_details: 'x', tenant_id: 2 }) : '[]');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(r)) };
};

const plan = (url: string): MixPlan => ({
  url,
  seconds: 1,
  warmup: 0,
  seed: 1,
  sessions: [
    { cookie: 'kodi_sid=a', csrf: 't', admin: true },
    { cookie: 'kodi_sid=b', csrf: 't', admin: false },
  ],
  lists: Object.fromEntries(
    MIX_LISTS.map((l) => [
      l,
      { sort: l === 'payments' ? [...payments.sort] : ['id'], total: 1000, words: ['Namuli'] },
    ]),
  ) as MixPlan['lists'],
  paymentIds: [1, 2, 3],
  recentPaymentIds: [3],
  leaseIds: [1, 2],
  leases: [{ tenant_id: 2, unit_id: 3, rate: 500000 }],
  editIds: {
    payments: [],
    tenants: [1],
    units: [1],
    occupancy: [1],
    maintenance_requests: [1],
    expenses: [1],
  },
  arrearsWords: ['Namuli'],
  firstMonth: '2021-01',
});

describe('the working day', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('counts a 409 from an edit apart from the errors, and sends the version read', async () => {
    const server = await fakeServer();
    close = server.close;
    const r = await runMix(plan(server.url));
    expect(r.requests).toBeGreaterThan(50);
    expect(r.errors).toBe(0);
    expect(r.conflicts).toBeGreaterThan(0);
    const puts = r.kinds.filter((k) => k.kind.startsWith('PUT'));
    expect(puts.reduce((s, k) => s + k.conflicts, 0)).toBe(r.conflicts);
    // every sort of the payments list is a sortable column of its definition, either direction
    const sorts = server.seen
      .filter((s) => s.startsWith('GET /payments?'))
      .flatMap((s) => /[?&]sort=(-?\w+)/.exec(s)?.[1] ?? []);
    expect(sorts.length).toBeGreaterThan(0);
    for (const s of sorts) expect(payments.sort).toContain(s.replace(/^-/, ''));
    // about a fifth of the requests write
    expect(r.writes / r.requests).toBeGreaterThan(0.1);
    expect(r.writes / r.requests).toBeLessThan(0.35);
  });

  it('counts any other answer than 2xx as an error of its kind', async () => {
    const server = await fakeServer((method, path) =>
      method === 'GET' && path === '/dashboard' ? 500 : undefined,
    );
    close = server.close;
    const r = await runMix(plan(server.url));
    const dashboard = r.kinds.find((k) => k.kind === 'GET /dashboard');
    expect(dashboard?.errors).toBe(dashboard?.count);
    expect(r.errors).toBe(dashboard?.count);
    expect(r.failures[0]).toContain('GET /dashboard: 500');
  });
});

const kind = (k: Partial<KindStats> & { kind: string }): KindStats => ({
  group: 'list',
  detail: false,
  count: 100,
  rps: 10,
  p50: 5,
  p95: 20,
  p99: 40,
  max: 50,
  errors: 0,
  conflicts: 0,
  ...k,
});
const run = (payments: number, kinds: KindStats[], rps = 400): MixRun => {
  const result: MixResult = {
    seconds: 60,
    sessions: 16,
    requests: kinds.reduce((s, k) => s + k.count, 0),
    rps,
    p50: 5,
    p95: 20,
    p99: 40,
    writes: 0,
    errors: kinds.reduce((s, k) => s + k.errors, 0),
    conflicts: 0,
    kinds,
    failures: [],
  };
  return { payments, result, loadBefore: 0, loadAfter: 0, memMb: 100 };
};

describe("the working day's budgets", () => {
  const list = kind({ kind: 'GET /payments page' });
  const report = kind({ kind: 'GET /cash-flow', group: 'report', p99: 400 });

  it('holds the mix to its requests per second and the lists and the dashboard to their p99', () => {
    expect(mixRows(run(200_000, [list, report]), undefined, false)[0]?.ok).toBe(true);
    expect(mixRows(run(200_000, [list], mixBudget.rps - 1), undefined, false)[0]?.ok).toBe(false);
    expect(mixRows(run(200_000, [{ ...list, p99: mixBudget.p99 }]), undefined, false)[0]?.ok).toBe(false);
    // the smoke test judges errors only
    expect(mixRows(run(4_000, [{ ...list, p99: 500 }], 10), undefined, true)[0]?.ok).toBe(true);
    expect(mixRows(run(4_000, [{ ...list, errors: 1 }], 10), undefined, true)[0]?.ok).toBe(false);
  });

  it('holds every kind at ten times the data to 1.5 × its p95, when both runs have enough of it', () => {
    const base = run(200_000, [list, report]);
    const same = run(2_000_000, [list, { ...report, p95: report.p95 * 1.5 }]);
    expect(mixRows(base, same, false)[1]?.ok).toBe(true);
    const slower = run(2_000_000, [list, { ...report, p95: report.p95 * 1.6 }]);
    const row = mixRows(base, slower, false)[1];
    expect(row?.ok).toBe(false);
    expect(row?.note).toContain('GET /cash-flow 1.6 ×');
    const rare = run(2_000_000, [list, { ...report, p95: report.p95 * 3, count: mixBudget.minSamples - 1 }]);
    expect(mixRows(base, rare, false)[1]?.ok).toBe(true);
  });
});

describe('planPath', () => {
  it('follows the first children from the LIMIT down, leaving the InitPlans out', () => {
    const plan = [
      'Nested Loop (actual time=0.1..0.2 rows=25 loops=1)',
      '  InitPlan 1 (returns $0)',
      '    ->  Seq Scan on row_counts (actual time=0.008..0.010 rows=1 loops=1)',
      '  ->  Limit (actual time=0.05..0.06 rows=25 loops=1)',
      '        ->  Index Only Scan Backward using payments_company_id_id_pk on payments t_1 (actual time=0.05 rows=25 loops=1)',
      '  ->  Index Scan using tenants_id_key on tenants tn (actual time=0.001..0.001 rows=1 loops=25)',
      'Planning Time: 0.8 ms',
    ].join('\n');
    expect(planPath(plan)).toBe(
      'Limit → Index Only Scan Backward using payments_company_id_id_pk on payments t_1',
    );
  });
});
