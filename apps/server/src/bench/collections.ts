/**
 * The benchmark's collections phase (`npm run bench`, part `collections`): an MTN MoMo statement of
 * 20,000 lines (scaled by BENCH_SCALE) uploaded to the large company with `auto_post_matches` on,
 * imported and matched (budget: under 30 s), then the same statement again (every line a duplicate).
 * The lines pay the company's leases: a quarter by phone and unit (posted at once), a quarter by
 * phone alone, a quarter by unit name alone, a quarter from unknown payers. BENCH_COLLECTIONS_LINES
 * sets the statement's size alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { memorySampler, type Child } from './processes.ts';
import type { Row } from './report.ts';

const API = '/rentapi/api';
export const collectionsBudget = { seconds: 30 };

type Session = { cookie: string | undefined; csrf: string | undefined };
type Upload = {
  lines: number;
  new_lines: number;
  duplicate_lines: number;
  matched: number;
  suggested: number;
};

const headersOf = (s: Session) => ({
  ...(s.cookie ? { cookie: s.cookie } : {}),
  ...(s.csrf ? { 'x-csrf-token': s.csrf } : {}),
});

const uploadStatement = async (server: Child, s: Session, file: string) => {
  const form = new FormData();
  form.append('source', 'mtn_momo');
  form.append('file', new Blob([fs.readFileSync(file)]), path.basename(file));
  const res = await fetch(`${server.url}${API}/statements`, {
    method: 'POST',
    headers: headersOf(s),
    body: form,
  });
  const body = (await res.json()) as Upload;
  if (res.status !== 201) throw new Error(`statement upload: ${res.status} ${JSON.stringify(body)}`);
  return body;
};

const call = async (server: Child, s: Session, method: string, url: string, body?: unknown) => {
  const res = await fetch(`${server.url}${API}${url}`, {
    method,
    headers: { ...headersOf(s), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as Record<string, unknown>;
};

export const collectionsPhase = async (args: {
  server: Child;
  session: Session;
  db: Database;
  scale: number;
  reduced: boolean;
  add: (row: Row) => void;
}) => {
  const { server, session, db, reduced, add } = args;
  // BENCH_COLLECTIONS_LINES: the statement's size whatever the scale (a small dataset, a full statement)
  const n = Number(process.env.BENCH_COLLECTIONS_LINES) || Math.max(200, Math.round(20_000 * args.scale));
  const leases = await db.query<{ phone: string; unit: string; rate: string }>(
    `SELECT t.phone, u.name AS unit, o.rate::text AS rate
       FROM occupancy o JOIN tenants t ON t.company_id = o.company_id AND t.id = o.tenant_id
       JOIN units u ON u.company_id = o.company_id AND u.id = o.unit_id
      WHERE o.company_id = 1 AND o.end_date IS NULL ORDER BY o.id LIMIT 5000`,
  );
  if (leases.length === 0) throw new Error('collections: the large company has no open lease');
  const settings = await call(server, session, 'GET', '/company-settings');
  await call(server, session, 'PUT', '/company-settings', {
    auto_post_matches: true,
    version: settings.version,
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-bench-collections-'));
  try {
    const file = path.join(dir, 'momo.csv');
    const lines = ['Id,Date,Status,Note/Message,From,From Name,Amount,Currency'];
    const stamp = Date.now().toString(36);
    for (let i = 0; i < n; i++) {
      const l = leases[i % leases.length] ?? { phone: '', unit: '', rate: '100000' };
      const kind = i % 4;
      const phone =
        kind === 3 ? `2567009${String(i).padStart(5, '0')}` : kind === 2 ? '' : l.phone.replace('+', '');
      const note = kind === 0 || kind === 2 ? `Rent ${l.unit}` : 'rent';
      const amount = kind === 0 ? Math.round(Number(l.rate) / 2) : Number(l.rate);
      const day = String(1 + (i % 28)).padStart(2, '0');
      lines.push(
        `B${stamp}-${i},2026-02-${day} 10:00:00,Successful,"${note.replace(/"/g, '')}",${phone},PAYER ${i},${amount},UGX`,
      );
    }
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const mem = memorySampler(server.pid);
    const t0 = Date.now();
    const first = await uploadStatement(server, session, file);
    const seconds = (Date.now() - t0) / 1000;
    const memMb = mem.stop();
    add({
      db: 'PostgreSQL',
      endpoint: `POST /statements: ${n.toLocaleString('en-US')} MoMo lines imported and matched`,
      p50: Math.round(seconds * 1000),
      memMb,
      budget: `< ${collectionsBudget.seconds} s`,
      note: `${seconds.toFixed(1)} s: ${first.matched} matched (posted), ${first.suggested} suggested`,
      ok: first.new_lines === n && (reduced || seconds < collectionsBudget.seconds),
    });
    const t1 = Date.now();
    const again = await uploadStatement(server, session, file);
    const secondsAgain = (Date.now() - t1) / 1000;
    add({
      db: 'PostgreSQL',
      endpoint: `POST /statements: the same ${n.toLocaleString('en-US')} lines again (duplicates)`,
      p50: Math.round(secondsAgain * 1000),
      budget: `< ${collectionsBudget.seconds} s`,
      note: `${secondsAgain.toFixed(1)} s: ${again.duplicate_lines} duplicates, ${again.new_lines} new`,
      ok:
        again.duplicate_lines === n &&
        again.new_lines === 0 &&
        (reduced || secondsAgain < collectionsBudget.seconds),
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
