/**
 * The benchmark's import phase (`npm run bench`, part `import`): a preview and a commit of 10,000
 * tenants (an xlsx workbook) and of 100,000 payments (a CSV file) on the PostgreSQL server, each
 * timed with the server's peak memory. Budget: 100,000 payments committed in under 60 s with the
 * server under 300 MB, and previewed under 300 MB. Scaled by BENCH_SCALE like the dataset.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Database } from '../db/client.ts';
import { memorySampler, type Child } from './processes.ts';
import type { Row } from './report.ts';

const API = '/rentapi/api';

export const importBudget = { paymentsCommitSeconds: 60, memMb: 300 };

type Session = { cookie: string | undefined; csrf: string | undefined };

type ImportAnswer = { id: number; valid_rows: number; invalid_rows: number; errors: unknown[] };
type CommitAnswer = { created: number; updated: number; unchanged: number };

const timed = async <T>(server: Child, work: () => Promise<T>) => {
  const mem = memorySampler(server.pid);
  const t0 = Date.now();
  const value = await work();
  return { value, seconds: (Date.now() - t0) / 1000, memMb: mem.stop() };
};

const headersOf = (s: Session) => ({
  ...(s.cookie ? { cookie: s.cookie } : {}),
  ...(s.csrf ? { 'x-csrf-token': s.csrf } : {}),
});

const previewFile = async (server: Child, s: Session, entity: string, file: string) => {
  const form = new FormData();
  form.append('entity', entity);
  form.append('file', new Blob([fs.readFileSync(file)]), path.basename(file));
  const res = await fetch(`${server.url}${API}/imports`, {
    method: 'POST',
    headers: headersOf(s),
    body: form,
  });
  const body = (await res.json()) as ImportAnswer;
  if (res.status !== 201) throw new Error(`preview of ${entity}: ${res.status} ${JSON.stringify(body)}`);
  return body;
};

const commit = async (server: Child, s: Session, id: number) => {
  const res = await fetch(`${server.url}${API}/imports/${id}/commit`, {
    method: 'POST',
    headers: headersOf(s),
  });
  const body = (await res.json()) as CommitAnswer;
  if (res.status !== 200) throw new Error(`commit of import ${id}: ${res.status} ${JSON.stringify(body)}`);
  return body;
};

/** The tenants workbook, written by ExcelJS's streaming writer (dates as Excel dates, phones as text). */
export const writeTenants = async (file: string, n: number) => {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Tenants');
  sheet
    .addRow(['First Name', 'Last Name', 'Sex', 'Phone number', 'Date of Birth', 'Email', 'External Ref'])
    .commit();
  for (let i = 1; i <= n; i++)
    sheet
      .addRow([
        `Imported${i}`,
        ['Namuli', 'Okello', 'Akello', 'Mugisha'][i % 4],
        i % 2 ? 'F' : 'M',
        `0780 ${String(100000 + i).padStart(6, '0')}`,
        new Date(Date.UTC(1970 + (i % 30), i % 12, 1 + (i % 28))),
        `imported${i}@example.com`,
        `BT-${i}`,
      ])
      .commit();
  sheet.commit();
  await workbook.commit();
};

/** The payments file: each of the imported tenants' leases paid in turn, referred to by external refs. */
export const writePayments = (file: string, n: number, tenants: number) => {
  const out = fs.openSync(file, 'w');
  try {
    fs.writeSync(
      out,
      'Tenant,Unit,Payment Date,Amount,Method,Status,Period start,Period end,Reference,External Ref\n',
    );
    let chunk = '';
    for (let i = 1; i <= n; i++) {
      const t = 1 + (i % tenants);
      const month = 1 + (Math.floor(i / tenants) % 12);
      const m = String(month).padStart(2, '0');
      chunk += `BT-${t},BU-${t},2025-${m}-05,"UGX 750,000",Mobile Money,completed,2025-${m}-01,2025-${m}-28,MM-${i},BP-${i}\n`;
      if (chunk.length > 1 << 20) {
        fs.writeSync(out, chunk);
        chunk = '';
      }
    }
    fs.writeSync(out, chunk);
  } finally {
    fs.closeSync(out);
  }
};

/**
 * Runs the phase against a server of the benchmark's database (its large company is company 1) and
 * adds its rows. The imported tenants get a lease each (in SQL, not measured) so that the payments
 * have leases to be checked against.
 */
