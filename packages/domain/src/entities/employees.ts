import { adminMaintained, defineEntity, plainColumns, sortableColumns } from '../entity.ts';
import { employeeStatus } from '../enums.ts';
import {
  field,
  integerBetween,
  isoDate,
  nameFields,
  oneOf,
  optionalEmail,
  positiveNumber,
  text,
} from '../fields.ts';
import { adminPages, shown } from './ui-texts.ts';

export const EXPECTED_PAY_DAY_MESSAGE = 'Expected pay day must be a whole number between 1 and 31.';

export const employees = defineEntity({
  name: 'employees',
  page: { drawer: { section: 'Administration', order: 30, audience: ['admin', 'company_admin'] } },
  fields: [
    ...nameFields(),
    field.email('email', 'Email'),
    field.phone('phone_number', 'Phone Number', { required: true }),
    field.text('job_title', 'Job Title', { required: true }),
    field.date('hire_date', 'Hire Date', { required: true, defaultValue: 'today' }),
    field.money('salary', 'Salary', { required: true }),
    field.integer('expected_pay_day', 'Expected Pay Day', { required: true, helperText: '1 to 31' }),
    field.status('status', 'Status', employeeStatus, { active: 'success', inactive: 'error' }, 'active'),
    field.readOnly('full_name', 'Full Name'),
  ],
  shape: () => ({
    first_name: text(255),
    last_name: text(255),
    email: optionalEmail(),
    phone_number: text(50),
    job_title: text(255),
    hire_date: isoDate(),
    salary: positiveNumber(),
    expected_pay_day: integerBetween(1, 31, EXPECTED_PAY_DAY_MESSAGE),
    // 02-admin §5: the status is lowercased on save (oneOf does it).
    status: oneOf(employeeStatus.values).default('active'),
  }),
  scope: 'company',
  access: adminMaintained,
  columns: [
    ...sortableColumns('first_name', 'last_name', 'email'),
    ...plainColumns('phone_number'),
    ...sortableColumns('job_title', 'hire_date', 'salary', 'expected_pay_day', 'status'),
  ],
  search: ['full_name', 'email', 'phone_number'],
  ...adminPages('Employee', 'employees', {
    searchLabel: 'Search Employees (Name, Email, Phone)',
    dialogWidth: 500,
    deleteConfirm: (row) =>
      `Are you sure you want to delete this employee: ${shown(row.first_name)} ${shown(row.last_name)}?`,
  }),
});
