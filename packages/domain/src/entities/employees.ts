import { defineEntity } from '../entity.ts';
import { employeeStatus } from '../enums.ts';
import { integerBetween, isoDate, oneOf, optionalEmail, positiveNumber, text } from '../fields.ts';
import { adminSnackbar, shown } from './admin-ui.ts';

export const EXPECTED_PAY_DAY_MESSAGE = 'Expected pay day must be a whole number between 1 and 31.';

export const employees = defineEntity({
  name: 'employees',
  singular: 'Employee',
  scope: 'company',
  fields: [
    { name: 'first_name', label: 'First Name', kind: 'text', required: true },
    { name: 'last_name', label: 'Last Name', kind: 'text', required: true },
    { name: 'email', label: 'Email', kind: 'email' },
    { name: 'phone_number', label: 'Phone Number', kind: 'phone', required: true },
    { name: 'job_title', label: 'Job Title', kind: 'text', required: true },
    { name: 'hire_date', label: 'Hire Date', kind: 'date', required: true, defaultValue: 'today' },
    { name: 'salary', label: 'Salary', kind: 'money', required: true },
    {
      name: 'expected_pay_day',
      label: 'Expected Pay Day',
      kind: 'integer',
      required: true,
      helperText: '1 to 31',
    },
    {
      name: 'status',
      label: 'Status',
      kind: 'enum',
      options: employeeStatus,
      required: true,
      defaultValue: 'active',
      chipColors: { active: 'success', inactive: 'error' },
    },
    { name: 'full_name', label: 'Full Name', kind: 'text', readOnly: true },
  ],
  shape: {
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
  },
  columns: [
    { field: 'first_name', label: 'First Name', sortable: true },
    { field: 'last_name', label: 'Last Name', sortable: true },
    { field: 'email', label: 'Email', sortable: true },
    { field: 'phone_number', label: 'Phone Number' },
    { field: 'job_title', label: 'Job Title', sortable: true },
    { field: 'hire_date', label: 'Hire Date', kind: 'date', sortable: true },
    { field: 'salary', label: 'Salary', kind: 'money', sortable: true },
    { field: 'expected_pay_day', label: 'Expected Pay Day', kind: 'integer', sortable: true },
    { field: 'status', label: 'Status', kind: 'enum', sortable: true },
  ],
  search: ['first_name', 'last_name', 'full_name', 'email', 'phone_number'],
  sort: [
    'id',
    'first_name',
    'last_name',
    'email',
    'job_title',
    'hire_date',
    'salary',
    'expected_pay_day',
    'status',
    'created_at',
  ],
  access: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  ui: {
    route: '/employees',
    title: 'Employees',
    searchLabel: 'Search Employees (Name, Email, Phone)',
    emptyText: 'No employees available or match your search.',
    dialogWidth: 500,
    formTitle: { create: 'New Employee', edit: 'Edit Employee' },
    detailsTitle: 'Employee Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete this employee: ${shown(row.first_name)} ${shown(row.last_name)}?`,
    ...adminSnackbar('Employee', 'employees'),
  },
});
