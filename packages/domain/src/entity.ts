import { z } from 'zod';
import type { Access } from './roles.ts';
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
  /** reference fields: the entity picked, and how its rows are named. */
  ref?: { entity: string; labelFields: readonly string[] };
  required?: boolean;
  /** answered by the API (joined names, serials), never written by the client. */
  readOnly?: boolean;
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
  route: string;
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

export type EntityDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> = {
  /** The API path segment: `/rentapi/api/{name}`. */
  name: string;
  singular: string;
  /** company-owned, or one list for the whole installation. */
  scope: 'company' | 'global';
  fields: readonly Field[];
  /** The writable fields and their rules, with the spec's messages. */
  shape: Shape;
  columns: readonly Column[];
  /** fields the `q` search matches (case-insensitive). */
  search: readonly string[];
  /** fields `sort` accepts. */
  sort: readonly string[];
  access: { read: Access; create: Access; update: Access; delete: Access };
  ui: EntityUi;
  /** Rules across fields (end date after start): the field and the message, or nothing. */
  check?: (values: Record<string, unknown>) => { field: string; message: string } | undefined;
};

/** Every record has a `version` (optimistic locking): the definition gets its read-only field. */
export const defineEntity = <Shape extends z.ZodRawShape>(
  def: EntityDefinition<Shape>,
): EntityDefinition<Shape> => ({
  ...def,
  fields: def.fields.some((f) => f.name === 'version')
    ? def.fields
    : [...def.fields, { name: 'version', label: 'Version', kind: 'integer', readOnly: true }],
});

/** The read-only names joined from a record's tenant and unit (occupancy, payments, requests). */
export const tenantUnitNames = (unitLabel = 'Unit'): Field[] => [
  { name: 'tenant_first_name', label: 'Tenant First Name', kind: 'text', readOnly: true },
  { name: 'tenant_last_name', label: 'Tenant Last Name', kind: 'text', readOnly: true },
  { name: 'tenant_name', label: 'Tenant', kind: 'text', readOnly: true },
  { name: 'unit_name', label: unitLabel, kind: 'text', readOnly: true },
];

/** Field names the API answers that a client may echo back in a body. */
export const readOnlyNames = (def: EntityDefinition): string[] => [
  'id',
  'company_id',
  'created_at',
  'updated_at',
  ...def.fields.filter((f) => f.readOnly).map((f) => f.name),
];

/** The create body: the entity's rules, read-only fields accepted and dropped, anything else refused. */
export const createSchema = <Shape extends z.ZodRawShape>(def: EntityDefinition<Shape>) => {
  const extra = Object.fromEntries([...readOnlyNames(def), 'version'].map((n) => [n, ignored]));
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
export const updateSchema = <Shape extends z.ZodRawShape>(def: EntityDefinition<Shape>) => {
  const extra = Object.fromEntries(readOnlyNames(def).map((n) => [n, ignored]));
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

/** Snackbar texts and timeouts of the spec for an entity (01-core §8, §9). */
export const standardMessages = (singular: string, plural: string) => ({
  loadFailed: `Failed to load ${plural}.`,
  notAuthorized: `You are not authorized to view ${plural}.`,
  detailsFailed: `Failed to load ${singular.toLowerCase()} details.`,
  saveFailed: `Could not save ${singular.toLowerCase()}.`,
  deleteFailed: `Could not delete ${singular.toLowerCase()}.`,
  created: `${singular} created successfully!`,
  updated: `${singular} updated successfully!`,
  deleted: `${singular} deleted successfully!`,
});
