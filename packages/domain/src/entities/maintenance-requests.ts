import { defineEntity } from '../entity.ts';
import { priority, requestStatus } from '../enums.ts';
import { isoDate, nonNegativeNumber, oneOf, refId, text } from '../fields.ts';
import { todayIso } from '../dates.ts';
import { adminSnackbar, shown } from './admin-ui.ts';

export const maintenanceRequests = defineEntity({
  name: 'maintenance_requests',
  singular: 'Maintenance request',
  scope: 'company',
  fields: [
    {
      name: 'unit_id',
      label: 'Unit',
      kind: 'reference',
      ref: { entity: 'units', labelFields: ['name'] },
      required: true,
    },
    {
      name: 'tenant_id',
      label: 'Tenant',
      kind: 'reference',
      ref: { entity: 'tenants', labelFields: ['first_name', 'last_name'] },
      required: true,
    },
    { name: 'request_date', label: 'Request Date', kind: 'date', required: true, defaultValue: 'today' },
    { name: 'description', label: 'Description', kind: 'textarea', required: true, fullWidth: true },
    {
      name: 'priority',
      label: 'Priority',
      kind: 'enum',
      options: priority,
      required: true,
      defaultValue: 'low',
    },
    {
      name: 'status',
      label: 'Status',
      kind: 'enum',
      options: requestStatus,
      required: true,
      defaultValue: 'open',
      chipColors: { open: 'warning', in_progress: 'info', closed: 'success' },
    },
    { name: 'estimated_cost', label: 'Estimated Cost', kind: 'money', required: true },
    {
      name: 'vendor_id',
      label: 'Vendor',
      kind: 'reference',
      ref: { entity: 'vendors', labelFields: ['name'] },
      required: true,
    },
    { name: 'unit_name', label: 'Unit', kind: 'text', readOnly: true },
    { name: 'tenant_first_name', label: 'Tenant First Name', kind: 'text', readOnly: true },
    { name: 'tenant_last_name', label: 'Tenant Last Name', kind: 'text', readOnly: true },
    { name: 'tenant_name', label: 'Tenant', kind: 'text', readOnly: true },
    { name: 'vendor_name', label: 'Vendor', kind: 'text', readOnly: true },
  ],
  shape: {
    unit_id: refId(),
    tenant_id: refId(),
    request_date: isoDate().default(() => todayIso()),
    description: text(5000, 'Maximum 5000 characters.'),
    priority: oneOf(priority.values).default('low'),
    status: oneOf(requestStatus.values).default('open'),
    // 02-admin §5: a positive-number rule exists but is not applied; a cost of nothing is allowed.
    estimated_cost: nonNegativeNumber(),
    vendor_id: refId(),
  },
  columns: [
    { field: 'unit_name', label: 'Unit', sortable: true },
    { field: 'tenant_name', label: 'Tenant', sortable: true },
    { field: 'request_date', label: 'Request Date', kind: 'date', sortable: true },
    { field: 'description', label: 'Description' },
    { field: 'priority', label: 'Priority', kind: 'enum', sortable: true },
    { field: 'status', label: 'Status', kind: 'enum', sortable: true },
    { field: 'estimated_cost', label: 'Estimated Cost', kind: 'money', sortable: true },
    { field: 'vendor_name', label: 'Vendor', sortable: true },
  ],
  search: ['description', 'status', 'unit_name'],
  sort: [
    'id',
    'unit_name',
    'tenant_name',
    'request_date',
    'priority',
    'status',
    'estimated_cost',
    'vendor_name',
    'created_at',
  ],
  access: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  ui: {
    route: '/maintenance-requests',
    title: 'Maintenance Requests',
    searchLabel: 'Search Requests (Description, Status, Unit)',
    emptyText: 'No maintenance requests available or match your search.',
    dialogWidth: 600,
    formTitle: { create: 'New Maintenance Request', edit: 'Edit Maintenance Request' },
    detailsTitle: 'Maintenance Request Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete this maintenance request: ${shown(row.description)} (${shown(row.unit_name)})?`,
    ...adminSnackbar('Maintenance request', 'maintenance requests', {
      detailsFailed: 'Failed to load request details.',
    }),
  },
});
