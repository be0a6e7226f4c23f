import type { KodiModule } from '../../modules/kodi-module.ts';
import { propertyUnitsRoute } from './units-route.ts';

/** A property's units with their current tenant. */
export const propertiesModule: KodiModule = {
  name: 'properties',
  routes: (api, ctx) => propertyUnitsRoute(api, ctx),
};
