import { z } from 'zod';
import { defineEntity, editorMaintained, sortableColumns } from '../entity.ts';
import { operators } from '../navigation.ts';
import { depositStatus, occupancyStatus, rentCycle, sex } from '../enums.ts';
import {
  bool,
  endNotBeforeStart,
  externalRef,
  field,
  isoDate,
  oneOf,
  optionalInteger,
  optionalIsoDate,
  optionalNonNegative,
  optionalOneOf,
  optionalSignedAmount,
  optionalText,
  positiveNumber,
  tenantInUnit,
} from '../fields.ts';
import { corePages } from './ui-texts.ts';

export const MAX_LEASE_DOC_BYTES = 5 * 1024 * 1024;

export const ACCOUNT_REFERENCE_MESSAGE = 'Use 1 to 20 letters, digits or dashes.';

/**
 * A lease's account number (issue 29): what a tenant types as the account of a paybill or mobile-money
 * payment, unique in the company regardless of case; stored upper-case. Empty: the server makes one
 * from the unit's name.
 */
const accountReference = () =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim().toUpperCase()) : v),
      z
        .string()
        .regex(/^[A-Z0-9][A-Z0-9-]{0,19}$/, ACCOUNT_REFERENCE_MESSAGE)
        .nullable(),
    )
    .optional();

const ESCALATION_MESSAGE = 'Escalation must be a percentage from 0 to 100.';
const EVERY_MESSAGE = 'Must be a whole number of months from 1 to 120.';

/** An escalation rule has both its percentage and its period, or neither. */
const escalationComplete = (v: Record<string, unknown>): { field: string; message: string } | undefined => {
  if (!('escalation_percent' in v) || !('escalation_every_months' in v)) return undefined;
  const percent = v.escalation_percent;
  const every = v.escalation_every_months;
  const hasPercent = typeof percent === 'number' && percent > 0;
  const hasEvery = typeof every === 'number' && every > 0;
  if (hasPercent && !hasEvery) return { field: 'escalation_every_months', message: EVERY_MESSAGE };
  if (hasEvery && !hasPercent) return { field: 'escalation_percent', message: ESCALATION_MESSAGE };
  return undefined;
};

export const OPENING_DATE_REQUIRED = 'The opening balance date is required with an opening balance.';
export const OPENING_DATE_BEFORE_START = 'The opening balance date must be on or after the start date.';
export const OPENING_DATE_IN_FUTURE = 'The opening balance date cannot be in the future.';

/**
 * An opening balance has its date (what was owed when); the date is on or after the start date. (Not
 * in the future: the server checks it against the company's today, `openingDateProblem`.)
 */
const openingComplete = (v: Record<string, unknown>): { field: string; message: string } | undefined => {
  const balance = v.opening_balance;
  const date = v.opening_balance_date;
  const hasBalance = typeof balance === 'number' && balance !== 0;
  if (hasBalance && (typeof date !== 'string' || date === ''))
    return { field: 'opening_balance_date', message: OPENING_DATE_REQUIRED };
  if (typeof date === 'string' && typeof v.start_date === 'string' && date < v.start_date)
    return { field: 'opening_balance_date', message: OPENING_DATE_BEFORE_START };
  return undefined;
};

/** The opening balance date's problem on the company's `today`, if any (the server's check). */
export const openingDateProblem = (
  v: Record<string, unknown>,
  today: string,
): { field: string; message: string } | undefined => {
  const date = v.opening_balance_date;
  return typeof date === 'string' && date > today
    ? { field: 'opening_balance_date', message: OPENING_DATE_IN_FUTURE }
    : undefined;
};

/** The chip colour of each status in the list. */
const statusChips = { active: 'success', terminated: 'default', renewed: 'info' } as const;

