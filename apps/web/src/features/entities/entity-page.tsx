import type { ComponentType } from 'react';
import { entities, type EntityName } from '@kodi/domain';
import type { ResourceExtras } from '../../components/resource/types.ts';
import { ResourceListPage } from '../../components/resource/resource-list-page.tsx';
import { entityExtras } from './extras.tsx';

/** The list page of any entity of the registry, with its declared extras. */
export const EntityPage = ({ entity, extras }: { entity: EntityName; extras?: ResourceExtras }) => (
  <ResourceListPage key={entity} def={entities[entity]} extras={extras} />
);

/** Extras that other features give an entity's page (the app joins them: features do not import each other). */
export type InjectedExtras = Partial<Record<EntityName, ResourceExtras>>;

/**
 * One page component per registry entry, for the lazily loaded route table: each with the entity's
 * declared extras and those `injected` for it.
 */
export const createEntityPages = (injected: InjectedExtras = {}): Record<EntityName, ComponentType> => {
  const pages = {} as Record<EntityName, ComponentType>;
  for (const entity of Object.keys(entities) as EntityName[]) {
    const own = entityExtras[entity];
    const more = injected[entity];
    const extras = own && more ? { ...own, ...more } : (own ?? more);
    const Page = () => <EntityPage entity={entity} extras={extras} />;
    Page.displayName = `EntityPage(${entity})`;
    pages[entity] = Page;
  }
  return pages;
};
