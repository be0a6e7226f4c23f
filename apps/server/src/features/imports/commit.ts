import { sql } from 'drizzle-orm';
import { AppError, allows, importFields, type ImportCommitResult, type SessionUser } from '@kodi/domain';
import { execRows, type Database, type Tx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { fromClause, presentRow, selectList } from '../../crud/sql.ts';
import { records as recordWriter } from '../../crud/records.ts';
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
    // leases: the tenants created with them, once for every row of the same new tenant
    const tenantIds = new Map<string, number>();
    const tenantsEntity = entities.get('tenants');
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

      const newTenants = creations.flatMap((c) =>
        c.tenant && !tenantIds.has(c.tenant.key) ? [{ row: c.row, ...c.tenant }] : [],
      );
      const firstOfKey = [...new Map(newTenants.map((t) => [t.key, t])).values()];
      if (firstOfKey.length > 0) {
        if (!tenantsEntity || !allows(tenantsEntity.def.access.create, user))
          throw new AppError('forbidden', 'You may not add tenants.');
        const made = await recordWriter.createMany(
          tx,
          tenantsEntity,
          firstOfKey.map((t) => ({ user, values: t.values })),
          { json: true, importId: id },
        );
        for (const [i, r] of made.entries()) {
          if (r instanceof AppError) onRow(firstOfKey[i]?.row ?? 0, r);
          else tenantIds.set(firstOfKey[i]?.key ?? '', Number(r.id));
        }
      }
      for (const c of creations)
        if (c.tenant) c.values = { ...c.values, tenant_id: tenantIds.get(c.tenant.key) };

      if (creations.length > 0) {
        // the entity's rules for all of them, one INSERT (the values as one JSON parameter) and their
        // audit entries naming the import; a row its rules refuse fails the commit, naming its row
        const made = await recordWriter.createMany(
          tx,
          e,
          creations.map((c) => ({ user, values: c.values })),
          { json: true, importId: id },
        );
        for (const [i, r] of made.entries()) if (r instanceof AppError) onRow(creations[i]?.row ?? 0, r);
        counts.created += made.length;
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
            // one by one: updates are the few rows that changed, each through the entity's own rules
            await recordWriter.update(tx, e, user, recordId, whole, {
              existing: before,
              version: Number(before.version),
              importId: id,
            });
          } catch (err) {
            onRow(change.row, err);
          }
          counts.updated++;
        }
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
      summary: `Import of ${e.def.name.replace(/_/g, ' ')}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${skipped} skipped${tenantIds.size > 0 ? `; ${tenantIds.size} tenants added` : ''}`,
      importId: id,
    });
    return {
      id,
      status: 'committed' as const,
      ...counts,
      skipped_invalid: skipped,
      ...(tenantIds.size > 0 ? { tenants_created: tenantIds.size } : {}),
    };
  });
};
