import { adminMaintained, defineEntity, plainColumns, sortableColumns } from '../entity.ts';
import { operators } from '../navigation.ts';
import { field, text } from '../fields.ts';
import { adminPages, shown } from './ui-texts.ts';

export const vendors = defineEntity({
  name: 'vendors',
  page: { drawer: { section: 'Operations', order: 50, audience: operators } },
  fields: [
    field.text('name', 'Name', { required: true }),
    field.text('service_offered', 'Service Offered', { required: true }),
    field.phone('phone', 'Phone', { required: true }),
  ],
  shape: () => ({
    name: text(255),
    // 02-admin §5: the service is lowercased on save.
    service_offered: text(255).transform((s) => s.toLowerCase()),
    phone: text(50),
  }),
  scope: 'company',
  access: adminMaintained,
  columns: [...sortableColumns('name', 'service_offered'), ...plainColumns('phone')],
  search: ['name', 'service_offered'],
  ...adminPages('Vendor', 'vendors', {
    searchLabel: 'Search Vendors (Name, Service)',
    deleteConfirm: (row) => `Are you sure you want to delete vendor: ${shown(row.name)}?`,
  }),
});
