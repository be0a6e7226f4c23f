import { z } from 'zod';
import { defineEntity, plainColumns, sortableColumns } from '../entity.ts';
import { everyRole } from '../navigation.ts';
import { languageOption, payoutMethod } from '../enums.ts';
import { externalRef, field, optionalEmail, optionalOneOf, optionalText } from '../fields.ts';
import { PHONE_PATTERN } from './tenants.ts';
import { adminPages, shown } from './ui-texts.ts';

/** The message when an owner is neither a person nor a company. */
export const OWNER_NAME_MESSAGE = "Enter the owner's first and last name, or a company name.";

/**
 * An owner of properties the company manages for them (issue 27): a person (first and last name) or
 * a company (its name), how to reach them and how they are paid out. Its shares of properties and
 * each property's management agreement are the property's (`GET/PUT /properties/{id}/owners`,
 * `/agreement`). The owners' money, statements and payouts come with the next slice.
 */
export const owners = defineEntity({
  name: 'owners',
  page: { drawer: { section: 'Operations', order: 7, audience: everyRole } },
  fields: [
    field.text('first_name', 'First Name'),
    field.text('last_name', 'Last Name'),
    field.text('company_name', 'Company Name', { helperText: 'For an owner that is a company' }),
    field.phone('phone', 'Phone'),
    field.email('email', 'Email'),
    field.text('tax_id', 'Tax ID', { helperText: 'e.g. TIN or KRA PIN' }),
    field.enum('payout_method', 'Payout Method', payoutMethod),
    field.text('payout_account_name', 'Payout Account Name'),
    field.text('payout_account_number', 'Payout Account Number'),
    field.text('payout_bank', 'Bank or Provider'),
    // issue 30: the owner portal's, the statements' and the messages' language; empty: the company's
    field.enum('language', 'Language', languageOption),
    field.textarea('notes', 'Notes', { fullWidth: true }),
    externalRef.field(),
    // the company's name, else the person's: kept by PostgreSQL with the row
    field.readOnly('display_name', 'Name'),
    // the owner's portal account (issue 27): none, invited, active or disabled
    field.readOnly('portal_status', 'Portal'),
  ],
  shape: () =>
    ({
      first_name: optionalText(255),
      last_name: optionalText(255),
      company_name: optionalText(255),
      phone: optionalText(24, 'Invalid phone number format.').refine(
        (v) => v === undefined || v === null || PHONE_PATTERN.test(v),
        'Invalid phone number format.',
      ),
      email: optionalEmail(),
      tax_id: optionalText(50),
      payout_method: optionalOneOf(payoutMethod.values),
      payout_account_name: optionalText(255),
      payout_account_number: optionalText(50),
      payout_bank: optionalText(255),
      language: optionalOneOf(languageOption.values),
      notes: optionalText(5000),
      external_ref: externalRef.rule(),
    }) satisfies z.ZodRawShape,
  // a person or a company: a company's name, or a person's first and last names
  check: (v) => {
    if (v.company_name) return undefined;
    if (v.first_name && v.last_name) return undefined;
    const field = v.first_name ? 'last_name' : v.last_name ? 'first_name' : 'company_name';
    return { field, message: OWNER_NAME_MESSAGE };
  },
  scope: 'company',
  // their payout accounts are money matters: admins and company admins keep them (docs/decisions.md)
  access: { read: 'anyRole', create: 'companyAdmin', update: 'companyAdmin', delete: 'admin' },
  columns: [...sortableColumns('display_name', 'payout_method'), ...plainColumns('phone', 'email')],
  search: ['display_name', 'phone', 'email', 'tax_id'],
  import: {
    order: 15,
    synonyms: {
      company_name: ['Company', 'Owner company', 'Business name'],
      phone: ['Phone number', 'Mobile', 'Mobile number', 'Telephone', 'Tel'],
      email: ['E-mail', 'Email address'],
      tax_id: ['TIN', 'Tax number', 'PIN', 'KRA PIN'],
      payout_account_number: ['Account number', 'Account no'],
      payout_account_name: ['Account name'],
      payout_bank: ['Bank', 'Provider'],
    },
  },
  ...adminPages('Owner', 'owners', {
    searchLabel: 'Search Owners (Name, Phone, E-mail, Tax ID)',
    dialogWidth: 750,
    deleteConfirm: (row) => `Are you sure you want to delete owner: ${shown(row.display_name)}?`,
  }),
});
