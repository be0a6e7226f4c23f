import { expenses } from '@kodi/domain';
import type { ServerEntity } from '../../crud/service.ts';

export const expensesServer: ServerEntity = {
  def: expenses,
  sql: {
    table: 'expenses',
    joins:
      'LEFT JOIN units u ON u.company_id = t.company_id AND u.id = t.unit_id ' +
      'LEFT JOIN vendors v ON v.company_id = t.company_id AND v.id = t.vendor_id',
    expressions: { unit_name: 'u.name', vendor_name: 'v.name' },
    searchVia: { unit_name: { key: 'unit_id', table: 'units', expression: 'name' } },
  },
};
