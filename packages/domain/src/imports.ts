import type { EntityDefinition, Field } from './entity.ts';
import { entityList } from './entities/index.ts';

/**
 * Importing records from a file (`POST /imports`): what the server and the Import page share. Which
 * entities are importable, and their columns, come from the definitions (`import` of an entity).
 */

/** At most this large a file, and this many rows below its header. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 100_000;
/** The first errors and rows an import answers. */
export const IMPORT_ERROR_LIMIT = 200;
export const IMPORT_SAMPLE_SIZE = 20;
/** A preview not committed within this many hours expires. */
export const IMPORT_EXPIRY_HOURS = 24;

/** How the file writes its dates (Excel dates, serials and ISO dates are read whatever the format). */
export const importDateFormats = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY'] as const;
export type ImportDateFormat = (typeof importDateFormats)[number];

export const importFormats = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof importFormats)[number];

export type ImportStatus = 'previewed' | 'committed' | 'expired';

/** A rejected row's problem: `row` is its number in the file (the header is row 1). */
export type ImportError = { row: number; field: string; message: string };

/**
 * A field the spec requires that some rows lack (a tenant's sex, date of birth): how many rows, and
 * whether one value given for every row without one (`fill`) is taken.
 */
export type ImportMissing = { field: string; label: string; rows: number };

/**
 * The back rent an import of leases charges (issue 25): the new leases starting before today whose
 * rent from their start (after their opening balance date, if any) is charged on commit, their total,
 * and the first of them (at most `IMPORT_ERROR_LIMIT`).
 */
export type ImportBackRent = {
  leases: number;
  charges: number;
  total: number;
  rows: {
    row: number;
    external_ref: string | null;
    tenant: string;
    unit: string;
    start_date: string;
    charges: number;
    total: number;
  }[];
};

/** An import as the API answers it. */
export type ImportRecord = {
  id: number;
  entity: string;
  status: ImportStatus;
  file_name: string;
  date_format: ImportDateFormat;
  total_rows: number;
  valid_rows: number;
  invalid_rows: number;
  /** file column → field (null: not imported) */
  mapping: Record<string, string | null>;
  /** the file's columns, in its order */
  columns: string[];
  errors: ImportError[];
  /** what is saved but worth a look (two tenants with one phone), the first 200 */
  warnings: ImportError[];
  /** the values given for every row that lacks them (field → the text given) */
  fill: Record<string, string>;
  /** the required fields rows lack, for which one value may be given */
  missing: ImportMissing[];
  /**
   * the first rows as they will be saved; `names`: the referenced records by name (field → 'Amina
   * Achieng', 'A1 · Kololo Court'); `filled`: the fields given by `fill`; `new_tenant`: a lease's tenant
   * created with it
   */
  sample: Record<string, unknown>[];
  /** leases: the back rent committing them charges (null: none, or not leases) */
  back_rent: ImportBackRent | null;
  created: number | null;
  updated: number | null;
  unchanged: number | null;
  skipped_invalid: number | null;
  user_id: number | null;
  user_name: string | null;
  created_at: string;
  committed_at: string | null;
  expires_at: string;
};

/** What a commit answers. */
export type ImportCommitResult = {
  id: number;
  status: 'committed';
  created: number;
  updated: number;
  unchanged: number;
  skipped_invalid: number;
  /** leases: the tenants created with them */
  tenants_created?: number;
};

/** The entities a file can be imported into, in their order (those whose definition has `import`). */
export const importableEntities = (list: readonly EntityDefinition[] = entityList): EntityDefinition[] =>
  list.filter((d) => d.import).sort((a, b) => (a.import?.order ?? 0) - (b.import?.order ?? 0));

/**
 * The fields an import fills: those of the entity's form that are plain values or references (never
 * images and documents, nor fields kept off the form such as a payment's lease, which is found from
 * its tenant, unit and date as the form does).
 */
export const importFields = (def: EntityDefinition): Field[] =>
  def.fields.filter(
    (f) => f.name in def.shape && !f.readOnly && f.form !== false && f.kind !== 'image' && f.kind !== 'file',
  );

/** The columns an import reads: the entity's fields (`importFields`) and its import-only columns. */
export const importColumnFields = (def: EntityDefinition): Field[] => [
  ...importFields(def),
  ...(def.import?.columns ?? []),
];

/** The monthly rate's weekly and daily rates (× 12 / 52, × 12 / 365), rounded to the currency's minor unit. */
export const derivedRates = (
  monthly: number,
  currency: string,
): { weekly_rate: number; daily_rate: number } => {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    digits = 2;
  }
  const round = (n: number) => {
    const f = 10 ** digits;
    return Math.max(Math.round(n * f) / f, 1 / f);
  };
  return { weekly_rate: round((monthly * 12) / 52), daily_rate: round((monthly * 12) / 365) };
};

/** A whole name as first and last names: the last word the last name, the words before it the first. */
export const splitFullName = (text: string): { first_name: string; last_name: string } | undefined => {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return undefined;
  return { first_name: words.slice(0, -1).join(' '), last_name: words[words.length - 1] ?? '' };
};

/** A header as compared: letters and digits only, lowercased ('Phone number' → 'phonenumber'). */
export const normalHeader = (header: string): string =>
  header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** Headers that mean `external_ref` for every entity. */
const externalRefSynonyms = ['External reference', 'External ID', 'Ext ref', 'Ref'];

/** The headers that name each field: its label, its name and the entity's synonyms, normalised. */
export const headerNames = (def: EntityDefinition): Map<string, string> => {
  const names = new Map<string, string>();
  const add = (header: string, field: string) => {
    const key = normalHeader(header);
    if (key && !names.has(key)) names.set(key, field);
  };
  const fields = importColumnFields(def);
  // labels and names first: a synonym never takes a header that is another field's own name
  for (const f of fields) {
    add(f.label, f.name);
    add(f.name, f.name);
  }
  for (const f of fields) {
    for (const s of def.import?.synonyms?.[f.name] ?? []) add(s, f.name);
    if (f.name === 'external_ref') for (const s of externalRefSynonyms) add(s, f.name);
  }
  return names;
};

/**
 * Each of the file's columns mapped to a field by its header (labels, field names, synonyms; case,
 * spacing and punctuation ignored), each field to one column at most (the first); null: not imported.
 */
export const autoMapping = (
  def: EntityDefinition,
  columns: readonly string[],
): Record<string, string | null> => {
  const names = headerNames(def);
  const taken = new Set<string>();
  const mapping: Record<string, string | null> = {};
  for (const column of columns) {
    const field = names.get(normalHeader(column));
    if (field && !taken.has(field)) {
      taken.add(field);
      mapping[column] = field;
    } else mapping[column] = null;
  }
  return mapping;
};

/** A mapping's problems: an unknown field, or a field given two columns. Empty when it is usable. */
export const mappingProblems = (
  def: EntityDefinition,
  mapping: Record<string, string | null>,
): Record<string, string> => {
  const fields = new Set(importColumnFields(def).map((f) => f.name));
  const seen = new Map<string, string>();
  const problems: Record<string, string> = {};
  for (const [column, field] of Object.entries(mapping)) {
    if (field === null) continue;
    if (!fields.has(field)) problems[column] = `Unknown field: ${field}.`;
    else if (seen.has(field)) problems[column] = `${field} is already read from '${seen.get(field)}'.`;
    else seen.set(field, column);
  }
  return problems;
};
