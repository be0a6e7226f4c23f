import { z } from 'zod';
import type { EntityDefinition, EntityScope, Field, FieldKind } from './entity.ts';

/**
 * The records the API answers, as zod schemas and TypeScript types derived from an entity's definition:
 * what `GET /{entity}/{id}`, `POST` and `PUT` answer (`recordSchema`), and a row of `GET /{entity}`
 * (`listRowSchema`: no image data). The server declares them as its routes' responses (and so in the
 * OpenAPI document); the web types its rows with them.
 *
 * How a field is answered (apps/server/src/crud/sql.ts `selectList`, `presentRow`):
 * - money, numbers, integers, percentages and references: JSON numbers;
 * - dates: 'YYYY-MM-DD'; `created_at`, `updated_at`: ISO timestamps in UTC ('2026-11-22T08:30:00.000Z');
 * - enums: one of their values; booleans: true or false, never null (every boolean column has a default);
 * - null when the field is not required, unless it says otherwise (`nullable`); joined names may be null;
 * - images (base64) only in a single record; documents (`file`) never (they have a download route).
 */

/** Kinds answered as JSON numbers. */
type NumberKind = 'number' | 'integer' | 'money' | 'percent' | 'reference';

/** The value of a field, not yet nullable. */
type ValueOf<F extends Field> = F extends { kind: 'enum'; options: { values: readonly (infer V)[] } }
  ? V
  : F['kind'] extends NumberKind
    ? number
    : F['kind'] extends 'boolean'
      ? boolean
      : string;

/** Answered as null for some records: see the rules above. */
type MayBeNull<F extends Field> = F extends { kind: 'boolean' }
  ? false
  : F extends { nullable: boolean }
    ? F['nullable']
    : F extends { required: true }
      ? false
      : true;

type Answered<F extends Field> = MayBeNull<F> extends true ? ValueOf<F> | null : ValueOf<F>;

/** What every record has besides its fields. */
type RecordBase<Scope extends EntityScope> = {
  id: number;
  version: number;
  created_at: string;
  updated_at: string;
} & (Scope extends 'company' ? { company_id: number } : unknown);

type Flatten<T> = { [K in keyof T]: T[K] };

/** The record of an entity of these fields, as `GET /{entity}/{id}` answers it; `Omitted` kinds left out. */
type RecordOf<Fields extends Field, Scope extends EntityScope, Omitted extends FieldKind> = Flatten<
  RecordBase<Scope> & {
    [
      F in Fields as F['kind'] extends Omitted ? never : F['name'] extends 'version' ? never : F['name']
    ]: Answered<F>;
  }
>;

type FieldsOf<D extends EntityDefinition> = D['fields'][number];

/** A record of entity `D` as the API answers one record (`GET /{entity}/{id}`, `POST`, `PUT`). */
export type EntityRecord<D extends EntityDefinition> = RecordOf<FieldsOf<D>, D['scope'], 'file'>;

/** A row of `GET /{entity}` for entity `D`: a record without its image data. */
export type EntityListRow<D extends EntityDefinition> = RecordOf<FieldsOf<D>, D['scope'], 'file' | 'image'>;

const NUMBER_KINDS: ReadonlySet<FieldKind> = new Set(['number', 'integer', 'money', 'percent', 'reference']);

const valueSchema = (f: Field): z.ZodType => {
  if (f.kind === 'enum' && f.options) {
    const [first, ...rest] = f.options.values;
    if (first !== undefined) return z.enum([first, ...rest]);
  }
  if (f.kind === 'integer' || f.kind === 'reference') return z.int32();
  if (NUMBER_KINDS.has(f.kind)) return z.number();
  if (f.kind === 'boolean') return z.boolean();
  if (f.kind === 'date') return z.iso.date();
  return z.string();
};

/** The rules of `MayBeNull`, at run time. */
export const answeredNullable = (f: Field): boolean =>
  f.kind !== 'boolean' && (f.nullable ?? f.required !== true);

const fieldSchema = (f: Field): z.ZodType => {
  const value = valueSchema(f).describe(f.label);
  return answeredNullable(f) ? value.nullable() : value;
};

const recordShape = (def: EntityDefinition, omitted: ReadonlySet<FieldKind>): z.ZodRawShape => ({
  id: z.int32().positive(),
  ...(def.scope === 'company' ? { company_id: z.int32().positive() } : {}),
  ...Object.fromEntries(
    def.fields
      .filter((f) => f.name !== 'version' && !omitted.has(f.kind))
      .map((f) => [f.name, fieldSchema(f)]),
  ),
  version: z.int32().positive().describe('Send it back with a change (409 when the record changed since)'),
  created_at: z.iso.datetime().describe('Created (UTC)'),
  updated_at: z.iso.datetime().describe('Last changed (UTC)'),
});

const RECORD_OMITS: ReadonlySet<FieldKind> = new Set(['file']);
const LIST_OMITS: ReadonlySet<FieldKind> = new Set(['file', 'image']);

/** Built once per definition: the server's routes and the OpenAPI document share the same objects. */
const built = new WeakMap<EntityDefinition, { record: z.ZodType; listRow: z.ZodType }>();
const schemasOf = (def: EntityDefinition) => {
  let s = built.get(def);
  if (!s) {
    s = {
      record: z.strictObject(recordShape(def, RECORD_OMITS)),
      listRow: z.strictObject(recordShape(def, LIST_OMITS)),
    };
    built.set(def, s);
  }
  return s;
};

/** The record of an entity as `GET /{entity}/{id}`, `POST /{entity}` and `PUT /{entity}/{id}` answer it. */
export const recordSchema = <D extends EntityDefinition>(def: D) =>
  schemasOf(def).record as z.ZodType<EntityRecord<D>>;

/** A row of `GET /{entity}`: the record without image data (units answer `has_image_1`, `has_image_2`). */
export const listRowSchema = <D extends EntityDefinition>(def: D) =>
  schemasOf(def).listRow as z.ZodType<EntityListRow<D>>;
