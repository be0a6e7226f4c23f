import { localDayIso, type EntityDefinition, type Field } from '@kodi/domain';
import type { ResourceRow } from '../../lib/resources.ts';
import { fieldByName, referenceText, EMPTY } from './format.tsx';
import type { PickerOption } from './reference-picker.tsx';

export type FormValues = Record<string, unknown>;

/** The fields a form shows: `form !== false` and not read-only, in the definition's order. */
export const formFields = (def: EntityDefinition): Field[] =>
  def.fields.filter((f) => f.form !== false && !f.readOnly);

/** A file field keeps its file name in `{name}_name` (occupancy: lease_doc, lease_doc_name). */
export const companionName = (field: Field) => `${field.name}_name`;

const companions = (def: EntityDefinition): Set<string> =>
  new Set(def.fields.filter((f) => f.kind === 'file').map(companionName));

/** The empty value of a field in the form. */
const blank = (field: Field): unknown => {
  switch (field.kind) {
    case 'boolean':
      return false;
    case 'reference':
      return null;
    case 'image':
    case 'file':
      return undefined; // absent: nothing to send
    default:
      return '';
  }
};

/** A new record: the definition's defaults ('today' is today's date), else empty. */
export const createValues = (def: EntityDefinition): FormValues => {
  const values: FormValues = {};
  for (const name of Object.keys(def.shape)) {
    const field = fieldByName(def, name);
    if (!field || field.form === false) continue; // left to the server
    values[name] =
      field.defaultValue === undefined
        ? blank(field)
        : field.defaultValue === 'today'
          ? localDayIso()
          : field.defaultValue;
  }
  return values;
};

/** An existing record in the form; images and documents start untouched (absent from the body). */
export const editValues = (def: EntityDefinition, record: ResourceRow): FormValues => {
  const values: FormValues = {};
  const fileNames = companions(def);
  for (const name of Object.keys(def.shape)) {
    const field = fieldByName(def, name);
    if (!field) continue;
    if (field.kind === 'image' || field.kind === 'file' || fileNames.has(name)) {
      values[name] = undefined;
      continue;
    }
    const v = record[name];
    if (v === null || v === undefined) values[name] = field.form === false ? v : blank(field);
    else if (field.kind === 'date') values[name] = String(v).slice(0, 10);
    else values[name] = v;
  }
  return values;
};

/** The labels of a record's references, from the joined names the API answers. */
export const referenceHints = (def: EntityDefinition, record: ResourceRow): Record<string, PickerOption> => {
  const hints: Record<string, PickerOption> = {};
  for (const field of def.fields) {
    if (field.kind !== 'reference') continue;
    const id = Number(record[field.name]);
    const label = referenceText(field, record);
    if (Number.isFinite(id) && id > 0 && label !== EMPTY && !label.startsWith('#')) {
      hints[field.name] = { value: id, label };
    }
  }
  return hints;
};

/** The body to send: the parsed values without the absent ones (and the version on edit). */
export const requestBody = (values: FormValues, version?: unknown): FormValues => {
  const body: FormValues = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) body[key] = value;
  if (version !== undefined) body.version = version;
  return body;
};
