import { sql } from 'drizzle-orm';
import { AppError, type SessionUser } from '@kodi/domain';
import { execRows, type DbOrTx } from '../db/client.ts';
import type { ServerEntity } from './server-entity.ts';
import { presentRow, selectList } from './sql.ts';
import { deleteRecord, getRecord, insertRecords, recordAudits, updateRecord } from './service.ts';

/** Who writes: a session's user, or nobody (the payment webhook, a statement's automatic matches). */
export type Actor = Pick<SessionUser, 'company_id'> & { id: number | null };

/** A new record: who makes it and the values sent. */
export type NewRecord = { user: Actor; values: Record<string, unknown> };

const isSessionUser = (user: Actor): user is SessionUser => 'roles' in user;

const COLUMN = /^[a-z_][a-z0-9_]*$/;

/**
 * New records in one statement per set of columns (a column a record leaves out takes its DEFAULT),
 * their values sent as one JSON parameter: a thousand records' seventeen thousand parameters cost the
 * server more than the database's work (an import's batch). Answers them as listed, in their order.
 */
const insertJson = async (
  tx: DbOrTx,
  e: ServerEntity,
  companyId: number,
  records: readonly Record<string, unknown>[],
) => {
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

/**
 * The one way records of an entity are written: every creation and change goes through the entity's
 * own rules (`prepareMany`, else `prepare`) and writes its audit entry in the same transaction. The
 * generic routes (routes.ts), imports and collections (features/imports, features/collections) write
 * through it.
 */
export const records = {
  /**
   * New records of one company: the entity's rules for all of them (`prepareMany`; else `prepare`,
   * one by one), one INSERT of those its rules accept and one of their audit entries. Each input's
   * record, or the AppError its rules answered (any other error throws). `json`: the values sent as
   * one JSON parameter, answered as listed (an import's batch); `importId`: the import making them.
   */
  createMany: async (
    tx: DbOrTx,
    e: ServerEntity,
    inputs: readonly NewRecord[],
    options: { json?: boolean; importId?: number } = {},
  ): Promise<(Record<string, unknown> | AppError)[]> => {
    const [first] = inputs;
    if (!first) return [];
    const companyId = first.user.company_id;
    let prepared: (Record<string, unknown> | AppError)[];
    if (e.prepareMany) {
      prepared = await e.prepareMany({ tx, companyId, values: inputs.map((i) => i.values) });
    } else if (e.prepare) {
      const prepare = e.prepare;
      prepared = [];
      for (const { user, values } of inputs) {
        if (!isSessionUser(user)) throw new Error(`${e.def.name}: its rules need a signed-in user`);
        prepared.push(
          await prepare({ tx, user, values }).catch((err: unknown) => {
            if (err instanceof AppError) return err;
            throw err;
          }),
        );
      }
    } else {
      prepared = inputs.map((i) => i.values);
    }
    const kept = prepared.flatMap((p, i) => (p instanceof AppError ? [] : [{ i, values: p }]));
    const values = kept.map((k) => k.values);
    const made =
      kept.length === 0
        ? []
        : options.json
          ? await insertJson(tx, e, companyId, values)
          : await insertRecords(tx, e, first.user, values);
    await recordAudits(
      tx,
      e,
      made.map((record, n) => ({
        user: inputs[kept[n]?.i ?? 0]?.user ?? first.user,
        action: 'create' as const,
        recordId: Number(record.id),
        before: null,
        after: record,
        ...(options.importId !== undefined ? { importId: options.importId } : {}),
      })),
    );
    if (e.posted && made.length > 0)
      await e.posted(
        tx,
        first.user,
        made.map((after) => ({ after })),
      );
    const byInput = new Map(kept.map((k, n) => [k.i, made[n]]));
    return prepared.map((p, i) => {
      if (p instanceof AppError) return p;
      const record = byInput.get(i);
      if (!record) throw new Error(`${e.def.name}: a created record is missing`);
      return record;
    });
  },

  /** One new record: the entity's rules, the INSERT and its audit entry; throws what its rules answer. */
  create: async (
    tx: DbOrTx,
    e: ServerEntity,
    user: SessionUser,
    values: Record<string, unknown>,
  ): Promise<Record<string, unknown>> => {
    const prepared = e.prepare ? await e.prepare({ tx, user, values }) : values;
    const [record] = await insertRecords(tx, e, user, [prepared]);
    if (!record) throw new AppError('not_found', `${e.def.singular} not found.`);
    await recordAudits(tx, e, [
      { user, action: 'create', recordId: Number(record.id), before: null, after: record },
    ]);
    if (e.posted) await e.posted(tx, user, [{ after: record }]);
    return record;
  },

  /**
   * A change of a record as its form sends it (`values`: the whole record as it will be): the
   * entity's rules with the record as it was (`existing`), the UPDATE of the version read (`409
   * conflict` when it changed since), and the audit entry. Answers the record as stored.
   */
  update: async (
    tx: DbOrTx,
    e: ServerEntity,
    user: SessionUser,
    id: number,
    values: Record<string, unknown>,
    options: { existing: Record<string, unknown>; version: number; importId?: number },
  ): Promise<Record<string, unknown>> => {
    const { existing, version } = options;
    const prepared = e.prepare ? await e.prepare({ tx, user, values, existing }) : values;
    await updateRecord(tx, e, user, id, version, prepared);
    const record = await getRecord(tx, e, user, id);
    await recordAudits(tx, e, [
      {
        user,
        action: 'update',
        recordId: id,
        before: existing,
        after: record,
        ...(options.importId !== undefined ? { importId: options.importId } : {}),
      },
    ]);
    if (e.posted) await e.posted(tx, user, [{ before: existing, after: record }]);
    return record;
  },

  /**
   * Some fields of a record changed, the others as they are: `update` with the record read now (in
   * the caller's transaction) and its writable fields, so that the entity's rules see it whole.
   */
  change: async (
    tx: DbOrTx,
    e: ServerEntity,
    user: SessionUser,
    id: number,
    changes: Record<string, unknown>,
  ): Promise<Record<string, unknown>> => {
    const existing = await getRecord(tx, e, user, id);
    const whole: Record<string, unknown> = {};
    for (const name of Object.keys(e.def.shape))
      if (existing[name] !== undefined) whole[name] = existing[name];
    Object.assign(whole, changes);
    return records.update(tx, e, user, id, whole, { existing, version: Number(existing.version) });
  },

  /**
   * A record deleted, with its audit entry (the record as it was); or what its entity does instead
   * (`insteadOfDelete`: a completed payment is voided).
   */
  delete: async (tx: DbOrTx, e: ServerEntity, user: SessionUser, id: number): Promise<void> => {
    const existing = await getRecord(tx, e, user, id);
    if (e.insteadOfDelete && (await e.insteadOfDelete({ tx, user, id, existing }))) return;
    await deleteRecord(tx, e, user, id);
    await recordAudits(tx, e, [{ user, action: 'delete', recordId: id, before: existing, after: null }]);
    if (e.posted) await e.posted(tx, user, [{ before: existing }]);
  },
};
