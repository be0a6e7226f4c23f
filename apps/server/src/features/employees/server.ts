import { employees } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';

export const employeesServer: ServerEntity = {
  def: employees,
  sql: { table: 'employees' },
};
