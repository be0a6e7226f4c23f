/**
 * `npm run bench`: Kodi at 200,000 payments on PostgreSQL and on PGlite, side by side with a bare
 * baseline, against the budgets of docs/performance.md. Prints the table, writes it into
 * docs/performance.md (full runs only) and exits non-zero when a budget is missed.
 *
 * BENCH_SCALE (default 1): the dataset's size; below 1 (CI: 0.02) the run is a smoke test whose
 * only budgets are "no errors, no non-2xx, distinct receipt numbers".
 * BENCH_DURATION: seconds per endpoint (default 10, or 2 when reduced).
 * BENCH_DATABASE_URL: the PostgreSQL database the benchmark owns (dropped and created afresh;
 * its name must contain "bench"); default postgres://postgres@127.0.0.1:5432/kodi_bench.
 * BENCH_ONLY: a comma-separated list of parts to run (lists, dashboard, reports, arrears, browser,
 * export, post, ceiling, mix, tenfold, import, collections, cycle, utilities, messages, pglite, bundle, lighthouse), for working on one of
 * them; such a run writes no report, except the working day's sections when it ran `mix` or `tenfold`.
 * BENCH_SKIP: a comma-separated list of parts not to run (CI's smoke test skips `pglite`: the API
 * tests run on PGlite already, and CI must stay under 30 minutes).
 * BENCH_MIX_DURATION: seconds of the working day (default 60, or 3 when reduced);
 * BENCH_MIX_SESSIONS: its staff sessions (default 16).
 * BENCH_TENFOLD: the size of the second dataset, as a multiple of the first (default 10: 2,000,000
 * payments; 0 skips it); never in a reduced run. Its database is BENCH_DATABASE_URL's name + `_10x`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPostgres, serverRoot, type Database } from '../db/client.ts';
import { HttpClient } from '../test/processes.ts';
import { fullSize, scaledSize, type DatasetSize } from './dataset.ts';
import {
  BENCH_ADMIN,
  STAFF_USERS,
  dropPostgresDatabase,
  freshPostgresDatabase,
  preparePglite,
  preparePostgres,
} from './databases.ts';
import { describeMachine } from './machine.ts';
import {
  memorySampler,
  repoRoot,
  startBaseline,
  startKodi,
  startLoadGenerator,
  type Child,
} from './processes.ts';
import { hasChromium, timeDashboard } from './browser.ts';
import { portalLighthouse } from './lighthouse.ts';
import { staffLighthouse } from './staff-lighthouse.ts';
import { renderReport, writeSections, type Row } from './report.ts';
import { explainHotQueries, renderExplained } from './explain.ts';
import { explainPaymentSorts, renderSortPlans, type SortPlans } from './sort-plans.ts';
import { planMix, staffUser, type MixSession } from './working-day.ts';
import { mixRows, renderMix, type MixRun } from './mix-report.ts';
import type { LoadResult } from './load.ts';
import type { ListQuery } from '../crud/server-entity.ts';
import { importPhase } from './import.ts';
import { collectionsPhase } from './collections.ts';
import { rentCyclePhase } from './rent-cycle.ts';
import { messagesPhase } from './messages.ts';
import { utilityBillingPhase } from './utility-billing.ts';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const reduced = scale < 1;
const duration = Number(process.env.BENCH_DURATION ?? (reduced ? 2 : 10));
const warmup = reduced ? 0 : 2;
const connections = 16;
const CAPTCHA = 'bench1';
const size: DatasetSize = reduced ? scaledSize(scale) : fullSize;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/kodi_bench';
const API = '/rentapi/api';
const only = process.env.BENCH_ONLY
  ? new Set(process.env.BENCH_ONLY.split(',').map((p) => p.trim()))
  : undefined;
const skipped = new Set((process.env.BENCH_SKIP ?? '').split(',').map((p) => p.trim()));
/** Whether this part of the benchmark runs (all of them unless BENCH_ONLY names some; never one BENCH_SKIP names). */
const runs = (part: string) => (!only || only.has(part)) && !skipped.has(part);
const mixSeconds = Number(process.env.BENCH_MIX_DURATION ?? (reduced ? 3 : 60));
const mixWarmup = reduced ? 1 : 5;
const mixSessions = Math.min(STAFF_USERS, Number(process.env.BENCH_MIX_SESSIONS ?? 16));
/** the second dataset's size as a multiple of the first: too slow for the smoke test */
const tenfold = reduced ? 0 : Number(process.env.BENCH_TENFOLD ?? 10);

