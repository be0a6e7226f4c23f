import { units } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { normaliseImage } from './images.ts';

export const unitsServer: ServerEntity = {
  def: units,
  sql: {
    table: 'units',
    expressions: {
      has_image_1: '(t.image_1_base64 IS NOT NULL)',
      has_image_2: '(t.image_2_base64 IS NOT NULL)',
    },
  },
  bodyLimit: 8 * 1024 * 1024,
  prepare: async ({ values }) => {
    const out = { ...values };
    for (const f of ['image_1_base64', 'image_2_base64']) {
      const v = normaliseImage(f, out[f]);
      if (v === undefined) delete out[f];
      else out[f] = v;
    }
    return out;
  },
};
