import { defineEntity, editorMaintained, sortableColumns } from '../entity.ts';
import { everyRole } from '../navigation.ts';
import { propertyType } from '../enums.ts';
import { externalRef, field, oneOf, optionalNonNegative, optionalText, text } from '../fields.ts';
import { corePages, shown } from './ui-texts.ts';

/**
 * A property: a building or an estate that holds units (issue 16). Its list shows how many units it
 * holds, how many of them are occupied and the share occupied, kept on its row by the database
 * (db/derived.ts) so that the list sorts by them from an index.
 */
export const properties = defineEntity({
  name: 'properties',
  page: { drawer: { section: 'Operations', order: 5, audience: everyRole } },
  fields: [
    field.text('name', 'Name', { required: true }),
    field.text('address', 'Address', { required: true, fullWidth: true }),
    field.enum('property_type', 'Property Type', propertyType, {
      required: true,
      defaultValue: 'residential',
    }),
    field.text('manager_name', 'Manager Name'),
    field.phone('manager_phone', 'Manager Phone'),
    field.textarea('description', 'Description', { fullWidth: true }),
    field.money('service_charge', 'Service Charge per Unit per Month', {
      helperText: "Empty: the company's service charge; 0: none for this property.",
    }),
    externalRef.field(),
    field.readOnly('units_count', 'Units', 'integer'),
    field.readOnly('occupied_count', 'Occupied', 'integer'),
    field.readOnly('occupancy_percent', 'Occupancy %', 'percent'),
  ],
  shape: () => ({
    name: text(255, 'Maximum 255 characters.'),
    address: text(1000),
    property_type: oneOf(propertyType.values).default('residential'),
    manager_name: optionalText(255),
    manager_phone: optionalText(50),
    description: optionalText(5000),
    // null: the company's service charge (company settings); 0: none (issue 28)
    service_charge: optionalNonNegative('The amount must be 0 or more.', 999_999_999_999.99),
    external_ref: externalRef.rule(),
  }),
  scope: 'company',
  access: editorMaintained,
  // the manager is in the details (and the search): the list keeps room for the counts at 360 px
  columns: sortableColumns(
    'name',
    'address',
    'property_type',
    'units_count',
    'occupied_count',
    'occupancy_percent',
  ),
  search: ['name', 'address', 'manager_name'],
  import: {
    order: 10,
    synonyms: {
      name: ['Property', 'Property name', 'Building', 'Estate'],
      manager_phone: ['Manager mobile'],
    },
  },
  ...corePages('Property', 'properties', {
    searchLabel: 'Search Properties (Name, Address, Manager)',
    dialogWidth: 750,
    deleteConfirm: (row) => `Are you sure you want to delete property: ${shown(row.name)}?`,
    errorPrefix: false,
    timeouts: { success: 4000, error: 4000, saveError: 6000, deleteError: 6000 },
    expandField: 'description',
    expandEmpty: 'No description provided.',
  }),
});
