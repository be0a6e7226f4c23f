// Every status-like value of the spec (01-core §4, 02-admin §4 and §9), with its label.
import { LANGUAGES, languageNames } from './i18n/languages.ts';

/** 'in_progress' → 'In Progress'. */
const labelOf = (value: string) => value.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** An option list: its values, each labelled as `labels` says, or else by its words capitalized. */
const options = <const T extends readonly string[]>(
  values: T,
  labels: Partial<Record<T[number], string>> = {},
) => {
  const labelled = values.map((v: T[number]) => [v, labels[v] ?? labelOf(v)]);
  return { values, labels: Object.fromEntries(labelled) as Record<T[number], string> };
};

export const unitStatus = options(['available', 'occupied', 'maintenance']);
export const unitType = options(['apartment', 'house', 'studio', 'commercial']);
export const propertyType = options(['residential', 'commercial', 'mixed']);
export const tenantStatus = options(['active', 'inactive']);
/** A person's or a company's language (issue 30), each named in itself. */
export const languageOption = options(LANGUAGES, languageNames);
export const sex = options(['M', 'F', 'O'], { M: 'Male', F: 'Female', O: 'Other' });
export const occupancyStatus = options(['active', 'terminated', 'renewed']);
export const depositStatus = options(['held', 'returned', 'forfeited']);
export const rentCycle = options(['monthly', 'weekly', 'daily']);
export const paymentStatus = options(['pending', 'completed', 'failed', 'void']);
/** The statuses a payment is recorded with (`void` is reached only by voiding a completed one). */
export const recordedPaymentStatus = ['pending', 'completed', 'failed'] as const;
export const paymentMethod = options(['cash', 'check', 'banktransfer', 'creditcard', 'mobilemoney'], {
  banktransfer: 'Bank transfer',
  creditcard: 'Credit card',
  mobilemoney: 'Mobile money',
});
/** How an owner is paid out (issue 27). */
export const payoutMethod = options(['bank', 'mobilemoney', 'cash', 'check'], {
  bank: 'Bank transfer',
  mobilemoney: 'Mobile money',
});
/** How a management agreement's fee is reckoned (issue 27). */
export const feeKind = options(['percent_of_collected', 'fixed_monthly', 'per_occupied_unit'], {
  percent_of_collected: 'Percent of collected',
  fixed_monthly: 'Fixed monthly',
  per_occupied_unit: 'Per occupied unit',
});
export const requestStatus = options(['open', 'in_progress', 'closed']);
export const priority = options(['low', 'medium', 'high']);
export const expenseCategory = options(
  ['plumbing', 'fixes', 'fittings', 'electrical', 'cleaning', 'repairs', 'condo_fees', 'other'],
  { condo_fees: 'Condominium fees' },
);
export const employeeStatus = options(['active', 'inactive']);
export const wageCategory = options(['salary', 'commission']);
export const wageStatus = options(['paid', 'pending', 'voided']);

// The rent cycle (issue 17): charges beyond rent, late fees, reminders and messages.
export const chargeCategory = options(['utility', 'damage', 'other']);
export const lateFeeKind = options(['flat', 'percent']);
export const lateFeeRepeat = options(['once', 'weekly', 'monthly']);
export const reminderEvent = options(['before_due', 'due', 'overdue'], {
  before_due: 'Before the due date',
  due: 'On the due date',
  overdue: 'Overdue',
});
/**
 * The channels a message goes by (issue 29: WhatsApp beside e-mail and SMS): the one list the
 * reminders' rules, the receipts, the message log and the announcements take theirs from.
 */
export const messageChannel = options(['email', 'sms', 'whatsapp'], {
  email: 'E-mail',
  sms: 'SMS',
  whatsapp: 'WhatsApp',
});
export const messageChannels = messageChannel.values;
export type MessageChannel = (typeof messageChannels)[number];
/** The channels of Kodi's own message templates: a WhatsApp message's text is the template Meta approved. */
export const templateChannel = options(['email', 'sms'], { email: 'E-mail', sms: 'SMS' });
export type TemplateChannel = (typeof templateChannel.values)[number];
/** What WhatsApp's webhook reports of a message sent (its `statuses[].status`). */
export const deliveryStatus = options(['sent', 'delivered', 'read', 'failed']);
export type DeliveryStatus = (typeof deliveryStatus.values)[number];
export const messageStatus = options(['queued', 'sending', 'sent', 'failed', 'skipped']);
export const messageKind = options(
  [
    'reminder',
    'receipt',
    'test',
    'invitation',
    'sign_in_code',
    'maintenance_request',
    'owner_statement',
    'announcement',
  ],
  { sign_in_code: 'Sign-in code', maintenance_request: 'Repair request', owner_statement: 'Owner statement' },
);
/** What a message template is for: a reminder's event, or a receipt. */
export const templateKind = options(['before_due', 'due', 'overdue', 'receipt'], {
  before_due: 'Reminder before the due date',
  due: 'Reminder on the due date',
  overdue: 'Overdue reminder',
  receipt: 'Receipt',
});
/** What an audit entry records (the audit log, issue 20). */
export const auditAction = options(
  [
    'create',
    'update',
    'delete',
    'sign_in',
    'sign_in_failed',
    'access',
    'match',
    'ignore',
    'unmatch',
    'webhook',
    'import',
  ],
  {
    create: 'Created',
    update: 'Changed',
    delete: 'Deleted',
    sign_in: 'Signed in',
    sign_in_failed: 'Sign-in failed',
    access: 'Access changed',
    match: 'Matched',
    ignore: 'Ignored',
    unmatch: 'Unmatched',
    webhook: 'Webhook delivery',
    import: 'Imported',
  },
);

// Metered utilities (issue 28): meters, their tariffs and readings.
export const meterKind = options(['water', 'electricity', 'gas']);
export const meterUnit = options(['m3', 'kwh'], { m3: 'm³', kwh: 'kWh' });
/** A reading's place on the way to a bill: held back while flagged, ready once normal or confirmed. */
export const readingStatus = options(['flagged', 'ready', 'billed']);
/** Why a reading is held back: lower than the one before, or over three times the usual consumption. */
export const readingFlag = options(['lower', 'high'], {
  lower: 'Lower than the previous reading',
  high: 'Over 3× the usual consumption',
});
