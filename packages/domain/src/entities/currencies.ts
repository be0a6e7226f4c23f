import { adminMaintained, defineEntity, plainColumns, sortableColumns } from '../entity.ts';
import { field, integerBetween, letterCode, optionalText, text } from '../fields.ts';
import { referencePages, shown } from './ui-texts.ts';
import { COUNTRY_CODE_MESSAGE } from './countries.ts';

export const CURRENCY_CODE_MESSAGE = 'Currency code must be exactly 3 uppercase letters.';
export const DECIMAL_PLACES_MESSAGE = 'Decimal places must be an integer between 0 and 10.';

export const currencies = defineEntity({
  name: 'currencies',
  page: { drawer: { section: 'References', order: 20, audience: ['admin'] } },
  fields: [
    field.text('currency_code', 'Currency Code', { required: true, helperText: 'e.g. UGX' }),
    field.text('currency_name', 'Currency Name', { required: true }),
    field.text('symbol', 'Symbol', { required: true }),
    field.integer('decimal_places', 'Decimal Places', { required: true, defaultValue: 2 }),
    // a currency of a monetary union (EUR, XOF) has no country of its own: answered null
    field.text('country', 'Country', {
      required: true,
      nullable: true,
      helperText: 'Country code, e.g. UGA',
    }),
    field.textarea('notes', 'Notes', { fullWidth: true }),
  ],
  shape: () => ({
    currency_code: letterCode(CURRENCY_CODE_MESSAGE),
    currency_name: text(255),
    symbol: text(10),
    decimal_places: integerBetween(0, 10, DECIMAL_PLACES_MESSAGE).default(2),
    country: letterCode(COUNTRY_CODE_MESSAGE),
    notes: optionalText(1000),
  }),
  scope: 'global',
  access: adminMaintained,
  columns: [
    ...sortableColumns('currency_code', 'currency_name'),
    ...plainColumns('symbol'),
    ...sortableColumns('decimal_places', 'country'),
  ],
  search: ['currency_name', 'currency_code', 'country'],
  ...referencePages('Currency', 'currencies', {
    searchLabel: 'Search Currencies (Name, Code, Country)',
    deleteConfirm: (row) =>
      `Are you sure you want to delete currency: ${shown(row.currency_name)} (${shown(row.currency_code)})?`,
  }),
});
