import type { KodiModule } from '../../modules/kodi-module.ts';
import { unitsServer } from './server.ts';

/** Units and their images. */
export const unitsModule: KodiModule = {
  name: 'units',
  entities: [unitsServer],
};
