import { defineEntity, editorMaintained, sortableColumns } from './entity.ts';
import { field, oneOf, optionalRefId, positiveNumber, text, unitRef } from './fields.ts';
import { adminPages, shown } from './entities/ui-texts.ts';

/**
 * For tests only (`@kodi/domain/testing`): an entity that is not one of the app's, added to the list
 * by the tests that prove an entity needs only its definition and its table (docs/architecture.md,
 * 'Adding an entity'): the drawer and the router (web), the routes, OpenAPI, the reliability
 * matrix and the name it copies from its unit (server) take it from its definition.
 */
const gadgetStatus = {
  values: ['new', 'used', 'broken'] as const,
  labels: { new: 'New', used: 'Used', broken: 'Broken' },
};

export const gadgets = defineEntity({
  name: 'gadgets',
  fields: [
    field.text('name', 'Name', { required: true }),
    field.money('amount', 'Amount', { required: true }),
    field.status('status', 'Status', gadgetStatus, { new: 'success', used: 'info', broken: 'error' }, 'new'),
    unitRef(),
    // its unit's name, kept on its row by the database: its list sorts and searches by it
    field.copied('unit_name', 'Unit', 'unit_id'),
  ],
  shape: {
    name: text(255),
    amount: positiveNumber(),
    status: oneOf(gadgetStatus.values).default('new'),
    unit_id: optionalRefId(),
  },
  scope: 'company',
  access: editorMaintained,
  columns: sortableColumns('name', 'amount', 'status', 'unit_name'),
  search: ['name', 'unit_name'],
  page: { drawer: { section: 'Operations', order: 60, audience: ['admin', 'editor'] } },
  ...adminPages('Gadget', 'gadgets', {
    searchLabel: 'Search Gadgets (Name, Unit)',
    deleteConfirm: (row) => `Are you sure you want to delete gadget: ${shown(row.name)}?`,
  }),
});
