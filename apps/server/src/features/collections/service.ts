import { sql } from 'drizzle-orm';
import {
  AppError,
  DEFAULT_CURRENCY,
  formatCents,
  isReceivedWhen,
  toCents,
  type StatementLineStatus,
  type StatementMapping,
  type StatementSource,
  type StatementUpload,
} from '@kodi/domain';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { isoDaySql } from '../../db/dates.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import type { CellContext } from '../../modules/files/cells.ts';
import type { FileKind } from '../../modules/files/file-rows.ts';
import {
  loadMatchIndex,
  matchLines,
  matchReasons,
  memoryKey,
  rememberMatch,
  type MatchIndex,
  type MatchResult,
} from './matching.ts';
import { postPayments, type Poster } from './posting.ts';
import { statementLines, type ReadLine } from './statement-file.ts';

/** A PostgreSQL array literal of texts (one parameter for many; the unique index reads it). */
const textArray = (items: readonly string[]) =>
  `{${items.map((s) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/** Lines read, matched and written a thousand at a time. */
const BATCH = 1000;

/** The company's currency, its symbol and its country's dialling code: how its files are read. */
export const companyCells = async (
  db: DbOrTx,
  companyId: number,
): Promise<CellContext & { currency: { code: string } }> => {
  const [c] = await execRows<{ code: string | null; symbol: string | null; phone_code: number | null }>(
    db,
    sql`SELECT trim(c.currency_code) AS code, cu.symbol, co.phone_code
          FROM companies c
          LEFT JOIN currencies cu ON cu.currency_code = c.currency_code
          LEFT JOIN countries co ON co.country_code = c.country_code
         WHERE c.id = ${companyId}`,
  );
  return {
    dateFormat: 'DD/MM/YYYY',
    currency: { code: c?.code || DEFAULT_CURRENCY, symbol: c?.symbol ?? null },
    callingCode: c?.phone_code ? Number(c.phone_code) : null,
    year: new Date().getUTCFullYear(),
  };
};

export const autoPostOf = async (db: DbOrTx, companyId: number): Promise<boolean> => {
  const [s] = await execRows<{ auto_post_matches: boolean }>(
    db,
    sql`SELECT auto_post_matches FROM company_settings WHERE company_id = ${companyId}`,
  );
  return !!s?.auto_post_matches;
};

/** A line to write: as read (or received), with its match. */
type NewLine = Omit<ReadLine, 'row'> & { source: string; match: MatchResult | null };

/**
 * Writes lines once (a transaction id already kept for the company and source is a duplicate and
 * changes nothing: `ON CONFLICT DO NOTHING`), and posts the payments of those matched with certainty
 * (`status` matched: the company posts automatically). Answers the new lines' ids by their position,
 * null for a duplicate.
 */
export const writeLines = async (
  tx: DbOrTx,
  payments: ServerEntity,
  poster: Poster,
  statementId: number | null,
  lines: readonly NewLine[],
): Promise<(number | null)[]> => {
  if (lines.length === 0) return [];
  const rows = lines.map((l, i) => ({
    i,
    source: l.source,
    transaction_id: l.transaction_id,
    date: l.date,
    amount: formatCents(toCents(l.amount)),
    direction: l.direction,
    payer_phone: l.payer_phone,
    payer_name: l.payer_name,
    reference: l.reference,
    status: l.direction === 'out' ? 'ignored' : (l.match?.status ?? 'unmatched'),
    confidence: l.direction === 'out' ? 0 : (l.match?.confidence ?? 0),
    occupancy_id: l.direction === 'out' ? null : (l.match?.occupancy_id ?? null),
    tenant_id: l.direction === 'out' ? null : (l.match?.tenant_id ?? null),
    ignore_reason: l.direction === 'out' ? 'Outgoing (a withdrawal or a fee).' : null,
    match_reason: l.direction === 'out' ? null : (l.match?.reason ?? null),
  }));
  const inserted = await execRows<{ id: number; i: number }>(
    tx,
    sql`WITH x AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(
            i int, source text, transaction_id text, date date, amount numeric, direction text, payer_phone text,
            payer_name text, reference text, status text, confidence int, occupancy_id int, tenant_id int,
            ignore_reason text, match_reason text)
        ),
        ins AS (
          INSERT INTO statement_lines (company_id, statement_id, source, transaction_id, date, amount, direction,
                 payer_phone, payer_name, reference, status, confidence, occupancy_id, tenant_id, ignore_reason,
                 match_reason)
          SELECT ${poster.company_id}, ${statementId}, source, transaction_id, date, amount, direction, payer_phone,
                 payer_name, reference, status, confidence, occupancy_id, tenant_id, ignore_reason,
                 left(match_reason, 300)
            FROM x ORDER BY i
          ON CONFLICT (company_id, source, transaction_id) DO NOTHING
          RETURNING id, source, transaction_id
        )
        SELECT ins.id, min(x.i) AS i FROM ins JOIN x ON x.source = ins.source AND x.transaction_id = ins.transaction_id
         GROUP BY ins.id`,
  );
  const ids: (number | null)[] = lines.map(() => null);
  for (const r of inserted) ids[Number(r.i)] = Number(r.id);
  const postings = lines.flatMap((l, i) => {
    const id = ids[i];
    const row = rows[i];
    if (id === null || id === undefined || row?.status !== 'matched' || !l.match?.occupancy_id) return [];
    return [
      {
        lineId: id,
        source: l.source,
        transaction_id: l.transaction_id,
        date: l.date,
        payer: l.payer_name ?? l.payer_phone,
        allocations: [{ occupancy_id: l.match.occupancy_id, amount: row.amount }],
      },
    ];
  });
  await postPayments(tx, payments, poster, postings);
  return ids;
};

/**
 * Imports a statement file: reads its lines a thousand at a time, matches them (outside any
 * transaction: the company's index read once, the amounts due of a batch's leases at once), and
 * writes each batch with its automatic payments in one transaction. Answers the upload's counts.
 */
export const importStatement = async (
  database: Database,
  payments: ServerEntity,
  user: Poster,
  file: { path: string; kind: FileKind; name: string },
  source: StatementSource,
  mapping: StatementMapping | undefined,
): Promise<StatementUpload> => {
  const { db } = database;
  const ctx = await companyCells(db, user.company_id);
  const autoPost = await autoPostOf(db, user.company_id);
  // read once to check every row (a file refused at a row leaves nothing), then again to write
  let readable = 0;
  for await (const _line of statementLines(file.path, file.kind, source, mapping, ctx)) readable++;
  if (readable === 0)
    throw new AppError('validation_failed', 'The file has no transactions.', {
      file: 'The file has no transactions.',
    });
  let index: MatchIndex | undefined;
  const [statement] = await execRows<{ id: number }>(
    db,
    sql`INSERT INTO statements (company_id, source, file_name, user_id)
        VALUES (${user.company_id}, ${source}, ${file.name.slice(0, 255)}, ${user.id}) RETURNING id`,
  );
  const statementId = Number(statement?.id);
  const counts = { lines: 0, new_lines: 0, duplicate_lines: 0, matched: 0, suggested: 0, unmatched: 0 };
  let batch: ReadLine[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    index ??= await loadMatchIndex(db, user.company_id);
    // lines kept already (an overlapping statement) are not matched again: the insert skips them
    const known = new Set(
      (
        await execRows<{ transaction_id: string }>(
          db,
          sql`SELECT transaction_id FROM statement_lines
               WHERE company_id = ${user.company_id} AND source = ${source}
                 AND transaction_id = ANY(${textArray(batch.map((l) => l.transaction_id))}::text[])`,
        )
      ).map((r) => r.transaction_id),
    );
    const incoming = batch.filter((l) => l.direction === 'in' && !known.has(l.transaction_id));
    const results = await matchLines(
      database,
      user.company_id,
      index,
      incoming.map((l) => ({
        date: l.date,
        amount: toCents(l.amount),
        payer_phone: l.payer_phone,
        reference: l.reference,
      })),
      autoPost,
    );
    const byLine = new Map(incoming.map((l, i) => [l, results[i] ?? null]));
    const lines = batch.map((l) => ({ ...l, source, match: byLine.get(l) ?? null }));
    const ids = await db.transaction((tx) => writeLines(tx, payments, user, statementId, lines));
    lines.forEach((l, i) => {
      counts.lines++;
      if (ids[i] === null) {
        counts.duplicate_lines++;
        return;
      }
      counts.new_lines++;
      if (l.direction === 'out') return;
      const status: StatementLineStatus = l.match?.status ?? 'unmatched';
      if (status === 'matched') counts.matched++;
      else if (status === 'suggested') counts.suggested++;
      else counts.unmatched++;
    });
    batch = [];
  };
  try {
    for await (const line of statementLines(file.path, file.kind, source, mapping, ctx)) {
      batch.push(line);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  } finally {
    await db.execute(
      sql`UPDATE statements SET lines = ${counts.lines}, new_lines = ${counts.new_lines},
                 duplicate_lines = ${counts.duplicate_lines}, updated_at = now()
           WHERE company_id = ${user.company_id} AND id = ${statementId}`,
    );
  }
  return { id: statementId, source, ...counts };
};

/** A line locked for a change, in the user's company (another company's: 404). */
export const lockLine = async (tx: DbOrTx, companyId: number, id: number) => {
  const [line] = await execRows<{
    id: number;
    source: string;
    transaction_id: string;
    date: string;
    amount: string;
    status: StatementLineStatus;
    payer_name: string | null;
    payer_phone: string | null;
    reference: string | null;
  }>(
    tx,
    sql`SELECT id, source, transaction_id, ${sql.raw(isoDaySql('date'))} AS date, amount::text AS amount, status,
               payer_name, payer_phone, reference
          FROM statement_lines WHERE company_id = ${companyId} AND id = ${id} FOR UPDATE`,
  );
  if (!line) throw new AppError('not_found', 'Statement line not found.');
  return line;
};

/**
 * Staff matched a line by hand to one lease (issue 26): the matching remembers it, and the open lines
 * of the same payer phone (or reference, for lines without a phone) follow it now: suggested, or
 * matched and posted when the company posts automatically. Answers how many followed.
 */
export const followHandMatch = async (
  tx: DbOrTx,
  payments: ServerEntity,
  poster: Poster,
  taught: { id: number; payer_phone: string | null; reference: string | null },
  occupancyId: number,
): Promise<number> => {
  await rememberMatch(tx, poster.company_id, taught, occupancyId);
  const { callingCode } = await companyCells(tx, poster.company_id);
  const k = memoryKey(taught, callingCode);
  if (!k) return 0;
  const digits = k.kind === 'phone' ? k.key.replace(/\D/g, '').slice(-9) : null;
  const open = await execRows<{
    id: number;
    source: string;
    transaction_id: string;
    date: string;
    amount: string;
    payer_phone: string | null;
    payer_name: string | null;
    reference: string | null;
  }>(
    tx,
    sql`SELECT id, source, transaction_id, ${sql.raw(isoDaySql('date'))} AS date, amount::text AS amount,
               payer_phone, payer_name, reference
          FROM statement_lines
         WHERE company_id = ${poster.company_id} AND id <> ${taught.id} AND direction = 'in'
           AND status IN ('unmatched', 'suggested')
           AND ${
             digits
               ? sql`right(regexp_replace(payer_phone, '[^0-9]', '', 'g'), 9) = ${digits}`
               : sql`payer_phone IS NULL AND reference IS NOT NULL`
           }
         ORDER BY id FOR UPDATE`,
  );
  const same = open.filter((l) => {
    const m = memoryKey(l, callingCode);
    return m?.kind === k.kind && m.key === k.key && isReceivedWhen(l.date);
  });
  if (same.length === 0) return 0;
  const autoPost = await autoPostOf(tx, poster.company_id);
  if (autoPost)
    await postPayments(
      tx,
      payments,
      poster,
      same.map((l) => ({
        lineId: l.id,
        source: l.source,
        transaction_id: l.transaction_id,
        date: l.date,
        payer: l.payer_name ?? l.payer_phone,
        allocations: [{ occupancy_id: occupancyId, amount: formatCents(toCents(l.amount)) }],
      })),
    );
  await tx.execute(
    sql`UPDATE statement_lines
           SET status = ${autoPost ? 'matched' : 'suggested'}, confidence = 90, occupancy_id = ${occupancyId},
               tenant_id = (SELECT tenant_id FROM occupancy WHERE company_id = ${poster.company_id} AND id = ${occupancyId}),
               match_reason = ${matchReasons.remembered(k.kind)}, version = version + 1, updated_at = now()
         WHERE company_id = ${poster.company_id}
           AND id IN (SELECT (jsonb_array_elements_text(${JSON.stringify(same.map((l) => l.id))}::jsonb))::int)`,
  );
  return same.length;
};
