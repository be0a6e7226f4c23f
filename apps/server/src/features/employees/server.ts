import { employees } from '@kodi/domain';
import type { ServerEntity } from '../../crud/service.ts';

export const employeesServer: ServerEntity = {
  def: employees,
  sql: { table: 'employees', expressions: { full_name: `(t.first_name || ' ' || t.last_name)` } },
};
