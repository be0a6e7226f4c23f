import type { KodiModule } from '../../modules/kodi-module.ts';
import { reportRoutes } from './routes.ts';
import { booksReportRoutes } from './books-routes.ts';
import { rentalTaxRoutes } from './rental-tax-routes.ts';

/** The income statement and cash flow; the trial balance, general ledger and balance sheet;
 * the landlords' rental-tax figures. */
export const reportsModule: KodiModule = {
  name: 'reports',
  routes: (api, ctx) => {
    reportRoutes(api, ctx);
    booksReportRoutes(api, ctx);
    rentalTaxRoutes(api, ctx);
  },
};
