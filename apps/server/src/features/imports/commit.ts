import { sql } from 'drizzle-orm';
import { AppError, allows, importFields, type ImportCommitResult, type SessionUser } from '@kodi/domain';
import { execRows, type Database, type Tx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { fromClause, presentRow, selectList } from '../../crud/sql.ts';
import { getRecord, recordAudits, updateRecord } from '../../crud/service.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import { BATCH_ROWS, type StagedRow } from './preview.ts';

type ImportHead = {
  entity: string;
  status: string;
  valid_rows: number;
  invalid_rows: number;
  expired: boolean;
};

/** The import's state, refused unless it can be committed: 404, 409 when committed, 409 when expired. */
export const committable = async (db: Database['db'] | Tx, companyId: number, id: number, lock = false) => {
  const [head] = await execRows<ImportHead>(
    db,
    sql`SELECT entity, status, valid_rows, invalid_rows,
               (created_at < now() - interval '24 hours') AS expired
          FROM imports WHERE company_id = ${companyId} AND id = ${id}${lock ? sql` FOR UPDATE` : sql``}`,
  );
  if (!head) throw new AppError('not_found', 'Import not found.');
  if (head.status === 'committed') throw new AppError('conflict', 'This import has already been committed.');
  if (head.expired) throw new AppError('import_expired');
  return head;
};

/** Equal as saved: numbers by value, blanks alike, text as it is. */
const same = (a: unknown, b: unknown): boolean => {
  const blank = (v: unknown) => v === null || v === undefined || v === '';
  if (blank(a) || blank(b)) return blank(a) && blank(b);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return String(a) === String(b);
};

const COLUMN = /^[a-z_][a-z0-9_]*$/;

/**
 * New records of one batch in one statement per set of columns (a column a record leaves out takes
 * its DEFAULT, as `insertRecords` does), their values sent as one JSON parameter: a thousand records'
 * seventeen thousand parameters cost the server more than the database's work. Answers them as
 * listed (no images, no documents), in their order.
 */
const insertJson = async (tx: Tx, e: ServerEntity, companyId: number, records: Record<string, unknown>[]) => {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of records) {
    const key = Object.keys(r)
      .filter((k) => r[k] !== undefined)
      .sort()
      .join(',');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out: Record<string, unknown>[] = [];
  const table = e.sql.table;
  for (const [key, rows] of groups) {
    const cols = key.split(',').filter(Boolean);
    if (!cols.every((c) => COLUMN.test(c))) throw new Error(`${table}: a column name is not plain`);
    const inserted = await execRows<Record<string, unknown>>(
      tx,
      sql`WITH t AS (
            INSERT INTO ${sql.raw(table)} (company_id${sql.raw(cols.map((c) => `, ${c}`).join(''))})
            SELECT ${companyId}${sql.raw(cols.map((c) => `, r.${c}`).join(''))}
              FROM jsonb_populate_recordset(NULL::${sql.raw(table)}, ${JSON.stringify(rows)}::jsonb) AS r
            RETURNING *
          )
          SELECT ${selectList(e.def, e.sql, { list: true })} FROM t${sql.raw(e.sql.joins ? ` ${e.sql.joins}` : '')}`,
    );
    if (inserted.length !== rows.length) throw new Error(`${table}: a created record is missing`);
    out.push(...inserted.map((r) => presentRow(e.def, r)));
  }
  return out.sort((a, b) => Number(a.id) - Number(b.id));
};

/** The audit entries of a batch, naming the import, in one statement with one JSON parameter. */
const auditJson = async (
  tx: Tx,
  e: ServerEntity,
  user: SessionUser,
  importId: number,
  action: 'create' | 'update',
  entries: { id: number; before: Record<string, unknown> | null; after: Record<string, unknown> }[],
) => {
  if (entries.length === 0) return;
  await tx.execute(
    sql`INSERT INTO audit_entries (company_id, entity, record_id, action, user_id, before, after, import_id)
        SELECT ${user.company_id}, ${e.def.name}, (x->>'id')::int, ${action}, ${user.id},
               NULLIF(x->'before', 'null'::jsonb), x->'after', ${importId}
          FROM jsonb_array_elements(${JSON.stringify(entries)}::jsonb) AS x`,
  );
};

const onRow = (row: number, err: unknown): never => {
  if (err instanceof AppError) throw new AppError(err.code, `Row ${row}: ${err.message}`, err.fields);
  throw err;
};

/**
 * Saves every valid row of an import in one transaction, a batch at a time: new records in one
 * multi-row INSERT per batch (after the entity's own rules for all of them: payments take their
 * lease, serial and receipt number as the payments route does), records named by an existing
 * external_ref updated where a value differs (`unchanged` otherwise), each with its audit entry
 * naming the import. A second commit is `409 conflict`; one after 24 hours `409 import_expired`.
 */
export const commitImport = async (
  database: Database,
  user: SessionUser,
  entities: ReadonlyMap<string, ServerEntity>,
  id: number,
  onProgress?: (processed: number, total: number) => void,
): Promise<ImportCommitResult> => {
  const companyId = user.company_id;
  return database.db.transaction(async (tx) => {
    const head = await committable(tx, companyId, id, true);
    const e = entities.get(head.entity);
    if (!e) throw new AppError('not_found', 'Import not found.');
    const counts = { created: 0, updated: 0, unchanged: 0 };
    let last = 0;
    let processed = 0;
    for (;;) {
      const rows = await execRows<{ row_no: number; data: StagedRow | string }>(
        tx,
        sql`SELECT row_no, data FROM import_rows
             WHERE company_id = ${companyId} AND import_id = ${id} AND valid AND row_no > ${last}
             ORDER BY row_no LIMIT ${BATCH_ROWS}`,
      );
      if (rows.length === 0) break;
      last = Number(rows[rows.length - 1]?.row_no);
      const staged = rows.map((r) => ({
        row: Number(r.row_no),
        ...((typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as StagedRow),
      }));
      const creations = staged.filter((s) => s.id === undefined);
      const changes = staged.filter((s) => s.id !== undefined);

      if (creations.length > 0) {
        let values: Record<string, unknown>[] = creations.map((c) => c.values);
        if (e.prepareMany) {
          const prepared = await e.prepareMany({ tx, companyId, values });
          values = prepared.map((p, i) => (p instanceof AppError ? onRow(creations[i]?.row ?? 0, p) : p));
        } else if (e.prepare) {
          const prepare = e.prepare;
          const out: Record<string, unknown>[] = [];
          for (const [i, v] of values.entries())
            out.push(
              await prepare({ tx, user, values: v }).catch((err: unknown) =>
                onRow(creations[i]?.row ?? 0, err),
              ),
            );
          values = out;
        }
        const records = await insertJson(tx, e, companyId, values);
        await auditJson(
          tx,
          e,
          user,
          id,
          'create',
          records.map((record) => ({ id: Number(record.id), before: null, after: record })),
        );
        counts.created += records.length;
      }

      if (changes.length > 0) {
        if (!allows(e.def.access.update, user))
          throw new AppError('forbidden', `You may not change ${e.def.name}.`);
        const current = await execRows<Record<string, unknown>>(
          tx,
          sql`SELECT ${selectList(e.def, e.sql, { list: true })} FROM ${fromClause(e.sql)}
               WHERE t.company_id = ${companyId}
                 AND t.id IN (SELECT (jsonb_array_elements_text(${JSON.stringify(changes.map((c) => c.id))}::jsonb))::int)`,
        );
        const byId = new Map(current.map((r) => [Number(r.id), presentRow(e.def, r)]));
        const audits = [];
        for (const change of changes) {
          const before = byId.get(Number(change.id));
          if (!before)
            throw new AppError(
              'conflict',
              `Row ${change.row}: the record it updates was deleted after the preview. Preview the file again.`,
            );
          const differs = Object.entries(change.values).some(([k, v]) => !same(v, before[k]));
          if (!differs) {
            counts.unchanged++;
            continue;
          }
          const recordId = Number(change.id);
          try {
            // the entity's rules see the whole record as it will be (a payment's tenant, unit and date
            // find its lease), as a PUT from its form sends it
            const whole: Record<string, unknown> = {};
            for (const f of importFields(e.def))
              if (before[f.name] !== undefined) whole[f.name] = before[f.name];
            Object.assign(whole, change.values);
            const values = e.prepare ? await e.prepare({ tx, user, values: whole, existing: before }) : whole;
            await updateRecord(tx, e, user, recordId, Number(before.version), values);
          } catch (err) {
            onRow(change.row, err);
          }
          const after = await getRecord(tx, e, user, recordId);
          audits.push({ user, action: 'update' as const, recordId, before, after, importId: id });
          counts.updated++;
        }
        // one by one: updates are the few rows that changed, each through the entity's own rules
        await recordAudits(tx, e, audits);
      }
      processed += staged.length;
      onProgress?.(processed, Number(head.valid_rows));
    }
    await tx.execute(
      sql`DELETE FROM import_rows WHERE company_id = ${companyId} AND import_id = ${id} AND valid`,
    );
    const skipped = Number(head.invalid_rows);
    await tx.execute(
      sql`UPDATE imports SET status = 'committed', created = ${counts.created}, updated = ${counts.updated},
                 unchanged = ${counts.unchanged}, skipped_invalid = ${skipped}, committed_at = now(),
                 updated_at = now(), version = version + 1
           WHERE company_id = ${companyId} AND id = ${id}`,
    );
    await recordAuditEntry(tx, {
      companyId,
      userId: user.id,
      action: 'import',
      entity: 'imports',
      recordId: id,
      after: { entity: head.entity, ...counts, skipped_invalid: skipped },
      summary: `Import of ${e.def.name.replace(/_/g, ' ')}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${skipped} skipped`,
      importId: id,
    });
    return { id, status: 'committed' as const, ...counts, skipped_invalid: skipped };
  });
};
