import { units } from './units.ts';
import { tenants } from './tenants.ts';
import type { EntityDefinition } from '../entity.ts';

export { units, tenants };

/** Every entity with generic routes and pages: adding one is a definition and a line here. */
export const entities = { units, tenants } as const satisfies Record<string, EntityDefinition>;
export type EntityName = keyof typeof entities;
