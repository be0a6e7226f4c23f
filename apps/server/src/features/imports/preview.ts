import { sql } from 'drizzle-orm';
import {
  AppError,
  DEFAULT_CURRENCY,
  allows,
  IMPORT_ERROR_LIMIT,
  IMPORT_SAMPLE_SIZE,
  MAX_IMPORT_ROWS,
  autoMapping,
  derivedRates,
  formSchema,
  importColumnFields,
  importFields,
  mappingProblems,
  splitFullName,
  type Field,
  type ImportMissing,
  type ImportDateFormat,
  type ImportError,
  type SessionUser,
} from '@kodi/domain';
import { execRows, type DbOrTx, type Tx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { fromClause, presentRow, selectList } from '../../crud/sql.ts';
import { cellText, convertCell, isBlank, type CellContext } from './cells.ts';
import { tooManyRows, type Cell, type FileRow } from '../../modules/files/file-rows.ts';
import { callingCodeOf, tenantsWithPhones } from '../../modules/companies/phones.ts';
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
  /** field → the value of every row that has none (a tenant's sex, date of birth) */
  fill?: Record<string, string> | undefined;
  /** the tenants' server part: a lease's row whose tenant is not found creates it (issue 26) */
  tenants?: ServerEntity | undefined;
};

/**
 * A valid row as staged: the values to save, and the record it updates (by external_ref); a lease's
 * new tenant (`tenant`: created before it, once for every row of the same `key`).
 */
export type StagedRow = {
  values: Record<string, unknown>;
  id?: number;
  tenant?: { key: string; values: Record<string, unknown> };
};

/** A lease's new tenant's fields, read from the import-only columns (occupancy's `import.columns`). */
const NEW_TENANT_FIELDS: Record<string, string> = {
  new_tenant_phone: 'phone',
  new_tenant_sex: 'sex',
  new_tenant_date_of_birth: 'date_of_birth',
  new_tenant_email: 'email',
};
/** The tenant's field whose problem is shown on which column of the lease's row. */
const tenantColumn = (field: string): string =>
  Object.entries(NEW_TENANT_FIELDS).find(([, f]) => f === field)?.[0] ?? 'tenant_id';

/** A lease's tenant while its row is checked: made valid for the lease's rules, then taken out. */
const NEW_TENANT_ID = 2147483647;

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
  /** the referenced records' names (field → name) */
  names?: Record<string, string>;
  /** the fields `fill` gave */
  filled?: string[];
  /** the import-only columns' values and problems (a lease's new tenant's), used only when needed */
  extra?: Record<string, unknown>;
  extraErrors?: Record<string, string>;
  /** a lease's new tenant */
  tenant?: { key: string; values: Record<string, unknown> };
};

const first = (r: { errors?: Record<string, string> }, field: string, message: string) => {
  r.errors ??= {};
  if (!(field in r.errors)) r.errors[field] = message;
};

/**
 * The kinds of field one value may be given for, for every row without one (a sex, a date of birth,
 * an opening balance date): never a name, a phone or an address, which are each row's own.
 */
const FILLABLE_KINDS = new Set(['enum', 'date', 'boolean', 'money', 'number', 'integer', 'percent']);

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** The words of a name as compared: lowercased, spacing ignored. */
const nameKey = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Reads the file, checks every row by the entity's rules and references, and stages the rows in
 * `import_rows` batch by batch (nothing of the file is held beyond a batch). One transaction: a file
 * refused midway leaves nothing behind. Answers the import's id.
 *
 * Issue 26: a tenants' 'Full name' column gives the first and last names; a units' file without
 * weekly or daily rates has them from the monthly one; `fill` gives a value to every row without one
 * (and the sample says which); a lease whose tenant is not found creates it from its name and the
 * new-tenant columns; two tenants with one phone are warned of.
 */
