import { defineEntity, standardMessages } from '../entity.ts';
import { paymentMethod, paymentStatus } from '../enums.ts';
import {
  isoDate,
  oneOf,
  optionalOneOf,
  optionalRefId,
  optionalText,
  positiveNumber,
  refId,
} from '../fields.ts';

export const NO_OCCUPANCY_MESSAGE = 'No matching occupancy found for this tenant and unit combination.';

/** `PAY-000001`, `RCT-000001`: per company, sequential, never reused. */
export const formatSerial = (prefix: 'PAY' | 'RCT', n: number) => `${prefix}-${String(n).padStart(6, '0')}`;

export const payments = defineEntity({
  name: 'payments',
  singular: 'Payment record',
  scope: 'company',
  fields: [
    {
      name: 'tenant_id',
      label: 'Tenant',
      kind: 'reference',
      ref: { entity: 'tenants', labelFields: ['first_name', 'last_name'] },
      required: true,
    },
    {
      name: 'unit_id',
      label: 'Unit',
      kind: 'reference',
      ref: { entity: 'units', labelFields: ['name'] },
      required: true,
    },
    { name: 'occupancy_id', label: 'Occupancy', kind: 'integer', form: false },
    { name: 'payment_date', label: 'Payment Date', kind: 'date', required: true, defaultValue: 'today' },
    { name: 'amount_paid', label: 'Amount Paid', kind: 'money', required: true },
    { name: 'payment_method', label: 'Payment Method', kind: 'enum', options: paymentMethod },
    {
      name: 'status',
      label: 'Payment Status',
      kind: 'enum',
      options: paymentStatus,
      required: true,
      defaultValue: 'completed',
      chipColors: { completed: 'success', pending: 'warning', failed: 'error' },
    },
    {
      name: 'effective_start_date',
      label: 'Effective Start Date',
      kind: 'date',
      required: true,
      defaultValue: 'today',
    },
    { name: 'effective_end_date', label: 'Effective End Date', kind: 'date', required: true },
    { name: 'reference_number', label: 'Payment Reference', kind: 'text' },
    { name: 'invoice_id', label: 'Invoice ID', kind: 'text' },
    { name: 'payment_details', label: 'Details', kind: 'textarea', fullWidth: true },
    { name: 'payment_serial', label: 'Serial', kind: 'text', readOnly: true },
    { name: 'receipt_number', label: 'Receipt No.', kind: 'text', readOnly: true },
    { name: 'tenant_first_name', label: 'Tenant First Name', kind: 'text', readOnly: true },
    { name: 'tenant_last_name', label: 'Tenant Last Name', kind: 'text', readOnly: true },
    { name: 'tenant_name', label: 'Tenant', kind: 'text', readOnly: true },
    { name: 'unit_name', label: 'Unit Name', kind: 'text', readOnly: true },
    { name: 'version', label: 'Version', kind: 'integer', readOnly: true },
  ],
  shape: {
    tenant_id: refId(),
    unit_id: refId(),
    occupancy_id: optionalRefId(),
    payment_date: isoDate(),
    amount_paid: positiveNumber(),
    payment_method: optionalOneOf(paymentMethod.values),
    status: oneOf(paymentStatus.values).default('completed'),
    effective_start_date: isoDate(),
    effective_end_date: isoDate(),
    reference_number: optionalText(100),
    invoice_id: optionalText(100),
    payment_details: optionalText(2000),
  },
  check: (v) =>
    typeof v.effective_end_date === 'string' &&
    typeof v.effective_start_date === 'string' &&
    v.effective_end_date < v.effective_start_date
      ? { field: 'effective_end_date', message: 'End date must be after start date.' }
      : undefined,
  columns: [
    { field: 'payment_date', label: 'Payment Date', kind: 'date', sortable: true },
    { field: 'status', label: 'Payment Status', kind: 'enum', sortable: true },
    { field: 'tenant_name', label: 'Tenant', sortable: true },
    { field: 'unit_name', label: 'Unit Name', sortable: true },
    { field: 'amount_paid', label: 'Amount Paid', kind: 'money', sortable: true },
    { field: 'payment_details', label: 'Details' },
    { field: 'reference_number', label: 'Payment Reference', sortable: true },
    { field: 'receipt_number', label: 'Receipt No.', sortable: true },
  ],
  search: ['payment_serial', 'receipt_number', 'tenant_name', 'unit_name', 'reference_number'],
  sort: [
    'id',
    'payment_date',
    'status',
    'tenant_name',
    'unit_name',
    'amount_paid',
    'reference_number',
    'receipt_number',
    'payment_serial',
    'created_at',
  ],
  access: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  ui: {
    route: '/payments',
    title: 'Payments',
    searchLabel: 'Search Payments (Serial, Tenant, Unit)',
    emptyText: 'No payments available or match your search.',
    dialogWidth: 750,
    formTitle: { create: 'New Payment', edit: 'Edit Payment' },
    detailsTitle: 'Payment Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete payment ${String(row.payment_serial ?? row.id ?? '')} of ${String(row.tenant_name ?? '')}?`,
    messages: {
      ...standardMessages('Payment record', 'payments'),
      saveFailed: 'Could not save payment.',
      deleteFailed: 'Could not delete payment.',
      detailsFailed: 'Failed to load payment details.',
    },
    errorPrefix: true,
    timeouts: { success: 4000, error: 4000, saveError: 4000, deleteError: 4000 },
  },
});
