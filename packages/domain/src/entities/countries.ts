import { z } from 'zod';
import { adminMaintained, defineEntity, sortableColumns } from '../entity.ts';
import { everyRole } from '../navigation.ts';
import { field, letterCode, text } from '../fields.ts';
import { referencePages, shown } from './ui-texts.ts';

export const COUNTRY_CODE_MESSAGE = 'Country code must be exactly 3 uppercase letters.';
export const PHONE_CODE_MESSAGE = 'Phone code must contain only digits (1-10 characters).';

/** Digits only (a number is taken as its digits); stored and answered as an integer (02-admin §5). */
const phoneCode = z
  .preprocess((v) => (typeof v === 'number' ? String(v) : v), text(10, PHONE_CODE_MESSAGE))
  .refine((v) => /^\d{1,10}$/.test(v), PHONE_CODE_MESSAGE)
  .transform(Number)
  .pipe(z.number().max(2147483647, 'The number is too large.'));

export const countries = defineEntity({
  name: 'countries',
  // 02-admin §6 'Countries for all': every user holding a role.
  page: { drawer: { section: 'References', order: 10, audience: everyRole } },
  fields: [
    field.text('country_code', 'Country Code', { required: true, helperText: 'e.g. UGA' }),
    field.text('country_name', 'Country Name', { required: true }),
    field.integer('phone_code', 'Phone Code', { required: true, helperText: 'Digits only, e.g. 256' }),
  ],
  shape: () => ({
    country_code: letterCode(COUNTRY_CODE_MESSAGE),
    country_name: text(255),
    phone_code: phoneCode,
  }),
  scope: 'global',
  access: adminMaintained,
  // 02-admin §2 lists these columns, then Actions.
  columns: sortableColumns('country_code', 'country_name', 'phone_code'),
  search: ['country_name', 'country_code'],
  ...referencePages('Country', 'countries', {
    searchLabel: 'Search Countries (Name, Code)',
    deleteConfirm: (row) =>
      `Are you sure you want to delete country: ${shown(row.country_name)} (${shown(row.country_code)})?`,
  }),
});
