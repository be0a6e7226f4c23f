import { z } from 'zod';
import { defineEntity, sortableColumns } from '../entity.ts';
import { everyRole } from '../navigation.ts';
import { readingFlag, readingStatus } from '../enums.ts';
import { bool, field, isoDate, meterValue, optionalText, refId } from '../fields.ts';
import { todayIso } from '../dates.ts';
import { adminPages, shown } from './ui-texts.ts';

/** A photo of a meter: at most 5 MB (as the portal's repair photos), base64 or a data URL. */
export const MAX_READING_PHOTO_BYTES = 5 * 1024 * 1024;
export const READING_PHOTO_MESSAGE = 'Photos must be at most 5 MB.';

export const READING_MESSAGES = {
  sameDay: 'This meter has a reading on this date already.',
  laterBilled: 'A later reading of this meter is billed: readings before it can no longer change.',
  billed: 'This reading is billed: it can no longer be changed.',
  notFlagged: 'This reading is not held back: there is nothing to confirm.',
  inactive: 'This meter is not active.',
  sentTwice: 'This reading was saved already (its idempotency key is used).',
} as const;

/**
 * A meter's reading (issue 28): its date and value, a photo, and what the server makes of it: the
 * reading before it, the consumption since, and a flag (lower than the reading before, or over three
 * times the meter's average of its last six) that holds it back from billing until it is confirmed
 * (`POST /meter-readings/{id}/confirm`) or corrected. A reset (`is_reset`) starts counting again from
 * its value. `idempotency_key`: a reading sent twice (the phone's round, offline) is saved once.
 */
export const meterReadings = defineEntity({
  name: 'meter_readings',
  page: { drawer: { section: 'Operations', order: 13, audience: everyRole } },
  fields: [
    field.reference('meter_id', 'Meter', 'meters', ['number'], { required: true }),
    field.date('reading_date', 'Date', { required: true, defaultValue: 'today' }),
    field.number('value', 'Reading', { required: true }),
    field.boolean('is_reset', 'Meter Reset', {
      defaultValue: false,
      helperText: 'Counting starts again from this value',
    }),
    field.image('photo', 'Photo'),
    field.textarea('note', 'Note', { fullWidth: true }),
    field.text('idempotency_key', 'Idempotency Key', { form: false }),
    field.copied('meter_number', 'Meter', 'meter_id'),
    field.readOnly('unit_name', 'Unit'),
    field.readOnly('previous_value', 'Previous Reading', 'number'),
    field.readOnly('previous_date', 'Previous Date', 'date'),
    field.readOnly('consumption', 'Consumption', 'number'),
    { ...field.enum('flag', 'Flag', readingFlag), readOnly: true, form: false },
    {
      ...field.status('status', 'Status', readingStatus, {
        flagged: 'warning',
        ready: 'success',
        billed: 'info',
      }),
      readOnly: true,
      form: false,
    },
    field.readOnly('has_photo', 'Has photo', 'boolean'),
    // billed (POST /utility-billing/run): the charge made of it (none: let to nobody at its date)
    { ...field.readOnly('charge_id', 'Charge', 'number'), form: false },
    { ...field.readOnly('billed_amount', 'Billed', 'money'), form: false },
  ],
  shape: () =>
    ({
      meter_id: refId(),
      reading_date: isoDate().default(() => todayIso()),
      value: meterValue(),
      is_reset: bool(false),
      photo: z
        .union([
          z.string().max(Math.ceil((MAX_READING_PHOTO_BYTES * 4) / 3) + 100, READING_PHOTO_MESSAGE),
          z.null(),
        ])
        .optional(),
      note: optionalText(1000, 'Maximum 1000 characters.'),
      idempotency_key: optionalText(100),
    }) satisfies z.ZodRawShape,
  scope: 'company',
  byProperty: true,
  access: { read: 'anyRole', create: 'canEdit', update: 'canEdit', delete: 'admin' },
  columns: [
    ...sortableColumns('reading_date', 'meter_number'),
    { field: 'unit_name', sortable: false },
    ...sortableColumns('value', 'consumption', 'status'),
  ],
  search: ['meter_number'],
  import: {
    order: 65,
    synonyms: {
      meter_id: ['Meter number', 'Meter no', 'Meter nbr', 'Unit', 'Unit name'],
      reading_date: ['Date', 'Read on'],
      value: ['Value', 'Meter reading', 'Index'],
      is_reset: ['Reset'],
    },
  },
  ...adminPages('Meter reading', 'meter readings', {
    searchLabel: 'Search Readings (Meter Number)',
    deleteConfirm: (row) =>
      `Are you sure you want to delete the reading of meter ${shown(row.meter_number)} of ${shown(row.reading_date)}?`,
  }),
});
