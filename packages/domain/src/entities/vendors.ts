import { defineEntity } from '../entity.ts';
import { text } from '../fields.ts';
import { adminSnackbar, shown } from './admin-ui.ts';

export const vendors = defineEntity({
  name: 'vendors',
  singular: 'Vendor',
  scope: 'company',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'service_offered', label: 'Service Offered', kind: 'text', required: true },
    { name: 'phone', label: 'Phone', kind: 'phone', required: true },
  ],
  shape: {
    name: text(255),
    // 02-admin §5: the service is lowercased on save.
    service_offered: text(255).transform((s) => s.toLowerCase()),
    phone: text(50),
  },
  columns: [
    { field: 'name', label: 'Name', sortable: true },
    { field: 'service_offered', label: 'Service Offered', sortable: true },
    { field: 'phone', label: 'Phone' },
  ],
  search: ['name', 'service_offered'],
  sort: ['id', 'name', 'service_offered', 'created_at'],
  access: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  ui: {
    route: '/vendors',
    title: 'Vendors',
    searchLabel: 'Search Vendors (Name, Service)',
    emptyText: 'No vendors available or match your search.',
    dialogWidth: 600,
    formTitle: { create: 'New Vendor', edit: 'Edit Vendor' },
    detailsTitle: 'Vendor Details',
    deleteConfirm: (row) => `Are you sure you want to delete vendor: ${shown(row.name)}?`,
    ...adminSnackbar('Vendor', 'vendors'),
  },
});
