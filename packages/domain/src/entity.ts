import { z } from 'zod';
import type { Access } from './roles.ts';
import type { DrawerPlace } from './navigation.ts';
import { ignored, version } from './fields.ts';

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'phone'
  | 'number'
  | 'integer'
  | 'money'
  | 'percent'
  | 'date'
  | 'enum'
  | 'boolean'
  | 'reference'
  | 'image'
  | 'file';

export type OptionList = { values: readonly string[]; labels: Record<string, string> };

export type Field = {
  name: string;
  label: string;
  kind: FieldKind;
  /** enum fields: the spec's values and labels. */
  options?: OptionList;
  /** enum fields: the values a form offers, when not all of them (a payment is never recorded void). */
  formValues?: readonly string[];
  /**
   * reference fields: the entity picked, how its rows are named, and what a picker shows after the
   * name (`detailFields`, fields of its list rows: a tenant's unit, 'Jane Doe · A3, Kololo Heights').
   */
  ref?: { entity: string; labelFields: readonly string[]; detailFields?: readonly string[] };
  required?: boolean;
  /**
   * whether the API may answer null for it, when that is not what `required` says: true for a
   * currency's country (a monetary union has none), false for a value the server always fills in.
   * Otherwise a field is answered null exactly when it is not required (booleans never are).
   */
  nullable?: boolean;
  /** answered by the API (joined names, serials), never written by the client. */
  readOnly?: boolean;
  /**
   * A copy of a referenced record's name: the reference field (`unit_id`) whose record's label fields
   * (its `ref.labelFields`, joined by a space) the row keeps in this column, so that lists sort and
   * search by it from their own table. The database keeps it (apps/server/src/db/derived.ts generates
   * the triggers from the definitions): set on insert and when the key changes, rewritten when the
   * referenced record's name changes. `field.copied` declares one.
   */
  copyOf?: string;
  /** shown in forms (default: not readOnly). */
  form?: boolean;
  /** on a form row of its own. */
  fullWidth?: boolean;
  /** for enum chips: the colour of each value. */
  chipColors?: Record<string, 'default' | 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info'>;
  helperText?: string;
  /** a default for a new record (a value or 'today'). */
  defaultValue?: string | number | boolean | null;
};

export type Column = {
  /** a field name, or a derived value the list page computes (`derived`). */
  field: string;
  label: string;
  kind?: FieldKind;
  sortable?: boolean;
};

export type EntityUi = {
  title: string;
  searchLabel: string;
  emptyText: string;
  dialogWidth: number;
  formTitle: { create: string; edit: string };
  detailsTitle: string;
  deleteConfirm: (row: Record<string, unknown>) => string;
  messages: {
    loadFailed: string;
    notAuthorized: string;
    detailsFailed: string;
    saveFailed: string;
    deleteFailed: string;
    created: string;
    updated: string;
    deleted: string;
  };
  /** prefix error messages with 'Error: ' (tenants, occupancy, payments). */
  errorPrefix: boolean;
  timeouts: { success: number; error: number; saveError: number; deleteError: number };
  /** a field shown in an expandable row under the main one. */
  expandField?: string;
  expandEmpty?: string;
  /**
   * Show Edit and Delete to every user, whatever their role (02-admin §6 says so for companies);
   * the server still decides, and answers 403 with a message.
   */
  editDeleteShownToAll?: boolean;
};

/**
 * How an entity's records are imported from a file (`POST /imports`): an entity with this block is
 * importable. Its columns are its form's fields (`importFields`); a reference field's column names the
 * referenced record by its `external_ref` or its label fields (`matchBy` adds other columns of the
 * referenced entity: tenants by phone).
 */
