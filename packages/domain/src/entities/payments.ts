import { z } from 'zod';
import { defineEntity, editorMaintained, plainColumns, sortableColumns } from '../entity.ts';
import { paymentMethod, paymentStatus, recordedPaymentStatus } from '../enums.ts';
import {
  endNotBeforeStart,
  externalRef,
  field,
  isoDate,
  oneOf,
  optionalOneOf,
  optionalRefId,
  optionalText,
  positiveNumber,
  tenantInUnit,
} from '../fields.ts';
import { corePages } from './ui-texts.ts';

export const NO_OCCUPANCY_MESSAGE = 'No matching occupancy found for this tenant and unit combination.';

/** `PAY-000001`, `RCT-000001`: per company, sequential, never reused. */
export const formatSerial = (prefix: 'PAY' | 'RCT', n: number) => `${prefix}-${String(n).padStart(6, '0')}`;

/** The chip colour of each status in the list. */
const statusChips = { completed: 'success', pending: 'warning', failed: 'error', void: 'default' } as const;

/** What a completed payment's receipt shows: they never change (void it and record a new one). */
export const RECEIPT_FIELDS = [
  'amount_paid',
  'payment_date',
  'tenant_id',
  'unit_id',
  'occupancy_id',
  'payment_method',
  'status',
] as const;

export const RECEIPT_ISSUED_MESSAGE = 'This payment has a receipt: void it and record a new one.';

/** `POST /payments/{id}/void`: why (required, at most 500 characters). */
export const voidPaymentBodySchema = z.object({
  reason: z
    .string({ error: 'Give the reason.' })
    .trim()
    .min(1, 'Give the reason.')
    .max(500, 'Maximum 500 characters.'),
});
export type VoidPaymentBody = z.infer<typeof voidPaymentBodySchema>;

export const payments = defineEntity({
  name: 'payments',
  page: { drawer: { section: 'Finance', order: 10, audience: ['admin', 'editor'] } },
  fields: [
    ...tenantInUnit.refs(),
    // the server picks the lease when none is sent; 'N/A' when no reference or invoice is given
    field.integer('occupancy_id', 'Occupancy', { form: false, nullable: false }),
    field.date('payment_date', 'Payment Date', { required: true, defaultValue: 'today' }),
    field.money('amount_paid', 'Amount Paid', { required: true }),
    field.enum('payment_method', 'Payment Method', paymentMethod),
    {
      ...field.status('status', 'Payment Status', paymentStatus, statusChips, 'completed'),
      formValues: recordedPaymentStatus,
    },
    field.date('effective_start_date', 'Effective Start Date', { required: true, defaultValue: 'today' }),
    field.date('effective_end_date', 'Effective End Date', { required: true }),
    field.text('reference_number', 'Payment Reference', { nullable: false }),
    field.text('invoice_id', 'Invoice ID', { nullable: false }),
    field.textarea('payment_details', 'Details', { fullWidth: true }),
    field.readOnly('payment_serial', 'Serial'),
    field.readOnly('receipt_number', 'Receipt No.'),
    // a voided payment: when, by whom and why (POST /payments/{id}/void)
    field.readOnly('voided_at', 'Voided At'),
    field.readOnly('voided_by', 'Voided By', 'integer'),
    field.readOnly('voided_by_name', 'Voided By'),
    field.readOnly('void_reason', 'Void Reason'),
    ...tenantInUnit.names('Unit Name'),
    externalRef.field(),
  ],
  shape: () => ({
    ...tenantInUnit.ids(),
    occupancy_id: optionalRefId(),
    payment_date: isoDate(),
    amount_paid: positiveNumber(),
    payment_method: optionalOneOf(paymentMethod.values),
    status: oneOf(paymentStatus.values).default('completed'),
    effective_start_date: isoDate(),
    effective_end_date: isoDate(),
    reference_number: optionalText(100),
    invoice_id: optionalText(100),
    payment_details: optionalText(2000),
    external_ref: externalRef.rule(),
  }),
  check: endNotBeforeStart('effective_start_date', 'effective_end_date'),
  scope: 'company',
  byProperty: true,
  access: editorMaintained,
  columns: [
    ...sortableColumns('payment_date', 'status', 'tenant_name', 'unit_name', 'amount_paid'),
    ...plainColumns('payment_details'),
    ...sortableColumns('reference_number', 'receipt_number'),
  ],
  search: ['payment_serial', 'receipt_number', 'tenant_name', 'unit_name', 'reference_number'],
  alsoSortable: ['payment_serial'],
  import: {
    order: 50,
    synonyms: {
      tenant_id: ['Tenant name', 'Tenant phone', 'Payer'],
      unit_id: ['Unit name', 'Unit no', 'Unit number'],
      payment_date: ['Date', 'Paid on', 'Date paid'],
      amount_paid: ['Amount', 'Paid', 'Rent', 'Rent paid'],
      payment_method: ['Method', 'Paid by', 'Payment mode'],
      status: ['Status'],
      effective_start_date: ['Period start', 'From', 'Start'],
      effective_end_date: ['Period end', 'To', 'End'],
      reference_number: ['Reference', 'Ref no', 'Transaction ID'],
      invoice_id: ['Invoice', 'Invoice no', 'Invoice number'],
      payment_details: ['Notes', 'Description'],
    },
  },
  ...corePages('Payment record', 'payments', {
    noun: 'Payment',
    searchLabel: 'Search Payments (Serial, Tenant, Unit)',
    dialogWidth: 750,
    deleteConfirm: (row) =>
      `Are you sure you want to delete payment ${String(row.payment_serial ?? row.id ?? '')} of ${String(row.tenant_name ?? '')}?`,
    errorPrefix: true,
    timeouts: { success: 4000, error: 4000, saveError: 4000, deleteError: 4000 },
  }),
});
