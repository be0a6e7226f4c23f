import { z } from 'zod';
import { defineEntity } from '../entity.ts';
import { letterCode, text } from '../fields.ts';
import { referenceSnackbar, shown } from './admin-ui.ts';

export const COUNTRY_CODE_MESSAGE = 'Country code must be exactly 3 uppercase letters.';
export const PHONE_CODE_MESSAGE = 'Phone code must contain only digits (1-10 characters).';

export const countries = defineEntity({
  name: 'countries',
  singular: 'Country',
  scope: 'global',
  fields: [
    { name: 'country_code', label: 'Country Code', kind: 'text', required: true, helperText: 'e.g. UGA' },
    { name: 'country_name', label: 'Country Name', kind: 'text', required: true },
    {
      name: 'phone_code',
      label: 'Phone Code',
      kind: 'integer',
      required: true,
      helperText: 'Digits only, e.g. 256',
    },
  ],
  shape: {
    country_code: letterCode(COUNTRY_CODE_MESSAGE),
    country_name: text(255),
    // Digits only (a number is taken as its digits); stored and answered as an integer (02-admin §5).
    phone_code: z
      .preprocess((v) => (typeof v === 'number' ? String(v) : v), text(10, PHONE_CODE_MESSAGE))
      .refine((v) => /^\d{1,10}$/.test(v), PHONE_CODE_MESSAGE)
      .transform(Number)
      .pipe(z.number().max(2147483647, 'The number is too large.')),
  },
  // 02-admin §2 lists these columns, then Actions.
  columns: [
    { field: 'country_code', label: 'Country Code', sortable: true },
    { field: 'country_name', label: 'Country Name', sortable: true },
    { field: 'phone_code', label: 'Phone Code', kind: 'integer', sortable: true },
  ],
  search: ['country_name', 'country_code'],
  sort: ['id', 'country_code', 'country_name', 'phone_code', 'created_at'],
  access: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  ui: {
    route: '/countries',
    title: 'Countries',
    searchLabel: 'Search Countries (Name, Code)',
    emptyText: 'No countries available or match your search.',
    dialogWidth: 600,
    formTitle: { create: 'New Country', edit: 'Edit Country' },
    detailsTitle: 'Country Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete country: ${shown(row.country_name)} (${shown(row.country_code)})?`,
    ...referenceSnackbar('Country', 'countries'),
  },
});
