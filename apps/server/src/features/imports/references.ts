import { sql, type SQL } from 'drizzle-orm';
import { entityList, type EntityDefinition, type Field } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { phoneDigits, type CellContext } from './cells.ts';

/**
 * A column that names a referenced record ('Tenant', 'Unit', 'Property', 'Vendor'): the record is
 * found, in the company, by the first of these that matches: its `external_ref` (when its entity has
 * one), each field of its entity's `import.matchBy` (tenants: phone, compared as digits in E.164 and
 * national forms), then its label fields (a unit's name, a tenant's full name; case and spacing
 * ignored). Everything is read from the definitions: a new importable entity and the references to
 * it need nothing here.
 */
export type Resolution = { id: number; label: string } | { error: string; missing?: boolean };

type Step = { name: string; where: (key: SQL) => SQL; keys: (key: string) => string[] };

const MAX_CACHED = 50_000;

const label = (def: EntityDefinition) => def.singular.toLowerCase().replace(/ record$/, '');

const plural = (def: EntityDefinition) => def.name.replace(/_/g, ' ');

/** Resolves the values of one reference column, a batch at a time, remembering what it found. */
export const referenceResolver = (field: Field, companyId: number, ctx: CellContext) => {
  const ref = field.ref;
  const target = entityList.find((d) => d.name === ref?.entity);
  if (!ref || !target) throw new Error(`${field.name}: no referenced entity`);
  const table = sql.raw(target.name);
  const fieldOf = (name: string) => target.fields.find((f) => f.name === name);
  const spaced = (e: SQL) => sql`lower(regexp_replace(btrim(${e}), '\\s+', ' ', 'g'))`;
  const labelExpr = sql.raw(
    ref.labelFields.length === 1
      ? `t.${ref.labelFields[0] ?? 'name'}`
      : `concat_ws(' ', ${ref.labelFields.map((f) => `t.${f}`).join(', ')})`,
  );
  // how the preview names the record found: its label, and a unit's property ('A1 · Kololo Court')
  const shownExpr = fieldOf('property_name')
    ? sql`concat_ws(' · ', ${labelExpr}, t.property_name)`
    : labelExpr;
  const steps: Step[] = [
    ...(fieldOf('external_ref')
      ? [{ name: 'external_ref', where: (k: SQL) => sql`t.external_ref = ${k}`, keys: (s: string) => [s] }]
      : []),
    ...(target.import?.matchBy ?? []).map((name): Step => {
      const kind = fieldOf(name)?.kind;
      return kind === 'phone'
        ? {
            name,
            where: (k) => sql`regexp_replace(${sql.raw(`t.${name}`)}, '[^0-9]', '', 'g') = ${k}`,
            keys: (s) => phoneDigits(s, ctx),
          }
        : { name, where: (k) => sql`${spaced(sql.raw(`t.${name}`))} = ${spaced(k)}`, keys: (s) => [s] };
    }),
    { name: 'name', where: (k) => sql`${spaced(labelExpr)} = ${spaced(k)}`, keys: (s) => [s] },
  ];
  const by = steps
    .map((s) => (s.name === 'name' ? 'name' : (fieldOf(s.name)?.label.toLowerCase() ?? s.name)))
    .map((s) => s.replace('external ref', 'external_ref'));
  const cache = new Map<string, Resolution>();

  /** Each step's matches for keys still unresolved: one statement per step and batch. */
  const matches = async (tx: DbOrTx, step: Step, keys: string[]) => {
    const pairs = keys.flatMap((key) => step.keys(key).map((k) => ({ key, k })));
    if (pairs.length === 0) return new Map<string, { id: number; label: string }[]>();
    const rows = await execRows<{ key: string; id: number; label: string | null }>(
      tx,
      sql`SELECT DISTINCT x.key, t.id, ${shownExpr} AS label
            FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS x(key text, k text)
            JOIN ${table} t ON t.company_id = ${companyId} AND ${step.where(sql`x.k`)}`,
    );
    const found = new Map<string, { id: number; label: string }[]>();
    for (const r of rows)
      found.set(r.key, [...(found.get(r.key) ?? []), { id: Number(r.id), label: r.label ?? '' }]);
    return found;
  };

  return {
    /** The record each key names, or why none is. */
    resolve: async (tx: DbOrTx, keys: readonly string[]): Promise<Map<string, Resolution>> => {
      let open = [...new Set(keys)].filter((k) => !cache.has(k));
      const out = new Map<string, Resolution>();
      for (const step of steps) {
        if (open.length === 0) break;
        const found = await matches(tx, step, open);
        for (const [key, ids] of found) {
          out.set(
            key,
            ids.length === 1 && ids[0] !== undefined
              ? ids[0]
              : {
                  error: `${ids.length} ${plural(target)} match '${key}' by ${step.name === 'name' ? 'name' : step.name}: give its ${by.filter((b) => b !== 'name').join(' or ') || 'id'} instead.`,
                },
          );
        }
        open = open.filter((k) => !found.has(k));
      }
      for (const key of open)
        out.set(key, { error: `No ${label(target)} matches '${key}' (by ${by.join(', ')}).`, missing: true });
      for (const [key, r] of out) if (cache.size < MAX_CACHED) cache.set(key, r);
      for (const key of keys) if (!out.has(key)) out.set(key, cache.get(key) ?? { error: 'Not found.' });
      return out;
    },
  };
};

export type ReferenceResolver = ReturnType<typeof referenceResolver>;