export const importPhase = async (args: {
  server: Child;
  session: Session;
  db: Database;
  scale: number;
  reduced: boolean;
  add: (row: Row) => void;
}) => {
  const { server, session, db, reduced, add } = args;
  const tenants = Math.max(50, Math.round(10_000 * args.scale));
  const payments = Math.max(200, Math.round(100_000 * args.scale));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-bench-import-'));
  try {
    const tenantsFile = path.join(dir, 'tenants.xlsx');
    const paymentsFile = path.join(dir, 'payments.csv');
    await writeTenants(tenantsFile, tenants);

    const tp = await timed(server, () => previewFile(server, session, 'tenants', tenantsFile));
    add({
      db: 'PostgreSQL',
      endpoint: `POST /imports: preview of ${tenants.toLocaleString('en-US')} tenants (xlsx, ${(fs.statSync(tenantsFile).size / 1e6).toFixed(1)} MB)`,
      p50: Math.round(tp.seconds * 1000),
      memMb: tp.memMb,
      budget: `< ${importBudget.memMb} MB`,
      note: `${tp.seconds.toFixed(1)} s, ${tp.value.valid_rows} valid, ${tp.value.invalid_rows} rejected`,
      ok: tp.value.valid_rows === tenants && (reduced || tp.memMb < importBudget.memMb),
    });
    const tc = await timed(server, () => commit(server, session, tp.value.id));
    add({
      db: 'PostgreSQL',
      endpoint: `POST /imports/{id}/commit: ${tenants.toLocaleString('en-US')} tenants`,
      p50: Math.round(tc.seconds * 1000),
      memMb: tc.memMb,
      budget: `< ${importBudget.memMb} MB`,
      note: `${tc.seconds.toFixed(1)} s, ${tc.value.created} created`,
      ok: tc.value.created === tenants && (reduced || tc.memMb < importBudget.memMb),
    });

    // a unit and a lease for each imported tenant, named by external refs
    await db.query(
      `UPDATE units SET external_ref = 'BU-' || n FROM (
         SELECT id, row_number() OVER (ORDER BY id) AS n FROM units WHERE company_id = 1 ORDER BY id LIMIT $1) u
        WHERE units.company_id = 1 AND units.id = u.id`,
      [tenants],
    );
    await db.query(
      `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate, rent_cycle, external_ref)
       SELECT 1, t.id, u.id, date '2024-01-01', 750000, 'monthly', 'BL-' || substr(t.external_ref, 4)
         FROM tenants t JOIN units u ON u.company_id = 1 AND u.external_ref = 'BU-' || substr(t.external_ref, 4)
        WHERE t.company_id = 1 AND t.external_ref LIKE 'BT-%'`,
    );
    const units = Number(
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM units WHERE company_id = 1 AND external_ref LIKE 'BU-%'`,
        )
      )[0]?.n,
    );
    writePayments(paymentsFile, payments, Math.min(tenants, units));

    const pp = await timed(server, () => previewFile(server, session, 'payments', paymentsFile));
    add({
      db: 'PostgreSQL',
      endpoint: `POST /imports: preview of ${payments.toLocaleString('en-US')} payments (CSV, ${(fs.statSync(paymentsFile).size / 1e6).toFixed(1)} MB)`,
      p50: Math.round(pp.seconds * 1000),
      memMb: pp.memMb,
      budget: `< ${importBudget.memMb} MB`,
      note: `${pp.seconds.toFixed(1)} s, ${pp.value.valid_rows} valid, ${pp.value.invalid_rows} rejected`,
      ok: pp.value.valid_rows === payments && (reduced || pp.memMb < importBudget.memMb),
    });
    const pc = await timed(server, () => commit(server, session, pp.value.id));
    add({
      db: 'PostgreSQL',
      endpoint: `POST /imports/{id}/commit: ${payments.toLocaleString('en-US')} payments`,
      p50: Math.round(pc.seconds * 1000),
      memMb: pc.memMb,
      budget: `< ${importBudget.paymentsCommitSeconds} s, < ${importBudget.memMb} MB`,
      note: `${pc.seconds.toFixed(1)} s, ${pc.value.created} created`,
      ok:
        pc.value.created === payments &&
        (reduced || (pc.seconds < importBudget.paymentsCommitSeconds && pc.memMb < importBudget.memMb)),
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
