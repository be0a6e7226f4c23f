import { sql } from 'drizzle-orm';
import {
  AppError,
  DEFAULT_CURRENCY,
  allows,
  IMPORT_ERROR_LIMIT,
  IMPORT_SAMPLE_SIZE,
  MAX_IMPORT_ROWS,
  autoMapping,
  formSchema,
  importFields,
  mappingProblems,
  type Field,
  type ImportDateFormat,
  type ImportError,
  type SessionUser,
} from '@kodi/domain';
import { execRows, type DbOrTx, type Tx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { fromClause, presentRow, selectList } from '../../crud/sql.ts';
import { cellText, convertCell, isBlank, type CellContext } from './cells.ts';
import { tooManyRows, type Cell, type FileRow } from '../../modules/files/file-rows.ts';
import { callingCodeOf } from '../../modules/companies/phones.ts';
import { referenceResolver, type ReferenceResolver } from './references.ts';

/** Rows checked and staged together: one statement of each kind per batch. */
export const BATCH_ROWS = 1000;

/** Staged rows are written in statements of about this much JSON. */
const STAGE_BYTES = 60_000;

/** What a preview needs besides the file. */
export type PreviewInput = {
  user: SessionUser;
  entity: ServerEntity;
  /**
   * the file's rows, their header read already (`header`): the route reads it before its transaction,
   * so that an xlsx workbook refused on its shared strings or styles never holds a connection
   */
  rows: AsyncGenerator<FileRow>;
  header: Cell[] | undefined;
  fileName: string;
  dateFormat: ImportDateFormat;
  /** file column → field; columns it leaves out are mapped by their headers */
  mapping?: Record<string, string | null> | undefined;
};

/** A valid row as staged: the values to save, and the record it updates (by external_ref). */
export type StagedRow = { values: Record<string, unknown>; id?: number };

/** How the company's cells are read: its currency, its country's dialling code, the year. */
export const cellContext = async (tx: DbOrTx, companyId: number, dateFormat: ImportDateFormat) => {
  const [c] = await execRows<{ code: string | null; symbol: string | null; phone_code: number | null }>(
    tx,
    sql`SELECT trim(c.currency_code) AS code, cu.symbol, co.phone_code
          FROM companies c
          LEFT JOIN currencies cu ON cu.currency_code = c.currency_code
          LEFT JOIN countries co ON co.country_code = c.country_code
         WHERE c.id = ${companyId}`,
  );
  const ctx: CellContext = {
    dateFormat,
    currency: { code: c?.code || DEFAULT_CURRENCY, symbol: c?.symbol ?? null },
    callingCode: c?.phone_code ? Number(c.phone_code) : null,
    year: new Date().getUTCFullYear(),
  };
  return ctx;
};

/** The file's header as its columns: trailing blank headers dropped, blank ones named, repeated ones numbered. */
export const headerColumns = (cells: readonly Cell[]): string[] => {
  const texts = cells.map(cellText);
  while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  const seen = new Map<string, number>();
  return texts.map((t, i) => {
    const base = t === '' ? `Column ${i + 1}` : t;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
};

/** The mapping used: the one given, and each column it leaves out by its header (never a field taken twice). */
export const resolveMapping = (
  e: ServerEntity,
  columns: readonly string[],
  given: Record<string, string | null> | undefined,
): Record<string, string | null> => {
  const auto = autoMapping(e.def, columns);
  if (!given) return auto;
  const unknown = Object.keys(given).filter((c) => !columns.includes(c));
  if (unknown.length > 0) {
    const message = `Unknown column: ${unknown.join(', ')}.`;
    throw new AppError('validation_failed', message, { mapping: message });
  }
  const chosen = new Set(Object.values(given).filter((f): f is string => f !== null));
  const mapping: Record<string, string | null> = {};
  for (const column of columns) {
    const auto1 = auto[column] ?? null;
    mapping[column] = column in given ? (given[column] ?? null) : auto1 && !chosen.has(auto1) ? auto1 : null;
  }
  const problems = mappingProblems(e.def, mapping);
  if (Object.keys(problems).length > 0)
    throw new AppError('validation_failed', Object.values(problems).join(' '), problems);
  return mapping;
};

type Checked = {
  row: number;
  cells: Cell[];
  input: Record<string, unknown>;
  /** field → message (made when there is one: a row is mostly valid, and kept light) */
  errors?: Record<string, string>;
  refKeys?: Record<string, string>;
  externalRef: string | undefined;
  existing?: Record<string, unknown>;
  parsed?: Record<string, unknown>;
};

const first = (r: { errors?: Record<string, string> }, field: string, message: string) => {
  r.errors ??= {};
  if (!(field in r.errors)) r.errors[field] = message;
};

/**
 * Reads the file, checks every row by the entity's rules and references, and stages the rows in
 * `import_rows` batch by batch (nothing of the file is held beyond a batch). One transaction: a file
 * refused midway leaves nothing behind. Answers the import's id.
 */
export const previewImport = async (tx: Tx, input: PreviewInput): Promise<number> => {
  const { user, entity: e, rows, header, fileName, dateFormat } = input;
  const { def } = e;
  const companyId = user.company_id;
  const ctx = await cellContext(tx, companyId, dateFormat);
  const fields = new Map(importFields(def).map((f) => [f.name, f]));
  // the forms' rules (no strict body, no transform: the import builds the object itself)
  const schema = formSchema(def);
  const hasExternalRef = fields.has('external_ref');
  const mayUpdate = allows(def.access.update, user);
  const noun = def.singular.toLowerCase().replace(/ record$/, '');
  const order = (field: string) => {
    const i = def.fields.findIndex((f) => f.name === field);
    return i === -1 ? def.fields.length : i;
  };
  // what a new record's form starts with (a blank cell of such a field takes it too), but 'today':
  // a file's date is never made up
  const defaults = Object.fromEntries(
    [...fields.values()]
      .filter((f) => f.defaultValue !== undefined && f.defaultValue !== null && f.defaultValue !== 'today')
      .map((f) => [f.name, f.defaultValue]),
  );

  const columns = header ? headerColumns(header) : [];
  if (columns.length === 0)
    throw new AppError('validation_failed', 'The file has no header row.', { file: 'No header row.' });
  const mapping = resolveMapping(e, columns, input.mapping);
  const mapped: { index: number; field: Field }[] = columns.flatMap((column, index) => {
    const name = mapping[column];
    const field = name ? fields.get(name) : undefined;
    return field ? [{ index, field }] : [];
  });
  const mappedNames = new Set(mapped.map((m) => m.field.name));
  const resolvers = new Map<string, ReferenceResolver>(
    mapped
      .filter((m) => m.field.kind === 'reference')
      .map((m) => [m.field.name, referenceResolver(m.field, companyId, ctx)]),
  );

  const [created] = await execRows<{ id: number }>(
    tx,
    sql`INSERT INTO imports (company_id, entity, file_name, date_format, user_id, mapping, columns, errors, sample)
        VALUES (${companyId}, ${def.name}, ${fileName.slice(0, 255)}, ${dateFormat}, ${user.id},
                ${JSON.stringify(mapping)}::jsonb, ${JSON.stringify(columns)}::jsonb, '[]'::jsonb, '[]'::jsonb)
        RETURNING id`,
  );
  const importId = Number(created?.id);

  const errors: ImportError[] = [];
  const sample: Record<string, unknown>[] = [];
  // leases: the back rent the new ones charge
  const backRent = e.importBackRent ? await e.importBackRent({ tx, companyId }) : undefined;
  const refsSeen = new Map<string, number>();
  let total = 0;
  let valid = 0;
  let invalid = 0;

  const checkBatch = async (batch: Checked[]) => {
    // the records referred to, one statement per reference column and way of matching
    for (const [name, resolver] of resolvers) {
      const keys = batch.flatMap((r) => {
        const k = r.refKeys?.[name];
        return k === undefined ? [] : [k];
      });
      if (keys.length === 0) continue;
      const found = await resolver.resolve(tx, keys);
      for (const r of batch) {
        const k = r.refKeys?.[name];
        if (k === undefined) continue;
        const hit = found.get(k);
        if (hit && 'id' in hit) r.input[name] = hit.id;
        else first(r, name, hit?.error ?? 'Not found.');
      }
    }
    // the records the rows update: those whose external_ref exists
    const refs = batch.flatMap((r) => (r.externalRef ? [r.externalRef] : []));
    if (hasExternalRef && refs.length > 0) {
      const existing = await execRows<Record<string, unknown>>(
        tx,
        sql`SELECT ${selectList(def, e.sql, { list: true })} FROM ${fromClause(e.sql)}
             WHERE t.company_id = ${companyId}
               AND t.external_ref IN (SELECT jsonb_array_elements_text(${JSON.stringify(refs)}::jsonb))`,
      );
      const byRef = new Map(existing.map((r) => [String(r.external_ref), presentRow(def, r)]));
      for (const r of batch) if (r.externalRef) r.existing = byRef.get(r.externalRef);
      if (!mayUpdate)
        for (const r of batch)
          if (r.existing)
            first(r, 'external_ref', `This external_ref is an existing ${noun}, which you may not change.`);
    }
    // the forms' rules, on the record as it would be saved: an update's record with the file's
    // values, a new one with the file's values over the form's defaults
    for (const r of batch) {
      const base: Record<string, unknown> = r.existing ? {} : { ...defaults };
      if (r.existing) for (const k of fields.keys()) if (r.existing[k] !== undefined) base[k] = r.existing[k];
      const values = { ...base, ...r.input };
      for (const f in r.errors) delete values[f];
      const result = schema.safeParse(values);
      if (result.success) {
        if (!r.errors) r.parsed = result.data as Record<string, unknown>;
      } else {
        for (const issue of result.error.issues) {
          const field = String(issue.path[0] ?? 'row');
          first(r, field, issue.message);
        }
      }
    }
    // the entity's rules that read the database (a payment's lease), without saving anything
    const ok = batch.filter((r) => r.parsed);
    if (e.checkMany && ok.length > 0) {
      const refusals = await e.checkMany({ tx, companyId, values: ok.map((r) => r.parsed ?? {}) });
      ok.forEach((r, i) => {
        const refusal = refusals[i];
        if (!refusal) return;
        const [field, message] = Object.entries(refusal.fields ?? {})[0] ?? ['row', refusal.message];
        first(r, field, message);
        delete r.parsed;
      });
    }
    // staged: valid rows as they would be saved, rejected ones as they were in the file
    const staged = batch.map((r) => {
      if (r.parsed && !r.errors) {
        valid++;
        const id = r.existing ? Number(r.existing.id) : undefined;
        const values =
          id === undefined
            ? r.parsed
            : Object.fromEntries(Object.entries(r.parsed).filter(([k]) => mappedNames.has(k)));
        if (sample.length < IMPORT_SAMPLE_SIZE)
          sample.push({ row: r.row, action: id === undefined ? 'create' : 'update', ...r.parsed });
        if (id === undefined) backRent?.add({ row: r.row, values: r.parsed, refs: r.refKeys ?? {} });
        const data: StagedRow = id === undefined ? { values } : { values, id };
        return { r: r.row, v: true, d: data, m: null };
      }
      invalid++;
      const problems = Object.entries(r.errors ?? {}).sort(([a], [b]) => order(a) - order(b));
      for (const [field, message] of problems)
        if (errors.length < IMPORT_ERROR_LIMIT) errors.push({ row: r.row, field, message });
      const messages = problems.map(([field, message]) => `${fields.get(field)?.label ?? field}: ${message}`);
      const cells = columns.map((_, i) => cellText(r.cells[i] ?? null));
      return { r: r.row, v: false, d: cells, m: messages.join('; ') };
    });
    // in statements of about 64 KB of JSON: texts that size die young (larger ones are allocated
    // with the long-lived objects, and a file's worth of them is what the server's memory would hold)
    let parts: string[] = [];
    let size = 0;
    const flush = async () => {
      if (parts.length === 0) return;
      const text = `[${parts.join(',')}]`;
      parts = [];
      size = 0;
      await tx.execute(
        sql`INSERT INTO import_rows (company_id, import_id, row_no, valid, data, messages)
            SELECT ${companyId}, ${importId}, (x->>'r')::int, (x->>'v')::boolean, x->'d', x->>'m'
              FROM jsonb_array_elements(${text}::jsonb) AS x`,
      );
    };
    for (const row of staged) {
      const part = JSON.stringify(row);
      parts.push(part);
      size += part.length;
      if (size > STAGE_BYTES) await flush();
    }
    await flush();
  };

  const refIndex = mapped.find((m) => m.field.name === 'external_ref')?.index;
  // a row's own country code ('+254', a tenant's) says what its phones without +code are
  const countryIndex = mapped.find((m) => m.field.name === 'country_code')?.index;
  let batch: Checked[] = [];
  for await (const { row, cells } of rows) {
    if (cells.every(isBlank)) continue;
    if (++total > MAX_IMPORT_ROWS) throw tooManyRows();
    const checked: Checked = {
      row,
      cells,
      input: {},
      externalRef: undefined,
    };
    const own = countryIndex === undefined ? null : cellText(cells[countryIndex] ?? null);
    const rowCtx = own ? { ...ctx, callingCode: callingCodeOf(own, ctx.callingCode) } : ctx;
    for (const { index, field } of mapped) {
      const cell = cells[index] ?? null;
      // blank: the form's default for a new record, the record's value for an update
      if (field.name in defaults && isBlank(cell)) continue;
      if (field.kind === 'reference') {
        if (isBlank(cell)) checked.input[field.name] = '';
        else (checked.refKeys ??= {})[field.name] = cellText(cell);
        continue;
      }
      const converted = convertCell(cell, field, rowCtx);
      if ('error' in converted) first(checked, field.name, converted.error);
      else checked.input[field.name] = converted.value;
    }
    const ref = refIndex === undefined ? '' : cellText(cells[refIndex] ?? null);
    if (ref !== '') {
      const before = refsSeen.get(ref);
      if (before !== undefined) first(checked, 'external_ref', `The same external_ref as row ${before}.`);
      else refsSeen.set(ref, row);
      checked.externalRef = ref;
    }
    batch.push(checked);
    if (batch.length >= BATCH_ROWS) {
      await checkBatch(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await checkBatch(batch);

  await tx.execute(
    sql`UPDATE imports SET total_rows = ${total}, valid_rows = ${valid}, invalid_rows = ${invalid},
               errors = ${JSON.stringify(errors)}::jsonb, sample = ${JSON.stringify(sample)}::jsonb,
               back_rent = ${JSON.stringify(backRent?.result() ?? null)}::jsonb
         WHERE company_id = ${companyId} AND id = ${importId}`,
  );
  return importId;
};
