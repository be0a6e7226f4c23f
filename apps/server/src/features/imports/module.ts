import type { KodiModule } from '../../modules/kodi-module.ts';
import { importRoutes } from './routes.ts';

/** Files of any importable entity: preview, commit, errors file, template. */
export const importsModule: KodiModule = {
  name: 'imports',
  owns: ['imports', 'import_rows'],
  // its own scope: multipart bodies are parsed there only
  routes: async (api, ctx, served) => {
    await api.register(async (scope) => importRoutes(scope, ctx, served.entities));
  },
};