export const previewImport = async (tx: Tx, input: PreviewInput): Promise<number> => {
  const { user, entity: e, rows, header, fileName, dateFormat } = input;
  const { def } = e;
  const companyId = user.company_id;
  const ctx = await cellContext(tx, companyId, dateFormat);
  const fields = new Map(importColumnFields(def).map((f) => [f.name, f]));
  const extraNames = new Set((def.import?.columns ?? []).map((f) => f.name));
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
  const formDefaults = (d: typeof def) =>
    Object.fromEntries(
      importFields(d)
        .filter((f) => f.defaultValue !== undefined && f.defaultValue !== null && f.defaultValue !== 'today')
        .map((f) => [f.name, f.defaultValue]),
    );
  const defaults = formDefaults(def);

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

  // the values given for every row without one, read as a cell of their field would be
  const fill: Record<string, unknown> = {};
  const fillText: Record<string, string> = {};
  for (const [name, text] of Object.entries(input.fill ?? {})) {
    const field = fields.get(name);
    if (!field || field.kind === 'reference' || name === 'external_ref') {
      const message = `No value can be given for every row of ${name}.`;
      throw new AppError('validation_failed', message, { fill: message });
    }
    if (text.trim() === '') continue;
    const converted = convertCell(text, field, ctx);
    if ('error' in converted) {
      const message = `${field.label}: ${converted.error}`;
      throw new AppError('validation_failed', message, { fill: message, [`fill.${name}`]: converted.error });
    }
    fill[name] = converted.value;
    fillText[name] = text.trim();
  }

  // leases: a row whose tenant is not found creates it, from the 'Tenant' column's name and the
  // new-tenant columns (docs/decisions.md, 'A landlord's own sheet')
  const tenantsEntity = input.tenants;
  const createsTenants =
    tenantsEntity !== undefined &&
    // (a tenant has a phone: a file without one names tenants it has, as before)
    mappedNames.has('new_tenant_phone') &&
    mappedNames.has('tenant_id') &&
    allows(tenantsEntity.def.access.create, user);
  const tenantSchema = tenantsEntity ? formSchema(tenantsEntity.def) : undefined;
  const tenantDefaults = tenantsEntity ? formDefaults(tenantsEntity.def) : {};
  // a file of leases without a tenant column, with a phone column: the phone names the tenant
  const tenantByPhone = extraNames.has('new_tenant_phone') && !mappedNames.has('tenant_id');
  const phoneIndex = tenantByPhone
    ? mapped.find((m) => m.field.name === 'new_tenant_phone')?.index
    : undefined;
  // units: the weekly and daily rates from the monthly one when the file has none
  const derivesRates = ['monthly_rate', 'weekly_rate', 'daily_rate'].every((f) => fields.has(f));
  const fullNameIndex = mapped.find((m) => m.field.name === 'full_name')?.index;

  const resolvers = new Map<string, ReferenceResolver>(
    [...fields.values()]
      .filter(
        (f) =>
          f.kind === 'reference' && (mappedNames.has(f.name) || (tenantByPhone && f.name === 'tenant_id')),
      )
      .map((f) => [f.name, referenceResolver(f, companyId, ctx)]),
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
  const warnings: ImportError[] = [];
  const warn = (w: ImportError) => {
    if (warnings.length < IMPORT_ERROR_LIMIT) warnings.push(w);
  };
  const sample: Record<string, unknown>[] = [];
  const missing = new Map<string, number>();
  // leases: the back rent the new ones charge
  const backRent = e.importBackRent ? await e.importBackRent({ tx, companyId }) : undefined;
  const refsSeen = new Map<string, number>();
  // phones of the file's tenants (new ones, for leases): the first row and name of each
  const phonesSeen = new Map<string, { row: number; name: string; key: string }>();
  let total = 0;
  let valid = 0;
  let invalid = 0;

  /** A lease's new tenant from its row, checked by the tenants' form rules. */
  const newTenant = (r: Checked, name: string) => {
    const split = splitFullName(name);
    if (!split) {
      first(r, 'tenant_id', `No tenant matches '${name}': give a first and a last name to add the tenant.`);
      return;
    }
    // the lease's own rules are checked all the same (what else the row lacks is said at once)
    r.input.tenant_id = NEW_TENANT_ID;
    for (const [column, message] of Object.entries(r.extraErrors ?? {})) first(r, column, message);
    for (const [column, value] of Object.entries(fill))
      if (extraNames.has(column) && blank(r.extra?.[column]) && !r.extraErrors?.[column]) {
        (r.extra ??= {})[column] = value;
        (r.filled ??= []).push(column);
      }
    const values: Record<string, unknown> = { ...tenantDefaults, ...split };
    for (const [column, field] of Object.entries(NEW_TENANT_FIELDS)) {
      const v = r.extra?.[column];
      if (v !== undefined) values[field] = v;
    }
    const result = tenantSchema?.safeParse(values);
    if (!result?.success) {
      for (const issue of result?.error.issues ?? []) {
        const column = tenantColumn(String(issue.path[0] ?? ''));
        first(r, column, column === 'tenant_id' ? `New tenant: ${issue.message}` : issue.message);
      }
      return;
    }
    const key = `${nameKey(name)}|${String(values.phone ?? '')}`;
    r.tenant = { key, values: result.data as Record<string, unknown> };
    r.input.tenant_id = NEW_TENANT_ID;
    (r.names ??= {}).tenant_id = `${split.first_name} ${split.last_name}`;
  };

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
        if (hit && 'id' in hit) {
          r.input[name] = hit.id;
          (r.names ??= {})[name] = hit.label;
        } else if (name === 'tenant_id' && createsTenants && hit?.missing) newTenant(r, k);
        else first(r, name, hit?.error ?? 'Not found.');
      }
    }
    // new tenants: their phones are their country's (the tenants' own rule)
    const fresh = batch.filter((r) => r.tenant);
    if (tenantsEntity?.checkMany && fresh.length > 0) {
      const refusals = await tenantsEntity.checkMany({
        tx,
        companyId,
        values: fresh.map((r) => r.tenant?.values ?? {}),
      });
      fresh.forEach((r, i) => {
        const refusal = refusals[i];
        if (!refusal) return;
        const [field, message] = Object.entries(refusal.fields ?? {})[0] ?? ['tenant_id', refusal.message];
        first(r, tenantColumn(field), message);
      });
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
      for (const f of extraNames) delete values[f];
      for (const f in r.errors) delete values[f];
      let result = schema.safeParse(values);
      // a value given for every row, for the rows whose rules ask for it (an opening balance's date)
      const asked = result.success
        ? []
        : result.error.issues
            .map((i) => String(i.path[0] ?? ''))
            .filter((f) => f in fill && !extraNames.has(f) && blank(values[f]) && !r.errors?.[f]);
      if (asked.length > 0) {
        for (const f of new Set(asked)) {
          r.input[f] = fill[f];
          values[f] = fill[f];
          (r.filled ??= []).push(f);
        }
        result = schema.safeParse(values);
      }
      if (result.success) {
        if (!r.errors) r.parsed = result.data as Record<string, unknown>;
      } else {
        for (const issue of result.error.issues) {
          const field = String(issue.path[0] ?? 'row');
          // a whole name that could not be split says so once
          if (r.errors?.full_name && (field === 'first_name' || field === 'last_name')) continue;
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
    // two tenants with one phone: saved, but a payment from it could be either's (a warning)
    const phoneOf = (r: Checked) =>
      r.tenant ? r.tenant.values.phone : def.name === 'tenants' ? r.parsed?.phone : undefined;
    const withPhones = batch.filter((r) => r.parsed && !r.errors && typeof phoneOf(r) === 'string');
    if (withPhones.length > 0) {
      const phones = [...new Set(withPhones.map((r) => String(phoneOf(r))))];
      const known = await tenantsWithPhones(tx, companyId, phones);
      for (const r of withPhones) {
        const phone = String(phoneOf(r));
        const field = r.tenant ? 'new_tenant_phone' : 'phone';
        const self = r.existing ? Number(r.existing.id) : undefined;
        const others = known.filter((k) => k.phone === phone && Number(k.id) !== self);
        const name = r.tenant
          ? (r.names?.tenant_id ?? '')
          : `${String(r.parsed?.first_name ?? '')} ${String(r.parsed?.last_name ?? '')}`;
        const key = r.tenant?.key ?? `row ${r.row}`;
        if (others.length > 0)
          warn({
            row: r.row,
            field,
            message: `${name} has the same phone as ${others.map((o) => o.name).join(', ')}, already a tenant: a payment from it cannot say whose it is.`,
          });
        const before = phonesSeen.get(phone);
        if (before && before.key !== key)
          warn({
            row: r.row,
            field,
            message: `${name} has the same phone as ${before.name} (row ${before.row}): a payment from it cannot say whose it is.`,
          });
        else if (!before) phonesSeen.set(phone, { row: r.row, name, key });
      }
    }
    // staged: valid rows as they would be saved, rejected ones as they were in the file
    const staged = batch.map((r) => {
      // the fields the spec requires that the row lacks (one value may be given for all of them)
      for (const field of Object.keys(r.errors ?? {}))
        if (FILLABLE_KINDS.has(fields.get(field)?.kind ?? '')) {
          const value = extraNames.has(field) ? r.extra?.[field] : r.input[field];
          if (blank(value) && !(field in (r.extraErrors ?? {})))
            missing.set(field, (missing.get(field) ?? 0) + 1);
        }
      for (const field of r.filled ?? []) missing.set(field, (missing.get(field) ?? 0) + 1);
      if (r.parsed && !r.errors) {
        valid++;
        const id = r.existing ? Number(r.existing.id) : undefined;
        const parsed = { ...r.parsed };
        if (r.tenant) delete parsed.tenant_id;
        const values =
          id === undefined
            ? parsed
            : Object.fromEntries(Object.entries(parsed).filter(([k]) => mappedNames.has(k)));
        if (sample.length < IMPORT_SAMPLE_SIZE)
          sample.push({
            row: r.row,
            action: id === undefined ? 'create' : 'update',
            ...parsed,
            ...(r.names ? { names: r.names } : {}),
            ...(r.filled?.length ? { filled: r.filled } : {}),
            ...(r.tenant ? { new_tenant: r.tenant.values } : {}),
          });
        if (id === undefined) backRent?.add({ row: r.row, values: r.parsed, refs: r.refKeys ?? {} });
        const data: StagedRow =
          id === undefined ? { values, ...(r.tenant ? { tenant: r.tenant } : {}) } : { values, id };
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
      if (extraNames.has(field.name)) {
        if (field.name === 'full_name') continue;
        if (isBlank(cell)) continue;
        const converted = convertCell(cell, field, rowCtx);
        if ('error' in converted) (checked.extraErrors ??= {})[field.name] = converted.error;
        else (checked.extra ??= {})[field.name] = converted.value;
        continue;
      }
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
    // one column of whole names: its last word the last name, the words before it the first name
    if (fullNameIndex !== undefined && blank(checked.input.first_name) && blank(checked.input.last_name)) {
      const whole = cellText(cells[fullNameIndex] ?? null);
      const split = splitFullName(whole);
      if (split) Object.assign(checked.input, split);
      else if (whole !== '')
        first(checked, 'full_name', `Give a first and a last name: '${whole}' is one word.`);
    }
    // a lease's tenant named by its phone alone
    if (phoneIndex !== undefined) {
      const phone = cells[phoneIndex] ?? null;
      if (isBlank(phone)) checked.input.tenant_id = '';
      else (checked.refKeys ??= {}).tenant_id = cellText(phone);
    }
    // the values given for every row without one
    // (a lease's new tenant's, when the row makes one: newTenant; a field required only with another,
    // as an opening balance's date, when the row's rules ask for it: below)
    for (const [name, value] of Object.entries(fill)) {
      if (extraNames.has(name) || !fields.get(name)?.required) continue;
      if (!blank(checked.input[name]) || checked.errors?.[name]) continue;
      checked.input[name] = value;
      (checked.filled ??= []).push(name);
    }
    // units: a weekly and daily rate from the monthly one when the row has none
    const monthly = checked.input.monthly_rate;
    if (derivesRates && typeof monthly === 'number' && monthly > 0) {
      const rates = derivedRates(monthly, ctx.currency.code);
      if (blank(checked.input.weekly_rate)) checked.input.weekly_rate = rates.weekly_rate;
      if (blank(checked.input.daily_rate)) checked.input.daily_rate = rates.daily_rate;
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

  const missingList: ImportMissing[] = [...missing].map(([field, n]) => ({
    field,
    label: fields.get(field)?.label ?? field,
    rows: n,
  }));
  await tx.execute(
    sql`UPDATE imports SET total_rows = ${total}, valid_rows = ${valid}, invalid_rows = ${invalid},
               errors = ${JSON.stringify(errors)}::jsonb, sample = ${JSON.stringify(sample)}::jsonb,
               back_rent = ${JSON.stringify(backRent?.result() ?? null)}::jsonb,
               warnings = ${JSON.stringify(warnings)}::jsonb, fill = ${JSON.stringify(fillText)}::jsonb,
               missing = ${JSON.stringify(missingList)}::jsonb
         WHERE company_id = ${companyId} AND id = ${importId}`,
  );
  return importId;
};