export type EntityImport = {
  /** its place among the importable entities (the page's list and the API's `entity` values) */
  order: number;
  /** other headers that name a field, besides its label and its name ('Mobile' for `phone`) */
  synonyms?: Readonly<Record<string, readonly string[]>>;
  /** fields of this entity, besides `external_ref` and its label fields, that a reference to it may name */
  matchBy?: readonly string[];
  /**
   * Columns a file may have besides the entity's fields (issue 26): a tenant's 'Full name', split into
   * its first and last names; a lease's new tenant's phone, sex, date of birth and e-mail. The import
   * reads them (imports/preview.ts); they are no field of the record.
   */
  columns?: readonly Field[];
};

/** Where an entity's list page sits in the app: its route and its drawer item. */
export type EntityPage = {
  /** The route's name (02-admin §2 route table: 'Units', 'MaintenanceRequests'). */
  id: string;
  /** The route's path ('/commission-wages'). */
  path: string;
  /** Its item in the drawer: section, place, label and who sees it. */
  drawer: DrawerPlace;
};

export type EntityScope = 'company' | 'global';

/**
 * An entity. `Fields` and `Scope` keep the literal types of its definition (field names, kinds,
 * whether required), from which the record the API answers is typed (`EntityRecord`, record-schema.ts);
 * `Name` its name, by which the list keys it (`entities.units`).
 */
export type EntityDefinition<
  Shape extends z.ZodRawShape = z.ZodRawShape,
  Fields extends readonly Field[] = readonly Field[],
  Scope extends EntityScope = EntityScope,
  Name extends string = string,
> = {
  /** The API path segment: `/rentapi/api/{name}`. */
  name: Name;
  singular: string;
  /** what its records are called together, lowercase ('occupancy records'): "still used by {plural}" */
  plural: string;
  /** company-owned, or one list for the whole installation. */
  scope: Scope;
  fields: Fields;
  /** The writable fields and their rules, with the spec's messages. */
  shape: Shape;
  columns: readonly Column[];
  /** fields the `q` search matches (case-insensitive). */
  search: readonly string[];
  /** fields `sort` accepts. */
  sort: readonly string[];
  access: { read: Access; create: Access; update: Access; delete: Access };
  ui: EntityUi;
  page: EntityPage;
  /** Rules across fields (end date after start): the field and the message, or nothing. */
  check?: (values: Record<string, unknown>) => { field: string; message: string } | undefined;
  /**
   * Its list and export take `property_id` (the rows of one property): its table has a `property_id`
   * column, its own (units) or its unit's, copied (db/derived.ts).
   */
  byProperty?: boolean;
  /** Importable from a file, and how (`POST /imports`). */
  import?: EntityImport;
};

/** A list column as a definition names it: a field, shown with its label unless another is given. */
export type ColumnSpec = { field: string; label?: string; sortable: boolean };

/** Columns the list sorts by (the API's `sort` accepts them). */
export const sortableColumns = (...fields: string[]): ColumnSpec[] =>
  fields.map((field) => ({ field, sortable: true }));
/** Columns shown only. */
export const plainColumns = (...fields: string[]): ColumnSpec[] =>
  fields.map((field) => ({ field, sortable: false }));

/** What an entity file writes: the definition, with its columns named by field and `sort` left to follow. */
export type EntitySpec<
  Shape extends z.ZodRawShape = z.ZodRawShape,
  Fields extends readonly Field[] = readonly Field[],
  Scope extends EntityScope = EntityScope,
  Name extends string = string,
> = Omit<EntityDefinition<Shape, Fields, Scope, Name>, 'columns' | 'sort' | 'page' | 'shape'> & {
  /**
   * The writable fields and their rules, or a function that makes them: then built when first used
   * (the web's list pages never use them; their zod schemas cost a phone's start-up, issue 26).
   */
  shape: Shape | (() => Shape);
  columns: readonly ColumnSpec[];
  /** fields `sort` accepts besides `id` and the sortable columns. */
  alsoSortable?: readonly string[];
  /**
   * The route's name defaults to the name in PascalCase (`MaintenanceRequests`), its path to the name
   * dashed (`/commission-wages`), the drawer label to the name in words ('Commission Wages').
   */
  page: Partial<Pick<EntityPage, 'id' | 'path'>> & {
    drawer: Omit<DrawerPlace, 'label'> & { label?: string };
  };
};

