import { adminMaintained, defineEntity, plainColumns, sortableColumns } from '../entity.ts';
import { languageOption } from '../enums.ts';
import { bool, field, LETTER_CODE, oneOf, optionalEmail, optionalText, text } from '../fields.ts';
import { adminPages, shown } from './ui-texts.ts';
import { CURRENCY_CODE_MESSAGE } from './currencies.ts';
import { COUNTRY_CODE_MESSAGE } from './countries.ts';

export const companies = defineEntity({
  name: 'companies',
  page: { drawer: { section: 'Administration', order: 20, audience: ['admin'] } },
  fields: [
    field.text('name', 'Name', { required: true }),
    field.email('email', 'Email'),
    field.phone('phone_number', 'Phone Number'),
    field.text('website', 'Website'),
    field.text('address', 'Address', { fullWidth: true }),
    field.text('industry_type', 'Industry Type'),
    field.text('currency_code', 'Currency Code', { helperText: 'e.g. UGX' }),
    field.text('country_code', 'Country Code', {
      helperText: 'e.g. UGA: phone numbers without +code are read as its numbers',
    }),
    field.boolean('status', 'Active', { defaultValue: true }),
    // issue 30: the language of its tenants and owners who have none of their own
    field.enum('default_language', 'Default Language', languageOption, {
      defaultValue: 'en',
      nullable: false,
    }),
    field.textarea('description', 'Description', { fullWidth: true }),
  ],
  shape: () => ({
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
    country_code: optionalText(3, COUNTRY_CODE_MESSAGE).refine(
      (v) => v === undefined || v === null || LETTER_CODE.test(v),
      COUNTRY_CODE_MESSAGE,
    ),
    status: bool(true),
    default_language: oneOf(languageOption.values).default('en'),
    description: optionalText(5000, 'Maximum 5000 characters.'),
  }),
  scope: 'global',
  access: adminMaintained,
  columns: [
    ...sortableColumns('name', 'email'),
    ...plainColumns('phone_number', 'website'),
    ...sortableColumns('industry_type'),
    { field: 'currency_code', label: 'Currency', sortable: true },
    { field: 'status', label: 'Status', sortable: true },
  ],
  search: ['name', 'email', 'phone_number', 'industry_type'],
  ...adminPages('Company', 'companies', {
    editDeleteShownToAll: true,
    searchLabel: 'Search Companies (Name, Email, Phone, Industry)',
    deleteConfirm: (row) => `Are you sure you want to delete company: ${shown(row.name)}?`,
    expandField: 'description',
    expandEmpty: 'No description provided.',
  }),
});
