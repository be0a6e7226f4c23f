import type { KodiModule } from '../../modules/kodi-module.ts';
import { commissionWagesServer } from './server.ts';

/** Commission wages: their employee's name joined. */
export const commissionWagesModule: KodiModule = {
  name: 'commission-wages',
  entities: [commissionWagesServer],
};