type EntityAccess = EntityDefinition['access'];

/** Any role reads, editors add, admins change and delete (the 02-admin pages). */
export const adminMaintained = {
  read: 'anyRole',
  create: 'canEdit',
  update: 'admin',
  delete: 'admin',
} as const satisfies EntityAccess;

/** Any role reads, editors add and change, admins delete. */
export const editorMaintained = {
  read: 'anyRole',
  create: 'canEdit',
  update: 'canEdit',
  delete: 'admin',
} as const satisfies EntityAccess;

/** Kinds a list shows as plain text: their columns name no kind. */
const textKinds: ReadonlySet<FieldKind> = new Set(['text', 'textarea', 'email', 'phone']);

const toColumn =
  (fields: readonly Field[]) =>
  ({ field: name, label, sortable }: ColumnSpec): Column => {
    const f = fields.find((candidate) => candidate.name === name);
    if (!f) throw new Error(`Column ${name}: no such field.`);
    return {
      field: name,
      label: label ?? f.label,
      ...(textKinds.has(f.kind) ? {} : { kind: f.kind }),
      ...(sortable ? { sortable } : {}),
    };
  };

/** The read-only `version` every record has (optimistic locking). */
type VersionField = Field & { name: 'version'; kind: 'integer'; readOnly: true; required: true };

/**
 * The definition of an entity: every record has a `version` (optimistic locking), so the fields get its
 * read-only one; a column takes its field's label and kind; `sort` accepts `id`, the sortable columns,
 * `alsoSortable` (`id` is the order of creation).
 */
export const defineEntity = <
  Shape extends z.ZodRawShape,
  const Fields extends readonly Field[],
  const Scope extends EntityScope,
  const Name extends string,
>(
  spec: EntitySpec<Shape, Fields, Scope, Name>,
): EntityDefinition<Shape, readonly [...Fields, VersionField], Scope, Name> => {
  const {
    name,
    singular,
    plural,
    scope,
    shape,
    check,
    columns,
    search,
    alsoSortable = [],
    access,
    ui,
    page,
  } = spec;
  const { byProperty } = spec;
  const importing = spec.import;
  const version: VersionField = {
    name: 'version',
    label: 'Version',
    kind: 'integer',
    readOnly: true,
    required: true,
  };
  const fields = (
    spec.fields.some((f) => f.name === 'version') ? spec.fields : [...spec.fields, version]
  ) as [...Fields, VersionField];
  for (const f of fields) if (f.copyOf !== undefined) checkCopy(name, fields, f);
  const sortable = columns.filter((c) => c.sortable).map((c) => c.field);
  let built: Shape | undefined;
  return {
    name,
    singular,
    plural,
    scope,
    fields,
    get shape() {
      built ??= typeof shape === 'function' ? shape() : shape;
      return built;
    },
    ...(check ? { check } : {}),
    ...(byProperty ? { byProperty } : {}),
    ...(importing ? { import: importing } : {}),
    columns: columns.map(toColumn(fields)),
    search,
    sort: ['id', ...sortable, ...alsoSortable],
    access,
    ui,
    page: placed(name, page),
  };
};

/** A copied name is read-only and copies along a reference of the same entity. */
const checkCopy = (entity: string, fields: readonly Field[], f: Field): void => {
  const via = fields.find((candidate) => candidate.name === f.copyOf);
  if (!via?.ref) throw new Error(`${entity}.${f.name}: copyOf ${String(f.copyOf)} is not a reference field.`);
  if (!f.readOnly) throw new Error(`${entity}.${f.name}: a copied name is read-only.`);
};

const words = (name: string) => name.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1));

