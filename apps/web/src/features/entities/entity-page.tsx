import type { ComponentType } from 'react';
import type { EntityDefinition, EntityName } from '@kodi/domain';
import type { ResourceExtras } from '../../components/resource/types.ts';
import { ResourceListPage } from '../../components/resource/resource-list-page.tsx';
import { entityExtras } from './extras.tsx';

/** The list page of any entity of the list, with its declared extras. */
export const EntityPage = ({ def, extras }: { def: EntityDefinition; extras?: ResourceExtras }) => (
  <ResourceListPage key={def.name} def={def} extras={extras} />
);

/** Extras that other features give an entity's page (the app joins them: features do not import each other). */
export type InjectedExtras = Partial<Record<EntityName, ResourceExtras>>;

const extrasOf = (extras: Partial<Record<string, ResourceExtras>>, name: string) => extras[name];

/**
 * The page component of an entity, for the lazily loaded route table: with the entity's declared
 * extras and those `injected` for it (an entity with neither is its plain list page).
 */
export const createEntityPage =
  (injected: InjectedExtras = {}) =>
  (def: EntityDefinition): ComponentType => {
    const own = extrasOf(entityExtras, def.name);
    const more = extrasOf(injected, def.name);
    const extras = own && more ? { ...own, ...more } : (own ?? more);
    const Page = () => <EntityPage def={def} extras={extras} />;
    Page.displayName = `EntityPage(${def.name})`;
    return Page;
  };
