import fs from 'node:fs';
import type { DatasetSize } from './dataset.ts';
import type { Machine } from './machine.ts';

/** One line of the results table. */
export type Row = {
  db: 'PostgreSQL' | 'PGlite' | 'Web';
  endpoint: string;
  rps?: number;
  /** ms */
  p50?: number;
  /** ms */
  p99?: number;
  errors?: number;
  /** our throughput / the bare baseline's on the same SQL */
  ratio?: number;
  /** peak resident memory of the server process, MB */
  memMb?: number;
  budget: string;
  note?: string;
  ok: boolean;
  /** the machine's 1-minute load average when the row was measured */
  load?: number;
};

const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

const n = (v: number | undefined, digits = 0) =>
  v === undefined || Number.isNaN(v)
    ? '–'
    : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const renderReport = (r: {
  machine: Machine;
  rows: Row[];
  size: DatasetSize;
  reduced: boolean;
  duration: number;
  connections: number;
  seconds: number;
}): string => {
  const m = r.machine;
  const lines = [
    `Run of ${m.date}${r.reduced ? ' (reduced: smoke test only)' : ''}, ${Math.round(r.seconds)} s in all.`,
    '',
    `- Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB; ${m.postgres}; Node ${m.node}; ` +
      `load average ${m.loadAverage} when the run started.`,
    `- Dataset: one company of ${n(r.size.units)} units, ${n(r.size.tenants)} tenants, ${n(r.size.leases)} leases, ` +
      `${n(r.size.payments)} payments, ${n(r.size.expenses)} expenses, ${n(r.size.requests)} maintenance requests, ` +
      `${n(r.size.employees)} employees with a year of wages; plus ${r.size.smallCompanies} small companies.`,
    `- Load: autocannon in its own process, ${r.connections} connections on PostgreSQL (1 on PGlite), ` +
      `${r.duration} s per endpoint after a warm-up; server pool of 16 connections; LOG_LEVEL=warn.`,
    '',
    '| | endpoint | req/s | p50 ms | p99 ms | errors | × baseline | peak RSS MB | load | budget | |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|---|---|',
    ...r.rows.map(
      (row) =>
        `| ${row.db} | ${row.endpoint}${row.note ? ` — ${row.note}` : ''} | ${n(row.rps)} | ${n(row.p50, row.p50 !== undefined && row.p50 < 10 ? 1 : 0)} | ` +
        `${n(row.p99, row.p99 !== undefined && row.p99 < 10 ? 1 : 0)} | ${n(row.errors)} | ${row.ratio === undefined ? '' : n(row.ratio, 2)} | ` +
        `${n(row.memMb)} | ${n(row.load, 1)} | ${row.budget} | ${row.ok ? 'met' : '**missed**'} |`,
    ),
  ];
  return lines.join('\n');
};

const EXPLAIN_START = '<!-- bench:explain:start -->';
const EXPLAIN_END = '<!-- bench:explain:end -->';

/** `text` between the markers `start` and `end` of `doc` (appended with them when missing). */
const between = (doc: string, start: string, end: string, text: string) => {
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  return a >= 0 && b > a
    ? `${doc.slice(0, a + start.length)}\n${text}\n${doc.slice(b)}`
    : `${doc.trimEnd()}\n\n${start}\n${text}\n${end}\n`;
};

/** The generated parts of docs/performance.md besides the table: each between its own markers. */
export type Section = 'results' | 'explain' | 'mix' | 'sorts';
const MARKERS: Record<Section, [string, string]> = {
  results: [START, END],
  explain: [EXPLAIN_START, EXPLAIN_END],
  mix: ['<!-- bench:mix:start -->', '<!-- bench:mix:end -->'],
  sorts: ['<!-- bench:sorts:start -->', '<!-- bench:sorts:end -->'],
};

/** Puts each text given between its markers of docs/performance.md, leaving the rest as written. */
export const writeSections = (file: string, sections: Partial<Record<Section, string>>) => {
  let doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Performance\n';
  for (const [name, text] of Object.entries(sections) as [Section, string][]) {
    const [start, end] = MARKERS[name];
    if (text) doc = between(doc, start, end, text);
  }
  fs.writeFileSync(file, doc);
};

/** Puts the results (and the plans) between the markers of docs/performance.md, leaving the rest as written. */
export const writeReport = (file: string, text: string, explained: string) =>
  writeSections(file, { results: text, explain: explained });