const placed = (name: string, { id, path, drawer }: EntitySpec['page']): EntityPage => ({
  id: id ?? words(name).join(''),
  path: path ?? `/${name.replaceAll('_', '-')}`,
  drawer: { ...drawer, label: drawer.label ?? words(name).join(' ') },
});

/** The entities of a list keyed by their names, in the list's order (`entities` of entities/index.ts). */
export type EntitiesByName<L extends readonly EntityDefinition[]> = {
  [D in L[number] as D['name']]: D;
};
export const byName = <const L extends readonly EntityDefinition[]>(list: L): EntitiesByName<L> => {
  const names = list.map((def) => def.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new Error(`Two entities are named ${twice}.`);
  return Object.fromEntries(list.map((def) => [def.name, def])) as EntitiesByName<L>;
};

/** Field names the API answers that a client may echo back in a body. */
export const readOnlyNames = (def: EntityDefinition): string[] => [
  'id',
  'company_id',
  'created_at',
  'updated_at',
  ...def.fields.filter((f) => f.readOnly).map((f) => f.name),
];

/** The create body: the entity's rules, read-only fields accepted and dropped, anything else refused. */
export const createSchema = <Shape extends z.ZodRawShape>(
  def: EntityDefinition<Shape>,
  /** what the server adds to its answers (a lease's `back_rent`): echoed back, accepted and dropped */
  answered: readonly string[] = [],
) => {
  const extra = Object.fromEntries([...readOnlyNames(def), ...answered, 'version'].map((n) => [n, ignored]));
  return z
    .strictObject({ ...extra, ...def.shape })
    .superRefine(crossCheck(def))
    .transform((body) => pick(body, Object.keys(def.shape)));
};

const crossCheck =
  (def: EntityDefinition) =>
  (values: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const problem = def.check?.(values);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  };

/** The update body: as create, plus the `version` that was read. */
export const updateSchema = <Shape extends z.ZodRawShape>(
  def: EntityDefinition<Shape>,
  answered: readonly string[] = [],
) => {
  const extra = Object.fromEntries([...readOnlyNames(def), ...answered].map((n) => [n, ignored]));
  return z
    .strictObject({ ...extra, ...def.shape, version })
    .superRefine(crossCheck(def))
    .transform((body) => pick(body, [...Object.keys(def.shape), 'version']));
};

/** The form schema the web uses with react-hook-form: the same rules, no transform. */
export const formSchema = <Shape extends z.ZodRawShape>(def: EntityDefinition<Shape>) =>
  z.object(def.shape).superRefine(crossCheck(def));

const pick = (o: Record<string, unknown>, keys: string[]): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
};

/**
 * Snackbar texts of the spec for an entity (01-core §8, §9); the dialogs' errors name it by `noun`
 * ('Could not save payment.') when that is not the singular ('Payment record').
 */
export const standardMessages = (singular: string, plural: string, noun = singular) => ({
  loadFailed: `Failed to load ${plural}.`,
  notAuthorized: `You are not authorized to view ${plural}.`,
  detailsFailed: `Failed to load ${noun.toLowerCase()} details.`,
  saveFailed: `Could not save ${noun.toLowerCase()}.`,
  deleteFailed: `Could not delete ${noun.toLowerCase()}.`,
  created: `${singular} created successfully!`,
  updated: `${singular} updated successfully!`,
  deleted: `${singular} deleted successfully!`,
});

/** How many of a list's columns its rows show as cards on a phone (issue 26, 'On a phone'). */
export const CARD_FIELD_COUNT = 5;

/**
 * The main fields of an entity's list: its first columns that are no long text, shown on each row's
 * card at 360 px (the payments list: date, status, tenant, unit, amount). The first is the card's title.
 */
export const cardColumns = (def: Pick<EntityDefinition, 'columns' | 'fields'>): Column[] =>
  def.columns
    .filter((c) => def.fields.find((f) => f.name === c.field)?.kind !== 'textarea')
    .slice(0, CARD_FIELD_COUNT);
