import { defineEntity } from '../entity.ts';
import { paymentMethod, wageCategory, wageStatus } from '../enums.ts';
import {
  endNotBeforeStart,
  isoDate,
  oneOf,
  optionalNonNegative,
  positiveNumber,
  refId,
  text,
} from '../fields.ts';
import { adminSnackbar, shown } from './admin-ui.ts';

export const WAGE_AMOUNT_MESSAGE = 'Amount must be a positive number.';
export const COMMISSION_SPLIT_MESSAGE = 'Commission split must be between 0 and 100.';

export const commissionWages = defineEntity({
  name: 'commission_wages',
  singular: 'Commission wage',
  scope: 'company',
  fields: [
    {
      name: 'employee_id',
      label: 'Employee',
      kind: 'reference',
      ref: { entity: 'employees', labelFields: ['first_name', 'last_name'] },
      required: true,
    },
    { name: 'payment_date', label: 'Payment Date', kind: 'date', required: true, defaultValue: 'today' },
    {
      name: 'payment_category',
      label: 'Payment Category',
      kind: 'enum',
      options: wageCategory,
      required: true,
    },
    { name: 'description', label: 'Description', kind: 'textarea', required: true, fullWidth: true },
    { name: 'payment_method', label: 'Payment Method', kind: 'enum', options: paymentMethod, required: true },
    { name: 'commission_split_percentage', label: 'Commission Split %', kind: 'percent' },
    { name: 'payment_start_date', label: 'Payment Start Date', kind: 'date', required: true },
    { name: 'payment_end_date', label: 'Payment End Date', kind: 'date', required: true },
    {
      name: 'status',
      label: 'Status',
      kind: 'enum',
      options: wageStatus,
      required: true,
      chipColors: { paid: 'success', pending: 'error', voided: 'error' },
    },
    { name: 'amount', label: 'Amount', kind: 'money', required: true },
    { name: 'employee_first_name', label: 'Employee First Name', kind: 'text', readOnly: true },
    { name: 'employee_last_name', label: 'Employee Last Name', kind: 'text', readOnly: true },
    { name: 'employee_name', label: 'Employee', kind: 'text', readOnly: true },
  ],
  shape: {
    employee_id: refId(),
    payment_date: isoDate(),
    payment_category: oneOf(wageCategory.values),
    description: text(5000, 'Maximum 5000 characters.'),
    // 02-admin §5: payment method and status are lowercased before sending (oneOf does it).
    payment_method: oneOf(paymentMethod.values),
    commission_split_percentage: optionalNonNegative(COMMISSION_SPLIT_MESSAGE, 100, COMMISSION_SPLIT_MESSAGE),
    payment_start_date: isoDate(),
    payment_end_date: isoDate(),
    status: oneOf(wageStatus.values),
    amount: positiveNumber(WAGE_AMOUNT_MESSAGE),
  },
  check: endNotBeforeStart('payment_start_date', 'payment_end_date'),
  // 02-admin §2 lists these columns, then Actions.
  columns: [
    { field: 'employee_name', label: 'Employee', sortable: true },
    { field: 'payment_date', label: 'Payment Date', kind: 'date', sortable: true },
    { field: 'payment_category', label: 'Payment Category', kind: 'enum', sortable: true },
    { field: 'description', label: 'Description' },
    { field: 'payment_method', label: 'Payment Method', kind: 'enum', sortable: true },
    { field: 'commission_split_percentage', label: 'Commission Split %', kind: 'percent', sortable: true },
    { field: 'payment_start_date', label: 'Payment Start Date', kind: 'date', sortable: true },
    { field: 'payment_end_date', label: 'Payment End Date', kind: 'date', sortable: true },
    { field: 'status', label: 'Status', kind: 'enum', sortable: true },
    { field: 'amount', label: 'Amount', kind: 'money', sortable: true },
  ],
  search: ['employee_id', 'company_id', 'payment_date', 'employee_name'],
  sort: [
    'id',
    'employee_name',
    'payment_date',
    'payment_category',
    'payment_method',
    'commission_split_percentage',
    'payment_start_date',
    'payment_end_date',
    'status',
    'amount',
    'created_at',
  ],
  access: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  ui: {
    route: '/commission-wages',
    title: 'Commission and Wages',
    searchLabel: 'Search (Employee, Company ID, Payment Date)',
    emptyText: 'No commission wages available or match your search.',
    dialogWidth: 700,
    formTitle: { create: 'New Commission Wage', edit: 'Edit Commission Wage' },
    detailsTitle: 'Commission Wage Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete the commission wage of employee ID ${shown(row.employee_id)}, ` +
      `company ID ${shown(row.company_id)}, payment date ${shown(row.payment_date)}?`,
    ...adminSnackbar('Commission wage', 'commission wages'),
  },
});