const load = startLoadGenerator();
const runLoad = load.run;

const log = (...args: unknown[]) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args);

// ---------------------------------------------------------------- build

const newest = (dir: string): number => {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
};
const mtime = (p: string) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

/** `npm run build` when a bundle is missing or older than its sources. */
const buildIfStale = () => {
  const domain = newest(path.join(repoRoot, 'packages', 'domain', 'src'));
  const server = mtime(path.join(serverRoot, 'dist', 'main.js'));
  const web = mtime(path.join(repoRoot, 'apps', 'web', 'dist', 'index.html'));
  const serverStale =
    server < Math.max(domain, newest(path.join(serverRoot, 'src')), newest(path.join(serverRoot, 'drizzle')));
  const webStale = web < Math.max(domain, newest(path.join(repoRoot, 'apps', 'web', 'src')));
  if (!serverStale && !webStale) return;
  log(`building (${[serverStale && 'server', webStale && 'web'].filter(Boolean).join(', ')} out of date)`);
  execFileSync('npm', ['run', '-s', 'build'], { cwd: repoRoot, stdio: 'inherit' });
};

// ---------------------------------------------------------------- helpers

const signIn = async (base: string, email = BENCH_ADMIN.email) => {
  const c = new HttpClient();
  await c.call(base, 'GET', '/auth/csrf-token');
  await c.call(base, 'GET', '/captcha');
  const res = await c.call(base, 'POST', '/auth/login', {
    email,
    password: BENCH_ADMIN.password,
    captcha_answer: CAPTCHA,
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.json)}`);
  return { cookie: c.cookie, csrf: c.csrf };
};

type Target = { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

/** One measured run of an endpoint (after a short warm-up), with the server's peak memory. */
const measure = async (server: Child, target: Target, c = connections, seconds = duration) => {
  if (warmup > 0) await runLoad({ ...target, connections: c, duration: warmup }).done;
  const mem = memorySampler(server.pid);
  const result = await runLoad({ ...target, connections: c, duration: seconds }).done;
  return { result, memMb: mem.stop() };
};

/** Errors, timeouts and non-2xx answers; a run that completed no request at all counts as one. */
const failures = (r: LoadResult) => r.errors + r.timeouts + r.non2xx + (r.requests === 0 ? 1 : 0);

const deepPage = (rows: number) => Math.max(1, Math.min(400, Math.floor(rows / 50)));

type ListCase = { name: string; query: Record<string, string | number> };
const listCases = (rows: number, search: string, sort: string): ListCase[] => [
  { name: 'first page', query: { page: 1, page_size: 25 } },
  {
    name: `page ${deepPage(rows)} (offset ${(deepPage(rows) - 1) * 25})`,
    query: { page: deepPage(rows), page_size: 25 },
  },
  { name: `search '${search}'`, query: { page: 1, page_size: 25, q: search } },
  { name: `sort ${sort}`, query: { page: 1, page_size: 25, sort } },
];
const qs = (q: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();

const LISTS = [
  { entity: 'payments', rows: size.payments, search: 'Namuli', sort: '-amount_paid' },
  { entity: 'units', rows: size.units, search: 'Kololo', sort: '-monthly_rate' },
  { entity: 'tenants', rows: size.tenants, search: 'Namuli', sort: 'last_name' },
];

// ---------------------------------------------------------------- budgets

/**
 * One URL asked again and again is answered from what the server kept of it (item 15): the lists'
 * p99 < 25 ms and the dashboard's p99 < 30 ms on such runs were met only that way, so they are
 * measured, not budgeted; the working day (bench/mix-report.ts, `mixBudget`) holds the lists and the
 * dashboard to p99 < 100 ms at random pages, sorts and words among writes.
 */
const budget = {
  listRatio: 0.5,
  reportP99: 60,
  postRps: 500,
  exportSeconds: 15,
  exportMemMb: 300,
  duringExportP99: 100,
  pgliteListP99: 100,
  dashboardBrowserMs: 1000,
  arrearsP99: 100,
};

/** In a reduced run every budget is "no errors, no non-2xx" (and the correctness checks). */
const check = (ok: boolean, r: LoadResult | undefined) => (r ? failures(r) === 0 : true) && (reduced || ok);

// ---------------------------------------------------------------- phases

const rows: Row[] = [];
const loadNow = () => Math.round((os.loadavg()[0] ?? 0) * 10) / 10;
const add = (row: Row) => {
  row.load ??= loadNow();
  rows.push(row);
  log(
    `${row.ok ? 'ok  ' : 'MISS'} ${row.db} ${row.endpoint}: ${row.rps?.toFixed(0) ?? '-'} req/s, p50 ${row.p50 ?? '-'} ms, p99 ${row.p99 ?? '-'} ms` +
      `${row.ratio !== undefined ? `, ratio ${row.ratio.toFixed(2)}` : ''}${row.note ? `, ${row.note}` : ''}`,
  );
};
const fromLoad = (r: LoadResult) => ({
  rps: r.rps,
  p50: r.p50,
  p99: r.p99,
  errors: failures(r),
});

const postgresPhase = async (db: Database) => {
  const kodi = await startKodi({ DATABASE_URL: databaseUrl, CAPTCHA_TEST_ANSWER: CAPTCHA, RATE_LIMITS: '0' });
  const baselineQueries = Object.fromEntries(
    listCases(size.payments, 'Namuli', '-amount_paid').map((c, i) => [String(i), c.query]),
  );
  const baseline = await startBaseline({
    DATABASE_URL: databaseUrl,
    BASELINE_QUERIES: JSON.stringify(baselineQueries),
  });
  try {
    const session = await signIn(kodi.url);
    const headers = { cookie: session.cookie };

    // the browser first, on the machine found quiet (the load runs below keep both cores busy): the
    // dashboard of the large company, from navigation to its data on screen
    if (!runs('browser')) {
      // not asked for
    } else if (hasChromium() && fs.existsSync(path.join(repoRoot, 'apps', 'web', 'dist', 'index.html'))) {
      const available = Number(
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM units WHERE company_id = 1 AND status = 'available'`,
          )
        )[0]?.n,
      );
      const t = await timeDashboard(kodi.url, { ...BENCH_ADMIN, captcha: CAPTCHA }, available);
      const sorted = [...t.dashboardMs].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
      add({
        db: 'Web',
        endpoint: "dashboard in Chromium: navigation → 'Available Units' count shown (median of 3)",
        p50: median,
        p99: Math.max(...t.dashboardMs),
        budget: `≤ ${budget.dashboardBrowserMs} ms`,
        note: `loads ${t.dashboardMs.join(', ')} ms from the navigation's start (in the page); Playwright saw the count after ${t.observedMs.join(', ')} ms`,
        ok: reduced || Math.max(...t.dashboardMs) <= budget.dashboardBrowserMs,
      });
    } else {
      log('!! no Chromium or no web build: the dashboard is not timed in a browser');
    }

    // the tenant portal's home in Lighthouse's mobile mode (issue 19), also on the quiet machine
    if (
      runs('lighthouse') &&
      hasChromium() &&
      fs.existsSync(path.join(repoRoot, 'apps', 'web', 'dist', 'portal.html'))
    ) {
      try {
        const scores = await portalLighthouse(kodi.url, db, session);
        add({
          db: 'Web',
          endpoint: 'tenant portal home, Lighthouse mobile: performance',
          note: `${scores.performance}`,
          budget: '≥ 90',
          ok: reduced || scores.performance >= 90,
        });
        add({
          db: 'Web',
          endpoint: 'tenant portal home, Lighthouse mobile: accessibility',
          note: `${scores.accessibility}`,
          budget: '100',
          ok: reduced || scores.accessibility === 100,
        });
      } catch (err) {
        add({
          db: 'Web',
          endpoint: 'tenant portal Lighthouse',
          budget: 'runs',
          ok: false,
          note: String(err).slice(0, 200),
        });
      }
    }

    // the staff app's pages on a phone (issue 26: performance ≥ 90, accessibility 100), full runs only
    // (five Lighthouse runs take minutes; the reduced run keeps the portal's)
    if (!reduced && runs('lighthouse') && hasChromium()) {
      try {
        for (const page of await staffLighthouse(kodi.url, session.cookie)) {
          add({
            db: 'Web',
            endpoint: `staff ${page.path}, Lighthouse mobile: performance / accessibility`,
            note: `${page.performance} / ${page.accessibility} (total blocking time ${page.tbt} ms, LCP ${page.lcp} ms)`,
            budget: '≥ 90 / 100',
            ok: page.performance >= 90 && page.accessibility === 100,
          });
        }
      } catch (err) {
        add({
          db: 'Web',
          endpoint: 'staff Lighthouse',
          budget: 'runs',
          ok: false,
          note: String(err).slice(0, 200),
        });
      }
    }

    for (const list of runs('lists') ? LISTS : []) {
      const cases = listCases(list.rows, list.search, list.sort);
      for (const [i, c] of cases.entries()) {
        const ours = await measure(kodi, { url: `${kodi.url}${API}/${list.entity}?${qs(c.query)}`, headers });
        let bareRps: number | undefined;
        if (list.entity === 'payments') {
          const bare = await measure(baseline, { url: `${baseline.url}/v/${i}` });
          bareRps = bare.result.rps;
          add({
            db: 'PostgreSQL',
            endpoint: `bare baseline: same SQL as ${c.name}`,
            ...fromLoad(bare.result),
            memMb: bare.memMb,
            budget: 'reference',
            ok: check(true, bare.result),
          });
        }
        // the budgets are the payments list's (the issue's); units and tenants are measured alongside
        const ratio = bareRps === undefined ? undefined : ours.result.rps / bareRps;
        const budgeted = ratio !== undefined;
        const ok = ratio === undefined || ratio >= budget.listRatio;
        add({
          db: 'PostgreSQL',
          endpoint: `GET /${list.entity} ${c.name}`,
          ...fromLoad(ours.result),
          ...(ratio !== undefined ? { ratio } : {}),
          memMb: ours.memMb,
          budget: budgeted ? `≥ ${budget.listRatio} × baseline` : 'measured',
          ok: check(ok, ours.result),
        });
      }
    }

    if (runs('dashboard')) {
      const dash = await measure(kodi, { url: `${kodi.url}${API}/dashboard`, headers });
      add({
        db: 'PostgreSQL',
        endpoint: 'GET /dashboard',
        ...fromLoad(dash.result),
        memMb: dash.memMb,
        budget: 'measured',
        ok: check(true, dash.result),
      });
    }
    for (const report of runs('reports') ? ['income-statement', 'cash-flow'] : []) {
      const r = await measure(kodi, { url: `${kodi.url}${API}/${report}`, headers });
      add({
        db: 'PostgreSQL',
        endpoint: `GET /${report} (12 months)`,
        ...fromLoad(r.result),
        memMb: r.memMb,
        budget: `p99 < ${budget.reportP99} ms`,
        ok: check(r.result.p99 < budget.reportP99, r.result),
      });
    }

    // the arrears of the large company (every lease's charges against its payments), one user
    if (runs('arrears')) {
      const r = await measure(kodi, { url: `${kodi.url}${API}/arrears?page=1&page_size=25`, headers }, 1);
      add({
        db: 'PostgreSQL',
        endpoint: 'GET /arrears first page (1 connection)',
        ...fromLoad(r.result),
        memMb: r.memMb,
        budget: `p99 < ${budget.arrearsP99} ms`,
        ok: check(r.result.p99 < budget.arrearsP99, r.result),
      });
    }

    // the export of every payment, with the first page under load meanwhile
    if (runs('export')) {
      const mem = memorySampler(kodi.pid);
      const during = runLoad({
        url: `${kodi.url}${API}/payments?page=1&page_size=25`,
        headers,
        connections,
        duration: 600,
      });
      await new Promise((r) => setTimeout(r, 500));
      const t0 = Date.now();
      const res = await fetch(`${kodi.url}${API}/payments/export?fmt=xlsx`, { headers });
      let bytes = 0;
      if (res.body) for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
      const seconds = (Date.now() - t0) / 1000;
      during.stop();
      const other = await during.done;
      const memMb = mem.stop();
      const complete = res.status === 200 && bytes > 0;
      add({
        db: 'PostgreSQL',
        endpoint: `GET /payments/export?fmt=xlsx (all ${size.payments.toLocaleString('en-US')} payments)`,
        p50: Math.round(seconds * 1000),
        errors: complete ? 0 : 1,
        memMb,
        budget: `< ${budget.exportSeconds} s, < ${budget.exportMemMb} MB`,
        note: `${seconds.toFixed(1)} s, ${(bytes / 1024 / 1024).toFixed(1)} MB of xlsx`,
        ok: complete && (reduced || (seconds < budget.exportSeconds && memMb < budget.exportMemMb)),
      });
      add({
        db: 'PostgreSQL',
        endpoint: 'GET /payments first page, during the export',
        ...fromLoad(other),
        budget: `p99 < ${budget.duringExportP99} ms`,
        ok: check(other.p99 < budget.duringExportP99, other),
      });
    }

    // writes: new payments for an existing lease, then every receipt number must be distinct
    if (runs('post')) {
      const lease = (
        await db.query<{ tenant_id: number; unit_id: number }>(
          `SELECT tenant_id, unit_id FROM occupancy WHERE company_id = 1 AND is_active ORDER BY id LIMIT 1`,
        )
      )[0];
      if (!lease) throw new Error('no lease in the dataset');
      const before = Number(
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE company_id = 1'))[0]?.n,
      );
      const today = new Date().toISOString().slice(0, 10);
      const body = JSON.stringify({
        tenant_id: lease.tenant_id,
        unit_id: lease.unit_id,
        payment_date: today,
        amount_paid: 750000,
        payment_method: 'mobilemoney',
        status: 'completed',
        effective_start_date: today,
        effective_end_date: new Date(Date.now() + 29 * 86_400_000).toISOString().slice(0, 10),
        payment_details: 'Benchmark payment',
      });
      const post = await measure(kodi, {
        url: `${kodi.url}${API}/payments`,
        method: 'POST',
        headers: { ...headers, 'x-csrf-token': session.csrf, 'content-type': 'application/json' },
        body,
      });
      const after = await db.query<{
        n: number;
        receipts: number;
        distinct_receipts: number;
        serials: number;
      }>(
        `SELECT count(*)::int AS n, count(receipt_number)::int AS receipts,
                count(DISTINCT receipt_number)::int AS distinct_receipts, count(DISTINCT payment_serial)::int AS serials
           FROM payments WHERE company_id = 1`,
      );
      const a = after[0] ?? { n: 0, receipts: 0, distinct_receipts: 0, serials: 0 };
      const created = a.n - before;
      const distinct = a.receipts === a.distinct_receipts && a.serials === a.n;
      add({
        db: 'PostgreSQL',
        endpoint: 'POST /payments (existing lease)',
        ...fromLoad(post.result),
        memMb: post.memMb,
        budget: `≥ ${budget.postRps}/s, distinct receipt numbers`,
        note: `${created} payments created, receipt numbers ${distinct ? 'all distinct' : 'DUPLICATED'}`,
        ok: distinct && check(post.result.rps >= budget.postRps, post.result),
      });
    }

    if (!reduced && runs('ceiling')) await ceilingPhase(kodi, baseline, headers);
    // last: it adds tenants, leases and payments to the large company
    if (runs('import')) await importPhase({ server: kodi, session, db, scale, reduced, add });
    // after the import: it posts payments to the large company's leases
    if (runs('collections')) await collectionsPhase({ server: kodi, session, db, scale, reduced, add });
  } finally {
    await Promise.all([kodi.stop(), baseline.stop()]);
  }
};

