import type { KodiModule } from '../../modules/kodi-module.ts';
import { booksRoutes } from './routes.ts';

/** The books' routes: the chart of accounts, the journal, manual entries and the close (issue 25). */
export const booksFeatureModule: KodiModule = {
  name: 'books-routes',
  routes: (api, ctx) => booksRoutes(api, ctx),
};
