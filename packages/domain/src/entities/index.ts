import { units } from './units.ts';
import { tenants } from './tenants.ts';
import { occupancy } from './occupancy.ts';
import { payments } from './payments.ts';
import type { EntityDefinition } from '../entity.ts';

export { units, tenants, occupancy, payments };
export { MAX_LEASE_DOC_BYTES } from './occupancy.ts';
export { formatSerial, NO_OCCUPANCY_MESSAGE } from './payments.ts';
export { PHONE_PATTERN, COUNTRY_CODE_PATTERN } from './tenants.ts';
export { imageField } from './units.ts';

/** Every entity with generic routes and pages: adding one is a definition and a line here. */
export const entities = { units, tenants, occupancy, payments } as const satisfies Record<string, EntityDefinition>;
export type EntityName = keyof typeof entities;
