import { sql } from 'drizzle-orm';
import { companies, isAdmin } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { companiesPublicList } from './public-list.ts';

/** Admins administer every company; everyone else sees only their own; signed out, id and name of the active ones. */
export const companiesServer: ServerEntity = {
  def: companies,
  sql: { table: 'companies' },
  scope: (user) => (isAdmin(user) ? sql`TRUE` : sql`t.id = ${user.company_id}`),
  publicList: companiesPublicList,
};
