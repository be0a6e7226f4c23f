import { z } from 'zod';
import { defineEntity, editorMaintained, sortableColumns } from '../entity.ts';
import { everyRole } from '../navigation.ts';
import { meterKind, meterUnit } from '../enums.ts';
import {
  bool,
  externalRef,
  field,
  meterValue,
  oneOf,
  optionalIsoDate,
  optionalOneOf,
  optionalRefId,
  propertyRef,
  text,
  unitRef,
} from '../fields.ts';
import { adminPages, shown } from './ui-texts.ts';

export const METER_PLACE_MESSAGE = "Choose the meter's unit, or the property of a building's master meter.";
export const METER_UNIT_PROPERTY_MESSAGE =
  "The unit is not in this property: leave the property out, it is the unit's.";

/** The unit a meter of each kind counts in, unless it says another. */
export const defaultMeterUnit = { water: 'm3', electricity: 'kwh', gas: 'm3' } as const;

/**
 * A water, electricity or gas meter (issue 28): a unit's sub-meter, or a building's master meter (a
 * property and no unit). A unit's meter is in the unit's property (the server sets it). Its readings
 * are `meter_readings`; its tariff prices their consumption.
 */
export const meters = defineEntity({
  name: 'meters',
  page: { drawer: { section: 'Operations', order: 12, audience: everyRole } },
  fields: [
    field.text('number', 'Meter Number', { required: true }),
    field.enum('kind', 'Kind', meterKind, { required: true, defaultValue: 'water' }),
    unitRef({ helperText: "None for a building's master meter" }),
    propertyRef({ helperText: "A unit's meter is in the unit's property" }),
    field.enum('unit_of_measure', 'Unit of Measure', meterUnit, {
      nullable: false,
      helperText: 'm³ for water and gas, kWh for electricity, unless chosen',
    }),
    field.reference('tariff_id', 'Tariff', 'tariffs', ['name']),
    field.boolean('is_active', 'Active', { defaultValue: true }),
    field.date('installed_on', 'Installed On'),
    field.number('initial_reading', 'Initial Reading', { required: true, defaultValue: 0 }),
    field.copied('unit_name', 'Unit', 'unit_id'),
    field.copied('property_name', 'Property', 'property_id'),
    field.copied('tariff_name', 'Tariff', 'tariff_id'),
    externalRef.field(),
  ],
  shape: () =>
    ({
      number: text(100, 'Maximum 100 characters.'),
      kind: oneOf(meterKind.values),
      unit_id: optionalRefId(),
      property_id: optionalRefId(),
      unit_of_measure: optionalOneOf(meterUnit.values),
      tariff_id: optionalRefId(),
      is_active: bool(true),
      installed_on: optionalIsoDate(),
      initial_reading: meterValue().default(0),
      external_ref: externalRef.rule(),
    }) satisfies z.ZodRawShape,
  check: (v) => (v.unit_id || v.property_id ? undefined : { field: 'unit_id', message: METER_PLACE_MESSAGE }),
  scope: 'company',
  byProperty: true,
  access: editorMaintained,
  columns: sortableColumns('number', 'kind', 'unit_name', 'property_name', 'tariff_name', 'is_active'),
  search: ['number', 'unit_name', 'property_name'],
  import: {
    order: 27,
    // a reading's file may name the meter by its unit (one meter of the unit: else it is ambiguous)
    matchBy: ['unit_name'],
    synonyms: {
      number: ['Meter', 'Meter no', 'Meter number', 'Meter nbr'],
      kind: ['Type', 'Utility'],
      unit_id: ['Unit name', 'Unit no'],
      unit_of_measure: ['UoM', 'Measure'],
      initial_reading: ['Initial', 'Opening reading', 'Reading'],
    },
  },
  ...adminPages('Meter', 'meters', {
    searchLabel: 'Search Meters (Number, Unit, Property)',
    dialogWidth: 750,
    deleteConfirm: (row) => `Are you sure you want to delete meter: ${shown(row.number)}?`,
  }),
});