/**
 * How far one server process and one PostgreSQL go on this machine: the payments first page with 64
 * connections on one Kodi process, then on two Kodi processes at once (same database, a load
 * generator each), and the bare baseline (PostgreSQL with almost no server work in front) with 64.
 */
const ceilingPhase = async (kodi: Child, baseline: Child, headers: Record<string, string>) => {
  const path = `${API}/payments?page=1&page_size=25`;
  const one = await measure(kodi, { url: `${kodi.url}${path}`, headers }, 64);
  add({
    db: 'PostgreSQL',
    endpoint: 'ceiling: one Kodi process, payments first page, 64 connections',
    ...fromLoad(one.result),
    memMb: one.memMb,
    budget: 'measured',
    ok: check(true, one.result),
  });
  const bare = await measure(baseline, { url: `${baseline.url}/v/0` }, 64);
  add({
    db: 'PostgreSQL',
    endpoint: 'ceiling: PostgreSQL behind the bare baseline (same SQL as the first page), 64 connections',
    ...fromLoad(bare.result),
    memMb: bare.memMb,
    budget: 'measured',
    ok: check(true, bare.result),
  });
  const second = await startKodi({
    DATABASE_URL: databaseUrl,
    CAPTCHA_TEST_ANSWER: CAPTCHA,
    RATE_LIMITS: '0',
  });
  const otherLoad = startLoadGenerator();
  try {
    const otherSession = await signIn(second.url);
    const runs = await Promise.all([
      runLoad({ url: `${kodi.url}${path}`, headers, connections: 32, duration }).done,
      otherLoad.run({
        url: `${second.url}${path}`,
        headers: { cookie: otherSession.cookie },
        connections: 32,
        duration,
      }).done,
    ]);
    const [a, b] = runs;
    if (a && b) {
      add({
        db: 'PostgreSQL',
        endpoint: 'ceiling: two Kodi processes on one PostgreSQL, 2 × 32 connections',
        rps: a.rps + b.rps,
        p50: Math.max(a.p50, b.p50),
        p99: Math.max(a.p99, b.p99),
        errors: failures(a) + failures(b),
        budget: 'measured',
        ok: failures(a) + failures(b) === 0,
      });
    }
  } finally {
    otherLoad.close();
    await second.stop();
  }
};

