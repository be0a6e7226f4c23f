import { defineEntity } from '../entity.ts';
import { bool, LETTER_CODE, optionalEmail, optionalText, text } from '../fields.ts';
import { adminSnackbar, shown } from './admin-ui.ts';
import { CURRENCY_CODE_MESSAGE } from './currencies.ts';

export const companies = defineEntity({
  name: 'companies',
  singular: 'Company',
  scope: 'global',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'email', label: 'Email', kind: 'email' },
    { name: 'phone_number', label: 'Phone Number', kind: 'phone' },
    { name: 'website', label: 'Website', kind: 'text' },
    { name: 'address', label: 'Address', kind: 'text', fullWidth: true },
    { name: 'industry_type', label: 'Industry Type', kind: 'text' },
    { name: 'currency_code', label: 'Currency Code', kind: 'text', helperText: 'e.g. UGX' },
    { name: 'status', label: 'Active', kind: 'boolean', defaultValue: true },
    { name: 'description', label: 'Description', kind: 'textarea', fullWidth: true },
  ],
  shape: {
    name: text(255),
    email: optionalEmail(),
    phone_number: optionalText(50),
    website: optionalText(255),
    address: optionalText(2000),
    industry_type: optionalText(255),
    currency_code: optionalText(3, CURRENCY_CODE_MESSAGE).refine(
      (v) => v === undefined || v === null || LETTER_CODE.test(v),
      CURRENCY_CODE_MESSAGE,
    ),
    status: bool(true),
    description: optionalText(5000, 'Maximum 5000 characters.'),
  },
  columns: [
    { field: 'name', label: 'Name', sortable: true },
    { field: 'email', label: 'Email', sortable: true },
    { field: 'phone_number', label: 'Phone Number' },
    { field: 'website', label: 'Website' },
    { field: 'industry_type', label: 'Industry Type', sortable: true },
    { field: 'currency_code', label: 'Currency', sortable: true },
    { field: 'status', label: 'Status', kind: 'boolean', sortable: true },
  ],
  search: ['name', 'email', 'phone_number', 'industry_type'],
  sort: ['id', 'name', 'email', 'industry_type', 'currency_code', 'status', 'created_at'],
  access: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  ui: {
    route: '/companies',
    editDeleteShownToAll: true,
    title: 'Companies',
    searchLabel: 'Search Companies (Name, Email, Phone, Industry)',
    emptyText: 'No companies available or match your search.',
    dialogWidth: 600,
    formTitle: { create: 'New Company', edit: 'Edit Company' },
    detailsTitle: 'Company Details',
    deleteConfirm: (row) => `Are you sure you want to delete company: ${shown(row.name)}?`,
    ...adminSnackbar('Company', 'companies'),
    expandField: 'description',
    expandEmpty: 'No description provided.',
  },
});
