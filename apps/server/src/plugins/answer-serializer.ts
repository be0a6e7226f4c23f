import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** What is logged of an answer that does not match its schema: where, and each issue's path and message. */
export type AnswerMismatch = {
  method: string;
  url: string;
  issues: { path: string; code: string; message: string }[];
};

type Issue = z.core.$ZodIssue;
const schemaOf = (maybe: unknown): z.core.$ZodType => {
  if (maybe instanceof z.core.$ZodType) return maybe;
  const inner = (maybe as { properties?: unknown } | null)?.properties;
  if (inner instanceof z.core.$ZodType) return inner;
  throw new Error(`Not a zod schema: ${JSON.stringify(maybe)}`);
};

type Def = {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  catchall?: z.core.$ZodType;
  element?: z.core.$ZodType;
  innerType?: z.core.$ZodType;
  out?: z.core.$ZodType;
  getter?: () => z.core.$ZodType;
  options?: readonly z.core.$ZodType[];
  left?: z.core.$ZodType;
  right?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
};
const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The data (as JSON would carry it) with only what its schema declares: the keys of its objects'
 * shapes, through arrays, records, unions and wrappers. Values of the wrong kind stay as they are.
 */
const declared = (schema: z.core.$ZodType, data: unknown): unknown => {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isRecord(data)) return data;
      const shape = def.shape ?? {};
      const keys = Object.keys(data).filter(
        (k) => k in shape || (def.catchall && defOf(def.catchall).type !== 'never'),
      );
      return Object.fromEntries(
        keys.map((k) => {
          const inner = shape[k] ?? def.catchall;
          return [k, inner ? declared(inner, data[k]) : data[k]];
        }),
      );
    }
    case 'array': {
      const element = def.element;
      return Array.isArray(data) && element ? data.map((v) => declared(element, v)) : data;
    }
    case 'record': {
      const value = def.valueType;
      return isRecord(data) && value
        ? Object.fromEntries(Object.entries(data).map(([k, v]) => [k, declared(value, v)]))
        : data;
    }
    case 'union': {
      const objects = (def.options ?? []).filter((o) => defOf(o).type === 'object');
      if (!isRecord(data) || objects.length === 0) return data;
      const picked = objects.map((o) => declared(o, data) as Record<string, unknown>);
      return Object.assign({}, ...picked.reverse()) as Record<string, unknown>;
    }
    case 'intersection':
      return def.left && def.right && isRecord(data)
        ? { ...(declared(def.left, data) as object), ...(declared(def.right, data) as object) }
        : data;
    case 'pipe':
      return def.out ? declared(def.out, data) : data;
    case 'lazy':
      return def.getter ? declared(def.getter(), data) : data;
    default:
      return def.innerType ? declared(def.innerType, data) : data;
  }
};

/** The issues of a failed check, union branches included, as they are logged. */
const flatten = (issues: readonly Issue[], prefix: readonly PropertyKey[] = []): AnswerMismatch['issues'] =>
  issues.flatMap((i) => {
    const path = [...prefix, ...i.path];
    const own = { path: path.map(String).join('.'), code: i.code, message: i.message };
    return i.code === 'invalid_union' ? [own, ...i.errors.flatMap((e) => flatten(e, path))] : [own];
  });

/**
 * Fastify's serializer of JSON answers: each is checked against (and encoded by) its route's zod
 * schema, as fastify-type-provider-zod's `serializerCompiler` does. An answer that does not match is
 * a bug: outside production (`strict`, the tests) it throws, a 500 the tests see; in production it is
 * logged as an error (`onMismatch`) and the answer is still sent with only what its schema declares
 * (an undeclared key could be a column nobody meant to answer: it never leaves), its odd values as
 * they are, so that one odd stored row never turns a page into a 500 for its users.
 */
export const answerSerializerCompiler =
  (opts: { strict: boolean; onMismatch: (mismatch: AnswerMismatch) => void }) =>
  ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const zodSchema = schemaOf(schema);
    return (data: unknown): string => {
      const result = z.safeEncode(zodSchema, data);
      if (result.success) return JSON.stringify(result.data);
      if (opts.strict) throw new ResponseSerializationError(method, url, { cause: result.error });
      opts.onMismatch({ method, url, issues: flatten(result.error.issues) });
      return JSON.stringify(declared(zodSchema, JSON.parse(JSON.stringify(data)) as unknown));
    };
  };
