import type { Row } from './report.ts';
import type { KindStats, MixResult } from './working-day.ts';

/** One run of the working day: on which dataset, under which load. */
export type MixRun = {
  payments: number;
  result: MixResult;
  /** the machine's 1-minute load average when the run started and when it ended */
  loadBefore: number;
  loadAfter: number;
  /** the server's peak resident memory during the run, MB */
  memMb: number;
};

/**
 * The working day's budgets, measured in the same run: the mix's throughput and the lists' and the
 * dashboard's p99 at 200,000 payments, and at ten times the data no kind of request slower than
 * `ratio` × its p95 at 200,000 (judged when both runs have `minSamples` of it; p99 of the rarer kinds
 * rests on a handful of requests and moves with the shared machine).
 */
export const mixBudget = { rps: 300, p99: 100, ratio: 1.5, minSamples: 20 };

const n = (v: number | undefined, digits = 0) =>
  v === undefined || Number.isNaN(v)
    ? '–'
    : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (v: number | undefined) => n(v, v !== undefined && v < 10 ? 1 : 0);

const judgedOnP99 = (k: KindStats) => !k.detail && (k.group === 'list' || k.group === 'dashboard');

/** The kind's p95 at ten times the data over its p95 at the base size (undefined: too few to judge). */
export const ratioOf = (base: KindStats | undefined, big: KindStats | undefined) =>
  base && big && base.count >= mixBudget.minSamples && big.count >= mixBudget.minSamples
    ? big.p95 / Math.max(base.p95, 0.1)
    : undefined;

/**
 * The kinds issue 25 holds to the ratio at both sizes (the books' reads: kept per lease and per day, so
 * they must not grow with the data): at ten times the data each must be measured often enough to judge.
 */
export const booksKinds: readonly string[] = [
  'GET /arrears',
  'GET /occupancy/:id/ledger',
  'GET /journal',
  'GET /reports/trial-balance',
];

type Verdict = { ok: boolean; budget: string };

const verdict = (k: KindStats, big: KindStats | undefined, tenfold: boolean, reduced: boolean): Verdict => {
  const parts: string[] = [];
  let ok = k.errors === 0 && (big?.errors ?? 0) === 0;
  if (judgedOnP99(k)) {
    parts.push(`p99 < ${mixBudget.p99} ms`);
    if (!reduced) ok &&= k.p99 < mixBudget.p99;
  }
  if (tenfold) {
    const r = ratioOf(k, big);
    parts.push(r === undefined ? 'too few to compare' : `p95 ≤ ${mixBudget.ratio} ×`);
    if (r !== undefined) ok &&= r <= mixBudget.ratio;
    else if (booksKinds.includes(k.kind)) ok = false;
  }
  return { ok, budget: parts.length > 0 ? parts.join(', ') : 'no errors' };
};

/** The rows of the main table: the mix at the base size, and at ten times the data. */
export const mixRows = (base: MixRun, tenfold: MixRun | undefined, reduced: boolean): Row[] => {
  const r = base.result;
  const listAndDashboard = r.kinds.filter(judgedOnP99);
  const worst = listAndDashboard.reduce<KindStats | undefined>(
    (w, k) => (!w || k.p99 > w.p99 ? k : w),
    undefined,
  );
  const slow = listAndDashboard.filter((k) => k.p99 >= mixBudget.p99);
  const rows: Row[] = [
    {
      db: 'PostgreSQL',
      endpoint: `working day: ${r.sessions} staff sessions, mixed requests (${n(base.payments)} payments, ${r.seconds} s)`,
      rps: r.rps,
      p50: r.p50,
      p99: r.p99,
      errors: r.errors,
      memMb: base.memMb,
      load: base.loadAfter,
      budget: `≥ ${mixBudget.rps} req/s; list and dashboard p99 < ${mixBudget.p99} ms`,
      note:
        `${n(r.requests)} requests, ${n((100 * r.writes) / Math.max(1, r.requests), 1)}% writes, ${n(r.conflicts)} edits refused by a concurrent one (409); ` +
        `slowest list or dashboard p99: ${worst ? `${worst.kind} ${ms(worst.p99)} ms` : '–'}` +
        (slow.length > 0 && !reduced ? `; over budget: ${slow.map((k) => k.kind).join(', ')}` : ''),
      ok: r.errors === 0 && (reduced || (r.rps >= mixBudget.rps && slow.length === 0)),
    },
  ];
  if (tenfold) {
    const t = tenfold.result;
    const ratios = r.kinds.map((k) => ({
      k,
      ratio: ratioOf(
        k,
        t.kinds.find((b) => b.kind === k.kind),
      ),
    }));
    const over = ratios.flatMap(({ k, ratio }) =>
      ratio !== undefined && ratio > mixBudget.ratio ? [`${k.kind} ${n(ratio, 1)} ×`] : [],
    );
    const unjudged = ratios.filter(({ ratio }) => ratio === undefined).length;
    rows.push({
      db: 'PostgreSQL',
      endpoint: `working day at ${n(tenfold.payments)} payments (${t.sessions} sessions, ${t.seconds} s)`,
      rps: t.rps,
      p50: t.p50,
      p99: t.p99,
      errors: t.errors,
      memMb: tenfold.memMb,
      load: tenfold.loadAfter,
      budget: `every kind's p95 ≤ ${mixBudget.ratio} × at ${n(base.payments)}`,
      note:
        `${n(t.requests)} requests, ${n(t.conflicts)} 409s; ${n(t.rps / Math.max(r.rps, 0.001), 2)} × the requests/s at ${n(base.payments)}` +
        (over.length > 0 ? `; slower: ${over.join(', ')}` : '') +
        (unjudged > 0
          ? `; ${unjudged} kinds of request too rare to compare (under ${mixBudget.minSamples} at either size)`
          : ''),
      ok: t.errors === 0 && over.length === 0,
    });
  }
  return rows;
};

