import { z } from 'zod';
import { defineEntity, standardMessages } from '../entity.ts';
import { depositStatus, occupancyStatus, rentCycle } from '../enums.ts';
import {
  bool,
  isoDate,
  oneOf,
  optionalInteger,
  optionalIsoDate,
  optionalNonNegative,
  optionalOneOf,
  optionalText,
  positiveNumber,
  refId,
} from '../fields.ts';

export const MAX_LEASE_DOC_BYTES = 5 * 1024 * 1024;

export const occupancy = defineEntity({
  name: 'occupancy',
  singular: 'Occupancy record',
  scope: 'company',
  fields: [
    { name: 'tenant_id', label: 'Tenant', kind: 'reference', ref: { entity: 'tenants', labelFields: ['first_name', 'last_name'] }, required: true },
    { name: 'unit_id', label: 'Unit', kind: 'reference', ref: { entity: 'units', labelFields: ['name'] }, required: true },
    { name: 'start_date', label: 'Start Date', kind: 'date', required: true, defaultValue: 'today' },
    { name: 'end_date', label: 'End Date', kind: 'date' },
    { name: 'rate', label: 'Rate', kind: 'money', required: true },
    { name: 'rent_cycle', label: 'Rent Cycle', kind: 'enum', options: rentCycle, required: true, defaultValue: 'monthly' },
    { name: 'deposit_amount', label: 'Deposit Amount', kind: 'money' },
    { name: 'deposit_status', label: 'Deposit Status', kind: 'enum', options: depositStatus },
    {
      name: 'occupancy_status',
      label: 'Occupancy Status',
      kind: 'enum',
      options: occupancyStatus,
      required: true,
      defaultValue: 'active',
      chipColors: { active: 'success', terminated: 'default', renewed: 'info' },
    },
    { name: 'notice_period_days', label: 'Notice Period (days)', kind: 'integer' },
    { name: 'utilities_included', label: 'Utilities Included', kind: 'boolean', defaultValue: false },
    { name: 'is_active', label: 'Active', kind: 'boolean', defaultValue: true },
    { name: 'lease_doc', label: 'Lease Document', kind: 'file', fullWidth: true },
    { name: 'lease_doc_name', label: 'Lease Document Name', kind: 'text', form: false },
    { name: 'has_lease_doc', label: 'Has lease document', kind: 'boolean', readOnly: true },
    { name: 'tenant_first_name', label: 'Tenant First Name', kind: 'text', readOnly: true },
    { name: 'tenant_last_name', label: 'Tenant Last Name', kind: 'text', readOnly: true },
    { name: 'tenant_name', label: 'Tenant', kind: 'text', readOnly: true },
    { name: 'unit_name', label: 'Unit', kind: 'text', readOnly: true },
    { name: 'version', label: 'Version', kind: 'integer', readOnly: true },
  ],
  shape: {
    tenant_id: refId(),
    unit_id: refId(),
    start_date: isoDate(),
    end_date: optionalIsoDate(),
    rate: positiveNumber(),
    rent_cycle: oneOf(rentCycle.values).default('monthly'),
    deposit_amount: optionalNonNegative(),
    deposit_status: optionalOneOf(depositStatus.values),
    occupancy_status: oneOf(occupancyStatus.values).default('active'),
    notice_period_days: optionalInteger('Must be a positive number >= 0.', 3650),
    utilities_included: bool(false),
    is_active: bool(true),
    lease_doc: z.union([z.string().max(7_100_000, 'The lease document must be at most 5 MB.'), z.null()]).optional(),
    lease_doc_name: optionalText(255),
  },
  check: (v) =>
    typeof v.end_date === 'string' && typeof v.start_date === 'string' && v.end_date < v.start_date
      ? { field: 'end_date', message: 'End date must be after start date.' }
      : undefined,
  columns: [
    { field: 'tenant_name', label: 'Tenant', sortable: true },
    { field: 'unit_name', label: 'Unit', sortable: true },
    { field: 'start_date', label: 'Start Date', kind: 'date', sortable: true },
    { field: 'end_date', label: 'End Date', kind: 'date', sortable: true },
    { field: 'rate', label: 'Rate', kind: 'money', sortable: true },
    { field: 'rent_cycle', label: 'Rent Cycle', kind: 'enum', sortable: true },
    { field: 'occupancy_status', label: 'Occupancy Status', kind: 'enum', sortable: true },
  ],
  search: ['tenant_name', 'unit_name', 'start_date', 'end_date'],
  sort: ['id', 'tenant_name', 'unit_name', 'start_date', 'end_date', 'rate', 'rent_cycle', 'occupancy_status', 'created_at'],
  access: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  ui: {
    route: '/occupancy',
    title: 'Occupancy Records',
    searchLabel: 'Search Occupancy (Tenant, Unit, Dates)',
    emptyText: 'No occupancy records available or match your search.',
    dialogWidth: 700,
    formTitle: { create: 'New Occupancy Record', edit: 'Edit Occupancy Record' },
    detailsTitle: 'Occupant Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete the occupancy record of ${String(row.tenant_name ?? '')} in ${String(row.unit_name ?? '')}?`,
    messages: {
      ...standardMessages('Occupancy record', 'occupancy records'),
      saveFailed: 'Could not save record.',
      deleteFailed: 'Could not delete record.',
      detailsFailed: 'Failed to load tenant/unit data for form.',
    },
    errorPrefix: true,
    timeouts: { success: 3000, error: 5000, saveError: 5000, deleteError: 5000 },
  },
});