/**
 * The working day (bench/working-day.ts) on the database at `url`: a server of its own, the staff
 * signed in one by one, then the sessions' loop run by the load generator's process.
 */
const mixPhase = async (url: string): Promise<MixRun> => {
  const kodi = await startKodi({ DATABASE_URL: url, CAPTCHA_TEST_ANSWER: CAPTCHA, RATE_LIMITS: '0' });
  const db = await openPostgres(url, 2);
  try {
    const sessions: MixSession[] = [];
    for (let i = 0; i < mixSessions; i++) {
      const staff = staffUser(i);
      const { cookie, csrf } = await signIn(kodi.url, staff.email);
      sessions.push({ cookie, csrf, admin: staff.admin });
    }
    const plan = await planMix(db, 1, {
      url: kodi.url,
      seconds: mixSeconds,
      warmup: mixWarmup,
      seed: 15,
      sessions,
    });
    const payments = plan.lists.payments.total;
    log(
      `working day at ${payments.toLocaleString('en-US')} payments: ${sessions.length} sessions, ${mixSeconds} s`,
    );
    const loadBefore = loadNow();
    const mem = memorySampler(kodi.pid);
    const result = await load.mix(plan);
    const memMb = mem.stop();
    log(
      `working day: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.errors} errors, ${result.conflicts} 409s`,
    );
    return { payments, result, loadBefore, loadAfter: loadNow(), memMb };
  } finally {
    await db.close();
    await kodi.stop();
  }
};