/** The working day's table for docs/performance.md: every kind of request at each size. */
export const renderMix = (
  base: MixRun,
  tenfold: MixRun | undefined,
  reduced: boolean,
  date: string,
): string => {
  const r = base.result;
  const sizes = tenfold ? ` and at ${n(tenfold.payments)}` : '';
  const head = [
    'request',
    'share',
    'n',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'errors',
    '409',
    ...(tenfold ? ['req/s (10×)', 'p50 ms (10×)', 'p95 ms (10×)', 'p99 ms (10×)', 'p95 × (10× / 1×)'] : []),
    'budget',
    '',
  ];
  const align = head.map((h, i) => (i === 0 || h === 'budget' || h === '' ? '---' : '--:'));
  const lines = [
    `Run of ${date}${reduced ? ' (reduced: smoke test only)' : ''}: ${r.sessions} staff sessions at once (each signed in as its own ` +
      `user, one keep-alive connection each, the next request sent when the last is answered), ${r.seconds} s measured ` +
      `after a warm-up, at ${n(base.payments)} payments${sizes}. Load average ${n(base.loadBefore, 1)} → ${n(base.loadAfter, 1)}` +
      (tenfold
        ? ` (at ${n(tenfold.payments)}: ${n(tenfold.loadBefore, 1)} → ${n(tenfold.loadAfter, 1)})`
        : '') +
      '.',
    '',
    `- ${n(base.payments)} payments: ${n(r.rps)} requests/s, p50 ${ms(r.p50)} ms, p95 ${ms(r.p95)} ms, p99 ${ms(r.p99)} ms over all ` +
      `${n(r.requests)} requests (${n((100 * r.writes) / Math.max(1, r.requests), 1)}% writes), ${n(r.errors)} errors, ${n(r.conflicts)} edits refused by a concurrent edit (409).`,
    ...(tenfold
      ? [
          `- ${n(tenfold.payments)} payments: ${n(tenfold.result.rps)} requests/s, p50 ${ms(tenfold.result.p50)} ms, p95 ${ms(tenfold.result.p95)} ms, ` +
            `p99 ${ms(tenfold.result.p99)} ms over all ${n(tenfold.result.requests)} requests, ${n(tenfold.result.errors)} errors, ${n(tenfold.result.conflicts)} 409s.`,
        ]
      : []),
    '',
    `| ${head.join(' | ')} |`,
    `|${align.join('|')}|`,
  ];
  for (const k of r.kinds) {
    const big = tenfold?.result.kinds.find((b) => b.kind === k.kind);
    const v = verdict(k, big, !!tenfold, reduced);
    const ratio = ratioOf(k, big);
    const cells = [
      k.detail ? `… ${k.kind.replace('GET /payments page, ', '')}` : k.kind,
      k.detail ? '' : `${n((100 * k.count) / Math.max(1, r.requests), 1)}%`,
      n(k.count),
      n(k.rps),
      ms(k.p50),
      ms(k.p95),
      ms(k.p99),
      n(k.errors),
      k.group === 'write' ? n(k.conflicts) : '',
      ...(tenfold
        ? [n(big?.rps), ms(big?.p50), ms(big?.p95), ms(big?.p99), ratio === undefined ? '–' : n(ratio, 2)]
        : []),
      v.budget,
      v.ok ? 'met' : '**missed**',
    ];
    lines.push(`| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`);
  }
  if (r.failures.length > 0 || (tenfold?.result.failures.length ?? 0) > 0) {
    lines.push(
      '',
      'First failures:',
      '',
      ...[...r.failures, ...(tenfold?.result.failures ?? [])].map((f) => `- \`${f.replaceAll('`', "'")}\``),
    );
  }
  return lines.join('\n');
};