export const occupancy = defineEntity({
  name: 'occupancy',
  page: { drawer: { section: 'Operations', order: 30, audience: operators } },
  fields: [
    ...tenantInUnit.refs(),
    field.date('start_date', 'Start Date', { required: true, defaultValue: 'today' }),
    field.date('end_date', 'End Date'),
    field.money('rate', 'Rate', { required: true }),
    field.text('account_reference', 'Account Number', {
      helperText:
        'What the tenant gives as the account when paying by paybill or mobile money; made from the unit when left empty.',
    }),
    field.enum('rent_cycle', 'Rent Cycle', rentCycle, { required: true, defaultValue: 'monthly' }),
    field.money('opening_balance', 'Opening Balance', {
      helperText: 'What the tenant owed on the opening balance date (negative: a credit).',
    }),
    field.date('opening_balance_date', 'Opening Balance Date', {
      helperText: 'No rent is charged for periods due on or before this date.',
    }),
    field.money('deposit_amount', 'Deposit Amount'),
    field.enum('deposit_status', 'Deposit Status', depositStatus),
    field.boolean('late_fee_exempt', 'Exempt from Late Fees', { defaultValue: false }),
    field.percent('escalation_percent', 'Rent Escalation %', {
      helperText: 'The rate grows by this much every period below (the daily run adds the rate changes).',
    }),
    field.integer('escalation_every_months', 'Escalation Every (months)'),
    field.status('occupancy_status', 'Occupancy Status', occupancyStatus, statusChips, 'active'),
    field.integer('notice_period_days', 'Notice Period (days)'),
    field.boolean('utilities_included', 'Utilities Included', { defaultValue: false }),
    field.boolean('is_active', 'Active', { defaultValue: true }),
    field.file('lease_doc', 'Lease Document', { fullWidth: true }),
    field.text('lease_doc_name', 'Lease Document Name', { form: false }),
    field.readOnly('has_lease_doc', 'Has lease document', 'boolean'),
    ...tenantInUnit.names(),
    externalRef.field(),
  ],
  shape: () => ({
    ...tenantInUnit.ids(),
    start_date: isoDate(),
    end_date: optionalIsoDate(),
    rate: positiveNumber(),
    account_reference: accountReference(),
    rent_cycle: oneOf(rentCycle.values).default('monthly'),
    opening_balance: optionalSignedAmount(),
    opening_balance_date: optionalIsoDate(),
    deposit_amount: optionalNonNegative(),
    deposit_status: optionalOneOf(depositStatus.values),
    late_fee_exempt: bool(false),
    escalation_percent: optionalNonNegative(ESCALATION_MESSAGE, 100, ESCALATION_MESSAGE),
    escalation_every_months: optionalInteger(EVERY_MESSAGE, 120),
    occupancy_status: oneOf(occupancyStatus.values).default('active'),
    notice_period_days: optionalInteger('Must be a positive number >= 0.', 3650),
    utilities_included: bool(false),
    is_active: bool(true),
    lease_doc: z
      .union([z.string().max(7_100_000, 'The lease document must be at most 5 MB.'), z.null()])
      .optional(),
    lease_doc_name: optionalText(255),
    external_ref: externalRef.rule(),
  }),
  check: (v) => endNotBeforeStart('start_date', 'end_date')(v) ?? escalationComplete(v) ?? openingComplete(v),
  scope: 'company',
  byProperty: true,
  access: editorMaintained,
  columns: [
    ...sortableColumns('tenant_name', 'unit_name'),
    ...sortableColumns('start_date', 'end_date', 'rate', 'rent_cycle', 'occupancy_status'),
  ],
  search: ['tenant_name', 'unit_name', 'start_date', 'end_date'],
  import: {
    order: 40,
    synonyms: {
      tenant_id: ['Tenant name', 'Occupant', 'Full name', 'Name'],
      unit_id: ['Unit name', 'Unit no', 'Unit number'],
      start_date: ['Start', 'Lease start', 'Move in', 'Move-in date', 'From'],
      end_date: ['End', 'Lease end', 'Move out', 'Move-out date', 'To'],
      rate: ['Rent', 'Monthly rent', 'Rent amount'],
      rent_cycle: ['Cycle', 'Billing cycle'],
      account_reference: ['Account', 'Account number', 'Account no', 'Paybill account', 'Account reference'],
      deposit_amount: ['Deposit'],
      occupancy_status: ['Status', 'Lease status'],
      notice_period_days: ['Notice', 'Notice period', 'Notice days'],
      opening_balance: ['Balance', 'Arrears', 'Balance owed', 'Amount owed', 'Owed'],
      opening_balance_date: ['Balance date', 'Balance as of', 'As of'],
      new_tenant_phone: [
        'Phone',
        'Phone number',
        'Tenant phone',
        'Mobile',
        'Mobile number',
        'Tel',
        'Telephone',
      ],
      new_tenant_sex: ['Sex', 'Gender'],
      new_tenant_date_of_birth: ['Date of birth', 'DOB', 'Birth date'],
      new_tenant_email: ['Email', 'E-mail', 'Email address'],
    },
    // a sheet of tenants with their leases (issue 26): a row whose tenant is not found creates it from
    // its name (the 'Tenant' column) and these columns
    columns: [
      field.phone('new_tenant_phone', "Tenant's phone"),
      field.enum('new_tenant_sex', "Tenant's sex", sex),
      field.date('new_tenant_date_of_birth', "Tenant's date of birth"),
      field.email('new_tenant_email', "Tenant's e-mail"),
    ],
  },
  ...corePages('Occupancy record', 'occupancy records', {
    searchLabel: 'Search Occupancy (Tenant, Unit, Dates)',
    dialogWidth: 700,
    detailsTitle: 'Occupant Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete the occupancy record of ${String(row.tenant_name ?? '')} in ${String(row.unit_name ?? '')}?`,
    messages: {
      saveFailed: 'Could not save record.',
      deleteFailed: 'Could not delete record.',
      detailsFailed: 'Failed to load tenant/unit data for form.',
    },
    errorPrefix: true,
    timeouts: { success: 3000, error: 5000, saveError: 5000, deleteError: 5000 },
  }),
});
