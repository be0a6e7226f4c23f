import { adminMaintained, defineEntity, plainColumns, sortableColumns } from '../entity.ts';
import { paymentMethod, wageCategory, wageStatus } from '../enums.ts';
import {
  employeeRef,
  endNotBeforeStart,
  field,
  isoDate,
  joinedPersonNames,
  oneOf,
  optionalNonNegative,
  positiveNumber,
  refId,
  text,
} from '../fields.ts';
import { adminPages, shown } from './ui-texts.ts';

export const WAGE_AMOUNT_MESSAGE = 'Amount must be a positive number.';
export const COMMISSION_SPLIT_MESSAGE = 'Commission split must be between 0 and 100.';

export const commissionWages = defineEntity({
  name: 'commission_wages',
  page: { drawer: { section: 'Finance', order: 40, audience: ['admin', 'company_admin'] } },
  fields: [
    employeeRef({ required: true }),
    field.date('payment_date', 'Payment Date', { required: true, defaultValue: 'today' }),
    field.enum('payment_category', 'Payment Category', wageCategory, { required: true }),
    field.textarea('description', 'Description', { required: true, fullWidth: true }),
    field.enum('payment_method', 'Payment Method', paymentMethod, { required: true }),
    field.percent('commission_split_percentage', 'Commission Split %'),
    field.date('payment_start_date', 'Payment Start Date', { required: true }),
    field.date('payment_end_date', 'Payment End Date', { required: true }),
    field.status('status', 'Status', wageStatus, { paid: 'success', pending: 'error', voided: 'error' }),
    field.money('amount', 'Amount', { required: true }),
    ...joinedPersonNames('employee', 'Employee'),
  ],
  shape: () => ({
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
  }),
  check: endNotBeforeStart('payment_start_date', 'payment_end_date'),
  scope: 'company',
  access: adminMaintained,
  // 02-admin §2 lists these columns, then Actions.
  columns: [
    ...sortableColumns('employee_name', 'payment_date', 'payment_category'),
    ...plainColumns('description'),
    ...sortableColumns('payment_method', 'commission_split_percentage'),
    ...sortableColumns('payment_start_date', 'payment_end_date', 'status', 'amount'),
  ],
  search: ['employee_id', 'company_id', 'payment_date', 'employee_name'],
  ...adminPages('Commission wage', 'commission wages', {
    title: 'Commission and Wages',
    searchLabel: 'Search (Employee, Company ID, Payment Date)',
    dialogWidth: 700,
    deleteConfirm: (row) =>
      `Are you sure you want to delete the commission wage of employee ID ${shown(row.employee_id)}, ` +
      `company ID ${shown(row.company_id)}, payment date ${shown(row.payment_date)}?`,
  }),
});
