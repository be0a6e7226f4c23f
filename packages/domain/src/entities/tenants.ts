import { z } from 'zod';
import { defineEntity, standardMessages } from '../entity.ts';
import { sex, tenantStatus } from '../enums.ts';
import { isoDate, oneOf, optionalEmail, optionalText, text } from '../fields.ts';
import { todayIso } from '../dates.ts';

export const PHONE_PATTERN = /^\+?\d{3}[\s.-]?\d{3}[\s.-]?\d{4,6}$/;
export const COUNTRY_CODE_PATTERN = /^\+\d{1,3}$/;

export const tenants = defineEntity({
  name: 'tenants',
  singular: 'Tenant',
  scope: 'company',
  fields: [
    { name: 'first_name', label: 'First Name', kind: 'text', required: true },
    { name: 'last_name', label: 'Last Name', kind: 'text', required: true },
    { name: 'sex', label: 'Sex', kind: 'enum', options: sex, required: true },
    { name: 'country_code', label: 'Country Code', kind: 'text', helperText: 'e.g. +256' },
    { name: 'phone', label: 'Phone', kind: 'phone', required: true },
    { name: 'email', label: 'Email', kind: 'email' },
    { name: 'date_of_birth', label: 'Date of Birth', kind: 'date', required: true },
    { name: 'id_or_passport_number', label: 'ID or Passport Number', kind: 'text' },
    { name: 'emergency_contact_name', label: 'Emergency Contact Name', kind: 'text' },
    { name: 'emergency_contact_phone', label: 'Emergency Contact Phone', kind: 'phone' },
    {
      name: 'status',
      label: 'Status',
      kind: 'enum',
      options: tenantStatus,
      required: true,
      defaultValue: 'active',
      chipColors: { active: 'success', inactive: 'default' },
    },
    { name: 'full_name', label: 'Full Name', kind: 'text', readOnly: true },
  ],
  shape: {
    first_name: text(255, 'Max 255 characters.'),
    last_name: text(255, 'Max 255 characters.'),
    sex: oneOf(sex.values, { keepCase: 'upper' }),
    country_code: optionalText(4, 'Invalid country code (e.g. +256).').refine(
      (v) => v === undefined || v === null || COUNTRY_CODE_PATTERN.test(v),
      'Invalid country code (e.g. +256).',
    ),
    phone: text(15, 'Invalid phone number format.').refine(
      (v) => PHONE_PATTERN.test(v),
      'Invalid phone number format.',
    ),
    email: optionalEmail(),
    date_of_birth: isoDate().refine((v) => v < todayIso(), 'Date of birth must be in the past.'),
    id_or_passport_number: optionalText(100),
    emergency_contact_name: optionalText(255),
    emergency_contact_phone: optionalText(50),
    status: oneOf(tenantStatus.values).default('active'),
  } satisfies z.ZodRawShape,
  columns: [
    { field: 'first_name', label: 'First Name', sortable: true },
    { field: 'last_name', label: 'Last Name', sortable: true },
    { field: 'sex', label: 'Sex', kind: 'enum', sortable: true },
    { field: 'country_code', label: 'Country Code' },
    { field: 'phone', label: 'Phone' },
  ],
  search: ['first_name', 'last_name', 'full_name', 'phone'],
  sort: ['id', 'first_name', 'last_name', 'sex', 'status', 'created_at'],
  access: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  ui: {
    route: '/tenants',
    title: 'Tenants Management',
    searchLabel: 'Search Tenants (Name, Phone)',
    emptyText: 'No tenants available or match your search.',
    dialogWidth: 600,
    formTitle: { create: 'New Tenant', edit: 'Edit Tenant' },
    detailsTitle: 'Tenant Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete tenant: ${String(row.first_name ?? '')} ${String(row.last_name ?? '')}?`,
    messages: standardMessages('Tenant', 'tenants'),
    errorPrefix: true,
    timeouts: { success: 3000, error: 5000, saveError: 5000, deleteError: 5000 },
  },
});
