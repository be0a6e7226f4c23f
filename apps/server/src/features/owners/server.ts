import { owners } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { e164PhoneHooks } from '../../crud/phone-hooks.ts';
import { portalStatusSql } from '../../modules/identity/users.ts';

/**
 * Owners' phones as saved (docs/decisions.md, 'One phone number'): in E.164, read as a number of the
 * company's country when written without its +code. An owner has no country field of their own: one
 * abroad is written with its +code.
 */
export const ownersServer: ServerEntity = {
  def: owners,
  // the owner's portal account (issue 27): none, invited (no password yet), active, disabled
  sql: { table: 'owners', expressions: { portal_status: portalStatusSql('owner_id') } },
  ...e164PhoneHooks(),
};
