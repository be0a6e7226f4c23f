import { commissionWages } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { wagePosted } from '../../modules/books/hooks.ts';

export const commissionWagesServer: ServerEntity = {
  def: commissionWages,
  sql: {
    table: 'commission_wages',
    joins: 'JOIN employees e ON e.company_id = t.company_id AND e.id = t.employee_id',
    expressions: { employee_first_name: 'e.first_name', employee_last_name: 'e.last_name' },
  },
  posted: wagePosted,
};
