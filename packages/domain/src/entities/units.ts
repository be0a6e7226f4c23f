import { z } from 'zod';
import { defineEntity, editorMaintained, sortableColumns } from '../entity.ts';
import { everyRole } from '../navigation.ts';
import { unitStatus, unitType } from '../enums.ts';
import {
  field,
  oneOf,
  optionalInteger,
  optionalNonNegative,
  optionalRefId,
  optionalText,
  positiveNumber,
  propertyRef,
  text,
  externalRef,
} from '../fields.ts';
import { corePages } from './ui-texts.ts';

/** An image field: base64 (or a data URL) of a png, jpeg or webp; '' or null clears it; absent leaves it. */
export const imageField = () =>
  z.union([z.string().max(3_000_000, 'Images must be at most 2 MB.'), z.null()]).optional();

/** The chip colour of each status in the list. */
const statusChips = { available: 'success', occupied: 'info', maintenance: 'warning' } as const;

export const units = defineEntity({
  name: 'units',
  page: { drawer: { section: 'Operations', order: 10, audience: everyRole } },
  fields: [
    field.text('name', 'Name', { required: true }),
    propertyRef(),
    field.text('address', 'Address', { required: true, fullWidth: true }),
    field.enum('unit_type', 'Unit Type', unitType, { required: true, defaultValue: 'apartment' }),
    field.status('status', 'Status', unitStatus, statusChips, 'available'),
    field.money('monthly_rate', 'Monthly Rate', { required: true }),
    field.money('weekly_rate', 'Weekly Rate', { required: true }),
    field.money('daily_rate', 'Daily Rate', { required: true }),
    field.integer('bedrooms', 'Bedrooms'),
    field.number('bathrooms', 'Bathrooms'),
    field.number('size_sqft', 'Size (sq ft)'),
    field.text('water_meter_nbr', 'Water Meter No.'),
    field.text('electricity_meter_nbr', 'Electricity Meter No.'),
    field.text('amenities', 'Amenities (comma-separated)', { fullWidth: true }),
    field.textarea('description', 'Description', { fullWidth: true }),
    field.image('image_1_base64', 'Image 1'),
    field.image('image_2_base64', 'Image 2'),
    field.readOnly('has_image_1', 'Has image 1', 'boolean'),
    field.readOnly('has_image_2', 'Has image 2', 'boolean'),
    field.copied('property_name', 'Property', 'property_id'),
    externalRef.field(),
  ],
  shape: () => ({
    name: text(255, 'Maximum 255 characters.'),
    property_id: optionalRefId(),
    address: text(1000),
    unit_type: oneOf(unitType.values),
    status: oneOf(unitStatus.values),
    monthly_rate: positiveNumber(),
    weekly_rate: positiveNumber(),
    daily_rate: positiveNumber(),
    bedrooms: optionalInteger(),
    bathrooms: optionalNonNegative('Must be a positive number >= 0.', 999),
    size_sqft: optionalNonNegative(),
    water_meter_nbr: optionalText(100),
    electricity_meter_nbr: optionalText(100),
    amenities: optionalText(2000),
    description: optionalText(5000),
    image_1_base64: imageField(),
    image_2_base64: imageField(),
    external_ref: externalRef.rule(),
  }),
  scope: 'company',
  access: editorMaintained,
  byProperty: true,
  columns: sortableColumns('name', 'property_name', 'address', 'unit_type', 'monthly_rate', 'status'),
  search: ['name', 'address', 'description'],
  import: {
    order: 20,
    synonyms: {
      name: ['Unit', 'Unit name', 'Unit no', 'Unit number'],
      unit_type: ['Type'],
      monthly_rate: ['Rent', 'Monthly rent'],
      weekly_rate: ['Weekly rent'],
      daily_rate: ['Daily rent'],
      size_sqft: ['Size', 'Square feet', 'Sq ft'],
    },
  },
  ...corePages('Unit', 'units', {
    title: 'Rental Units',
    searchLabel: 'Search Units (Name, Address, Desc.)',
    dialogWidth: 750,
    deleteConfirm: (row) => `Are you sure you want to delete unit: ${String(row.name ?? '')}?`,
    errorPrefix: false,
    timeouts: { success: 4000, error: 4000, saveError: 6000, deleteError: 6000 },
    expandField: 'description',
    expandEmpty: 'No description provided.',
  }),
});
