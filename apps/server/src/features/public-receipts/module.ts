import type { KodiModule } from '../../modules/kodi-module.ts';
import { publicReceiptRoutes } from './routes.ts';

/** A receipt checked by anyone (`/public/receipts/{code}`). */
export const publicReceiptsModule: KodiModule = {
  name: 'public-receipts',
  routes: (api, ctx) => publicReceiptRoutes(api, ctx),
};