/**
 * Ten times the data (BENCH_TENFOLD): its own database, loaded by the same generator, then the plans
 * of every sort of the payments list and the working day on it.
 */
const tenfoldPhase = async (maintenanceUrl: string, name: string, sortPlans: SortPlans[]) => {
  const bigName = `${name}_10x`;
  const url = new URL(databaseUrl);
  url.pathname = `/${bigName}`;
  const bigSize = scaledSize(tenfold);
  log(
    `dataset at scale ${tenfold}: ${bigSize.payments.toLocaleString('en-US')} payments in the large company`,
  );
  await freshPostgresDatabase(maintenanceUrl, bigName);
  const t = Date.now();
  await preparePostgres(url.toString(), bigSize);
  log(`PostgreSQL dataset ×${tenfold} loaded in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await waitForQuiet(5);
  const db = await openPostgres(url.toString(), 2);
  try {
    sortPlans.push(await explainPaymentSorts(db));
  } finally {
    await db.close();
  }
  return mixPhase(url.toString());
};

const pglitePhase = async (dataDir: string) => {
  const kodi = await startKodi({
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    CAPTCHA_TEST_ANSWER: CAPTCHA,
    RATE_LIMITS: '0',
  });
  try {
    const session = await signIn(kodi.url);
    const headers = { cookie: session.cookie };
    for (const list of LISTS) {
      for (const c of listCases(list.rows, list.search, list.sort)) {
        const r = await measure(kodi, { url: `${kodi.url}${API}/${list.entity}?${qs(c.query)}`, headers }, 1);
        add({
          db: 'PGlite',
          endpoint: `GET /${list.entity} ${c.name}`,
          ...fromLoad(r.result),
          memMb: r.memMb,
          budget: `p99 < ${budget.pgliteListP99} ms (1 user)`,
          ok: check(r.result.p99 < budget.pgliteListP99, r.result),
        });
      }
    }
  } finally {
    await kodi.stop();
  }
};

/** The web's JavaScript per page, gzipped, from the bundle check of the web build. */
const bundlePhase = () => {
  const script = path.join(repoRoot, 'apps', 'web', 'scripts', 'check-bundle.mjs');
  if (!fs.existsSync(script)) return;
  const run = spawnSync(process.execPath, [script, '--json'], {
    cwd: path.join(repoRoot, 'apps', 'web'),
    encoding: 'utf8',
  });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (!line.startsWith('{')) {
    add({ db: 'Web', endpoint: 'bundle check', budget: 'runs', ok: false, note: run.stderr.slice(0, 200) });
    return;
  }
  const report = JSON.parse(line) as {
    login: { kb: number; budgetKb: number };
    largest: { page: string; kb: number; budgetKb: number };
  };
  add({
    db: 'Web',
    endpoint: 'login page JavaScript (gzip)',
    note: `${report.login.kb.toFixed(1)} KB`,
    budget: `≤ ${report.login.budgetKb} KB`,
    // the smoke run reports the bundle sizes; only a full run holds them to their budget
    ok: reduced || report.login.kb <= report.login.budgetKb,
  });
  add({
    db: 'Web',
    endpoint: `largest page JavaScript (gzip): ${report.largest.page}`,
    note: `${report.largest.kb.toFixed(1)} KB`,
    budget: `≤ ${report.largest.budgetKb} KB`,
    ok: reduced || report.largest.kb <= report.largest.budgetKb,
  });
};

/**
 * Other work on the machine skews every figure (2 cores). A full run first waits, up to
 * BENCH_QUIET_WAIT minutes (20), for the 1-minute load average to fall under BENCH_QUIET_LOAD (1.0);
 * each row of the table records the load average when it was measured.
 */
const waitForQuiet = async (atMostMinutes = Infinity) => {
  const limit = Number(process.env.BENCH_QUIET_LOAD ?? 1.0);
  const minutes = Math.min(atMostMinutes, Number(process.env.BENCH_QUIET_WAIT ?? 20));
  const until = Date.now() + minutes * 60_000;
  while (!reduced && limit > 0 && (os.loadavg()[0] ?? 0) > limit && Date.now() < until) {
    log(`waiting for a quieter machine: load average ${os.loadavg()[0]?.toFixed(2)} > ${limit}`);
    await new Promise((r) => setTimeout(r, 30_000));
  }
  if (!reduced && limit > 0 && (os.loadavg()[0] ?? 0) > limit) {
    log(
      `!! the machine is still busy after ${minutes} min (load average ${os.loadavg()[0]?.toFixed(2)}): measuring anyway`,
    );
  }
};

const main = async () => {
  const started = Date.now();
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!name.includes('bench')) {
    throw new Error(
      `BENCH_DATABASE_URL names '${name}': the benchmark drops and recreates its database, so its name must contain 'bench'.`,
    );
  }
  buildIfStale();
  log(`dataset at scale ${scale}: ${size.payments.toLocaleString('en-US')} payments in the large company`);
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  await freshPostgresDatabase(maintenance.toString(), name);
  let t = Date.now();
  await preparePostgres(databaseUrl, size);
  log(`PostgreSQL dataset loaded in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await waitForQuiet();
  const db = await openPostgres(databaseUrl, 2);
  const machine = await describeMachine(db);
  let explained = '';
  const sortPlans: SortPlans[] = [];
  try {
    if (!reduced && !only) {
      const lists = listCases(size.payments, 'Namuli', '-amount_paid').map((c) => ({
        title: c.name,
        query: { page: Number(c.query.page), page_size: Number(c.query.page_size), ...c.query } as ListQuery,
      }));
      explained = renderExplained(await explainHotQueries(db, lists));
    }
    if (!reduced && runs('mix')) sortPlans.push(await explainPaymentSorts(db));
  } finally {
    await db.close();
  }
  // the working day first, on the dataset as loaded (the endpoint runs below add payments, tenants
  // and leases: the import phase alone 100,000 payments)
  const base = runs('mix') ? await mixPhase(databaseUrl) : undefined;
  if (base) await waitForQuiet();
  const db2 = await openPostgres(databaseUrl, 2);
  try {
    const endpoints = [
      'browser',
      'lighthouse',
      'lists',
      'dashboard',
      'reports',
      'arrears',
      'export',
      'post',
      'ceiling',
      'import',
      'collections',
    ];
    if (endpoints.some(runs)) await postgresPhase(db2);
  } finally {
    await db2.close();
  }

  // the working day at ten times the data
  const big =
    tenfold > 0 && runs('tenfold') ? await tenfoldPhase(maintenance.toString(), name, sortPlans) : undefined;
  const mixBase = base ?? big;
  if (mixBase) for (const row of mixRows(mixBase, base ? big : undefined, reduced)) add(row);
  const mixText = mixBase ? renderMix(mixBase, base ? big : undefined, reduced, machine.date) : '';
  const sortsText = renderSortPlans(sortPlans);

  // the daily run of the large company (bench/rent-cycle.ts), after the measurements it would change
  if (runs('cycle')) await rentCyclePhase({ databaseUrl, signIn, captcha: CAPTCHA, reduced, add, log });
  // the utility billing run of 20,000 meters, on a database of its own (bench/utility-billing.ts)
  if (runs('utilities')) await utilityBillingPhase({ databaseUrl, reduced, add, log });
  // the messages' sender to a local SMS provider (bench/messages.ts)
  if (runs('messages')) await messagesPhase({ databaseUrl, reduced, add, log });

  if (runs('pglite')) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-bench-'));
    try {
      t = Date.now();
      await preparePglite(dataDir, size);
      log(`PGlite dataset loaded in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      await pglitePhase(dataDir);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (runs('bundle')) bundlePhase();

  const text = renderReport({
    machine,
    rows,
    size,
    reduced,
    duration,
    connections,
    seconds: (Date.now() - started) / 1000,
  });
  console.log(`\n${text}`);
  if (mixText) console.log(`\n${mixText}`);
  if (!reduced && (!only || mixText)) {
    const doc = path.join(repoRoot, 'docs', 'performance.md');
    // a run of some parts writes only the working day's sections
    writeSections(
      doc,
      only
        ? { mix: mixText, sorts: sortsText }
        : { results: text, explain: explained, mix: mixText, sorts: sortsText },
    );
    // the table as Prettier lays it out, so that `npm run format:check` stays clean
    spawnSync(
      process.execPath,
      [path.join(repoRoot, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', doc],
      {
        stdio: 'ignore',
      },
    );
    log('docs/performance.md updated');
  }
  // the smoke test leaves nothing behind; a full run keeps its database to look into
  if (reduced) await dropPostgresDatabase(maintenance.toString(), name);
  const missed = rows.filter((r) => !r.ok);
  if (missed.length > 0) {
    console.error(
      `\n${missed.length} budget(s) missed:\n${missed.map((r) => `  ${r.db} ${r.endpoint}`).join('\n')}`,
    );
    process.exitCode = 1;
    return;
  }
  log(`all budgets met in ${((Date.now() - started) / 1000).toFixed(0)} s`);
};

try {
  await main();
} finally {
  load.close();
}
