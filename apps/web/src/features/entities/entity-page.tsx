import type { ComponentType } from 'react';
import { entities, type EntityName } from '@kodi/domain';
import { ResourceListPage } from '../../components/resource/resource-list-page.tsx';
import { entityExtras } from './extras.tsx';

/** The list page of any entity of the registry, with its declared extras. */
export const EntityPage = ({ entity }: { entity: EntityName }) => (
  <ResourceListPage key={entity} def={entities[entity]} extras={entityExtras[entity]} />
);

const pageFor = (entity: EntityName): ComponentType => {
  const Page = () => <EntityPage entity={entity} />;
  Page.displayName = `EntityPage(${entity})`;
  return Page;
};

/** One page component per registry entry, for the lazily loaded route table. */
export const entityPages = {} as Record<EntityName, ComponentType>;
for (const entity of Object.keys(entities) as EntityName[]) entityPages[entity] = pageFor(entity);
