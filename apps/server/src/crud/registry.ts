import type { EntityDefinition } from '@kodi/domain';
import type { ServerEntity } from './server-entity.ts';

/** A plain entity: its table is named as the entity, its list reads that table alone. */
const plainServerEntity = (def: EntityDefinition): ServerEntity => ({ def, sql: { table: def.name } });

/**
 * The entities served by the generic routes (the list, `entityList`): each with its server parts
 * (joins and derived values, rules before a write, another scope: the modules' `entities`, given by
 * the composition root, src/modules.ts), or plain: an entity without any is served from its
 * definition alone.
 */
export const serverEntitiesOf = (
  defs: readonly EntityDefinition[],
  parts: readonly ServerEntity[],
): ServerEntity[] => {
  const byName = new Map<string, ServerEntity>();
  for (const part of parts) {
    if (byName.has(part.def.name)) throw new Error(`Two modules give the server parts of ${part.def.name}.`);
    byName.set(part.def.name, part);
  }
  return defs.map((def) => {
    const own = byName.get(def.name);
    if (own && own.def !== def) throw new Error(`The server part of ${def.name} is for ${own.def.name}.`);
    return own ?? plainServerEntity(def);
  });
};
