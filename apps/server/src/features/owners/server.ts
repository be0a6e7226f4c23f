import { owners } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { e164PhoneHooks } from '../../crud/phone-hooks.ts';

/**
 * Owners' phones as saved (docs/decisions.md, 'One phone number'): in E.164, read as a number of the
 * company's country when written without its +code. An owner has no country field of their own: one
 * abroad is written with its +code.
 */
export const ownersServer: ServerEntity = {
  def: owners,
  sql: { table: 'owners' },
  ...e164PhoneHooks(),
};
