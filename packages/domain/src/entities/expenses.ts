import { defineEntity } from '../entity.ts';
import { expenseCategory } from '../enums.ts';
import { isoDate, oneOf, optionalRefId, optionalText, positiveNumber } from '../fields.ts';
import { todayIso } from '../dates.ts';
import { adminSnackbar, shown } from './admin-ui.ts';

export const expenses = defineEntity({
  name: 'expenses',
  singular: 'Expense',
  scope: 'company',
  fields: [
    { name: 'unit_id', label: 'Unit', kind: 'reference', ref: { entity: 'units', labelFields: ['name'] } },
    { name: 'expense_date', label: 'Expense Date', kind: 'date', required: true, defaultValue: 'today' },
    { name: 'amount', label: 'Amount', kind: 'money', required: true },
    { name: 'category', label: 'Category', kind: 'enum', options: expenseCategory, required: true },
    { name: 'description', label: 'Description', kind: 'textarea', fullWidth: true },
    {
      name: 'vendor_id',
      label: 'Vendor',
      kind: 'reference',
      ref: { entity: 'vendors', labelFields: ['name'] },
    },
    { name: 'unit_name', label: 'Unit', kind: 'text', readOnly: true },
    { name: 'vendor_name', label: 'Vendor', kind: 'text', readOnly: true },
  ],
  shape: {
    unit_id: optionalRefId(),
    expense_date: isoDate().default(() => todayIso()),
    amount: positiveNumber(),
    category: oneOf(expenseCategory.values),
    description: optionalText(5000, 'Maximum 5000 characters.'),
    vendor_id: optionalRefId(),
  },
  columns: [
    { field: 'unit_name', label: 'Unit', sortable: true },
    { field: 'expense_date', label: 'Expense Date', kind: 'date', sortable: true },
    { field: 'amount', label: 'Amount', kind: 'money', sortable: true },
    { field: 'category', label: 'Category', kind: 'enum', sortable: true },
    { field: 'description', label: 'Description' },
    { field: 'vendor_name', label: 'Vendor', sortable: true },
  ],
  search: ['category', 'unit_name'],
  sort: ['id', 'unit_name', 'expense_date', 'amount', 'category', 'vendor_name', 'created_at'],
  access: { read: 'anyRole', create: 'canEdit', update: 'admin', delete: 'admin' },
  ui: {
    route: '/expenses',
    title: 'Expenses',
    searchLabel: 'Search Expenses (Category, Unit)',
    emptyText: 'No expenses available or match your search.',
    dialogWidth: 600,
    formTitle: { create: 'New Expense', edit: 'Edit Expense' },
    detailsTitle: 'Expense Details',
    deleteConfirm: (row) =>
      `Are you sure you want to delete this expense: ${shown(row.category)} of ${shown(row.expense_date)}?`,
    ...adminSnackbar('Expense', 'expenses'),
  },
});
