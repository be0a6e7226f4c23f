import { adminMaintained, defineEntity, plainColumns, sortableColumns } from '../entity.ts';
import { expenseCategory } from '../enums.ts';
import {
  externalRef,
  field,
  isoDate,
  oneOf,
  optionalRefId,
  optionalText,
  positiveNumber,
  unitRef,
  vendorRef,
} from '../fields.ts';
import { formatDate, todayIso } from '../dates.ts';
import { adminPages, shown } from './ui-texts.ts';

type ExpenseCategory = (typeof expenseCategory.values)[number];

export const expenses = defineEntity({
  name: 'expenses',
  page: { drawer: { section: 'Finance', order: 30, audience: ['admin', 'editor'] } },
  fields: [
    unitRef(),
    field.date('expense_date', 'Expense Date', { required: true, defaultValue: 'today' }),
    field.money('amount', 'Amount', { required: true }),
    field.enum('category', 'Category', expenseCategory, { required: true }),
    field.textarea('description', 'Description', { fullWidth: true }),
    vendorRef(),
    field.integer('paid_from_account_id', 'Paid From Account', { form: false }),
    field.copied('unit_name', 'Unit', 'unit_id'),
    field.copied('vendor_name', 'Vendor', 'vendor_id'),
    externalRef.field(),
  ],
  shape: () => ({
    unit_id: optionalRefId(),
    expense_date: isoDate().default(() => todayIso()),
    amount: positiveNumber(),
    category: oneOf(expenseCategory.values),
    description: optionalText(5000, 'Maximum 5000 characters.'),
    vendor_id: optionalRefId(),
    paid_from_account_id: optionalRefId(),
    external_ref: externalRef.rule(),
  }),
  scope: 'company',
  byProperty: true,
  access: adminMaintained,
  columns: [
    ...sortableColumns('unit_name', 'expense_date', 'amount', 'category'),
    ...plainColumns('description'),
    ...sortableColumns('vendor_name'),
  ],
  search: ['category', 'unit_name'],
  import: {
    order: 60,
    synonyms: {
      unit_id: ['Unit name', 'Unit no'],
      expense_date: ['Date', 'Spent on'],
      amount: ['Cost', 'Amount spent', 'Total'],
      category: ['Type', 'Expense type'],
      description: ['Details', 'Notes'],
      vendor_id: ['Supplier', 'Vendor name', 'Paid to'],
    },
  },
  ...adminPages('Expense', 'expenses', {
    searchLabel: 'Search Expenses (Category, Unit)',
    deleteConfirm: (row) =>
      `Are you sure you want to delete this expense: ${
        expenseCategory.labels[row.category as ExpenseCategory] ?? shown(row.category)
      } of ${formatDate(row.expense_date as string | null | undefined)}?`,
  }),
});
