import { entityList, type EntityDefinition } from '@kodi/domain';
import { lazyPage } from '../components/lazy-page.tsx';
import type { AppRoute } from './routes.tsx';

/**
 * The list page of each entity, from its definition (`page`: the route's name and path). Any signed-in
 * user may open one; the server refuses a role the entity does not allow (403), which the page shows.
 */
export const entityRoutesOf = (list: readonly EntityDefinition[]): AppRoute[] =>
  list.map((def) => ({
    id: def.page.id,
    path: def.page.path,
    guard: 'signedIn',
    texts: ['entity'],
    ...lazyPage(() => import('./entity-route.tsx').then((m) => ({ Page: m.entityPage(def) })), 'Page'),
  }));

export const entityRoutes: AppRoute[] = entityRoutesOf(entityList);
