import { z } from 'zod';
import { defineEntity, editorMaintained, plainColumns, sortableColumns } from '../entity.ts';
import { operators } from '../navigation.ts';
import { languageOption, sex, tenantStatus } from '../enums.ts';
import {
  externalRef,
  field,
  isoDate,
  nameFields,
  oneOf,
  optionalEmail,
  optionalOneOf,
  optionalText,
  bool,
  text,
} from '../fields.ts';
import { todayIso } from '../dates.ts';
import { corePages } from './ui-texts.ts';

/**
 * The spec's phone format ('Invalid phone number format.'): an optional plus, then 3 digits, 3 digits
 * and 4 to 6 digits, with a space, dot or dash allowed between any two digits, so written the way
 * people write them: '0772 123 456', '0772123456', '+256 772 123 456', '256-772-123-456'. Its 15
 * characters at most are the number's, separators left out (the E.164 form the server saves, at most
 * 13). Whether the number is one of its country's is the server's check (apps/server/src/lib/phones.ts),
 * which knows the company's country.
 */
export const PHONE_PATTERN = /^\+?\d(?:[\s.-]?\d){9,11}$/;

/** A required phone in the spec's format (`PHONE_PATTERN`); the longest such text is 24 characters. */
export const phoneText = () =>
  text(24, 'Invalid phone number format.').refine(
    (v) => PHONE_PATTERN.test(v),
    'Invalid phone number format.',
  );
export const COUNTRY_CODE_PATTERN = /^\+\d{1,3}$/;

export const tenants = defineEntity({
  name: 'tenants',
  page: { drawer: { section: 'Operations', order: 20, audience: operators } },
  fields: [
    ...nameFields(),
    field.enum('sex', 'Sex', sex, { required: true }),
    field.text('country_code', 'Country Code', { helperText: 'e.g. +256' }),
    field.phone('phone', 'Phone', { required: true }),
    field.email('email', 'Email'),
    field.date('date_of_birth', 'Date of Birth', { required: true }),
    field.text('id_or_passport_number', 'ID or Passport Number'),
    field.text('emergency_contact_name', 'Emergency Contact Name'),
    field.phone('emergency_contact_phone', 'Emergency Contact Phone'),
    field.status('status', 'Status', tenantStatus, { active: 'success', inactive: 'default' }, 'active'),
    field.boolean('notify_email', 'Notify by E-mail', { defaultValue: true }),
    field.boolean('notify_sms', 'Notify by SMS', { defaultValue: true }),
    // issue 29: WhatsApp only when the tenant agreed (Meta's opt-in rule): off until it is ticked
    field.boolean('notify_whatsapp', 'Notify by WhatsApp', { defaultValue: false }),
    // issue 30: the portal's, the messages' and the PDFs' language; empty: the company's default
    field.enum('language', 'Language', languageOption),
    externalRef.field(),
    field.readOnly('full_name', 'Full Name'),
    // the tenant's portal account (issue 19): none, invited, active or disabled
    field.readOnly('portal_status', 'Portal'),
    // issue 26: the units the tenant rents (its letting leases: 'A3, Kololo Heights') and what it owes
    // on all its leases (their kept receivables); read for a page's rows, not sortable
    field.readOnly('current_unit', 'Unit'),
    field.readOnly('balance', 'Balance', 'money'),
  ],
  shape: () =>
    ({
      first_name: text(255, 'Max 255 characters.'),
      last_name: text(255, 'Max 255 characters.'),
      sex: oneOf(sex.values, { keepCase: 'upper' }),
      country_code: optionalText(4, 'Invalid country code (e.g. +256).').refine(
        (v) => v === undefined || v === null || COUNTRY_CODE_PATTERN.test(v),
        'Invalid country code (e.g. +256).',
      ),
      phone: phoneText(),
      email: optionalEmail(),
      date_of_birth: isoDate().refine((v) => v < todayIso(), 'Date of birth must be in the past.'),
      id_or_passport_number: optionalText(100),
      emergency_contact_name: optionalText(255),
      emergency_contact_phone: optionalText(50),
      status: oneOf(tenantStatus.values).default('active'),
      notify_email: bool(true),
      notify_sms: bool(true),
      notify_whatsapp: bool(false),
      language: optionalOneOf(languageOption.values),
      external_ref: externalRef.rule(),
    }) satisfies z.ZodRawShape,
  scope: 'company',
  access: editorMaintained,
  // the unit and balance early: a phone's cards show the first five columns (issue 26)
  columns: [
    ...sortableColumns('first_name', 'last_name'),
    ...plainColumns('current_unit', 'balance', 'phone'),
    ...sortableColumns('sex'),
    ...plainColumns('country_code'),
  ],
  search: ['full_name', 'phone'],
  alsoSortable: ['status'],
  import: {
    order: 30,
    synonyms: {
      first_name: ['First', 'Given name', 'Forename'],
      last_name: ['Last', 'Surname', 'Family name'],
      sex: ['Gender'],
      phone: ['Phone number', 'Mobile', 'Mobile number', 'Telephone', 'Tel'],
      email: ['E-mail', 'Email address'],
      date_of_birth: ['DOB', 'Birth date', 'Birthday'],
      id_or_passport_number: ['ID number', 'National ID', 'Passport', 'Passport number'],
      emergency_contact_name: ['Emergency contact', 'Next of kin'],
      emergency_contact_phone: ['Emergency phone', 'Next of kin phone'],
      full_name: ['Tenant name', 'Name', 'Tenant', 'Names', 'Full names', 'Tenant names'],
    },
    // a lease's or payment's 'Tenant' column may give the tenant's phone
    matchBy: ['phone'],
    // one column of whole names: the last word the last name, the words before it the first name
    columns: [field.text('full_name', 'Full name')],
  },
  ...corePages('Tenant', 'tenants', {
    title: 'Tenants Management',
    searchLabel: 'Search Tenants (Name, Phone)',
    deleteConfirm: (row) =>
      `Are you sure you want to delete tenant: ${String(row.first_name ?? '')} ${String(row.last_name ?? '')}?`,
    errorPrefix: true,
    timeouts: { success: 3000, error: 5000, saveError: 5000, deleteError: 5000 },
  }),
});
