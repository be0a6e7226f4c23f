import { defineEntity } from '../entity.ts';
import { integerBetween, letterCode, optionalText, text } from '../fields.ts';
import { referenceSnackbar, shown } from './admin-ui.ts';
import { COUNTRY_CODE_MESSAGE } from './countries.ts';

export const CURRENCY_CODE_MESSAGE = 'Currency code must be exactly 3 uppercase letters.';
export const DECIMAL_PLACES_MESSAGE = 'Decimal places must be an integer between 0 and 10.';

export const currencies = defineEntity({
  name: 'currencies',
  singular: 'Currency',
  scope: 'global',
  fields: [
    { name: 'currency_code', label: 'Currency Code', kind: 'text', required: true, helperText: 'e.g. UGX' },
    { name: 'currency_name', label: 'Currency Name', kind: 'text', required: true },
    { name: 'symbol', label: 'Symbol', kind: 'text', required: true },
    { name: 'decimal_places', label: 'Decimal Places', kind: 'integer', required: true, defaultValue: 2 },
    { name: 'country', label: 'Country', kind: 'text', required: true, helperText: 'Country code, e.g. UGA' },
    { name: 'notes', label: 'Notes', kind: 'textarea', fullWidth: true },
  ],
  shape: {
    currency_code: letterCode(CURRENCY_CODE_MESSAGE),
    currency_name: text(255),
    symbol: text(10),
    decimal_places: integerBetween(0, 10, DECIMAL_PLACES_MESSAGE).default(2),
    country: letterCode(COUNTRY_CODE_MESSAGE),
    notes: optionalText(1000),
  },
  columns: [
    { field: 'currency_code', label: 'Currency Code', sortable: true },
    { field: 'currency_name', label: 'Currency Name', sortable: true },
    { field: 'symbol', label: 'Symbol' },
    { field: 'decimal_places', label: 'Decimal Places', kind: 'integer', sortable: true },
    { field: 'country', label: 'Country', sortable: true },
  ],
  search: ['currency_name', 'currency_code', 'country'],
  sort: ['id', 'currency_code', 'currency_name', 'decimal_places', 'country', 'created_at'],
  access: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  ui: {
    route: '/currencies',
    title: 'Currencies',
    searchLabel: 'Search Currencies (Name, Code, Country)',
    emptyText: 'No currencies available or match your search.',
    dialogWidth: 600,
    formTitle: { create: 'New Currency', edit: 'Edit Currency' },
    detailsTitle: 'Currency Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete currency: ${shown(row.currency_name)} (${shown(row.currency_code)})?`,
    ...referenceSnackbar('Currency', 'currencies'),
  },
});
