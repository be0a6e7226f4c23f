import { z } from 'zod';
import { defineEntity, plainColumns, sortableColumns } from '../entity.ts';
import { everyRole } from '../navigation.ts';
import { meterKind } from '../enums.ts';
import { externalRef, field, nonNegativeNumber, oneOf, text } from '../fields.ts';
import { messages } from '../validation.ts';
import { blocksText, readBlocks } from '../utilities.ts';
import { adminPages, shown } from './ui-texts.ts';

/**
 * A tariff's blocks as the API takes them: the list `[{ up_to, price }]` (the last without `up_to`) or
 * its text ('10: 1500; 30: 2000; above: 2500', the form's); kept and answered as that text.
 */
const blocksRule = () =>
  z.preprocess(
    (v, ctx) => {
      if (v === undefined || v === null || v === '') return undefined;
      const read = readBlocks(v);
      if ('error' in read) {
        ctx.addIssue({ code: 'custom', message: read.error });
        return 'invalid';
      }
      return blocksText(read);
    },
    z.string({ error: messages.required }).max(1000, 'Maximum 1000 characters.'),
  );

/**
 * What a meter's consumption costs (issue 28): a fixed charge per bill, the price of each block of
 * consumption (one block is a flat price), and a minimum charge; money in the company's currency,
 * rounded to its minor unit once per bill (`tariffBill`, utilities.ts).
 */
export const tariffs = defineEntity({
  name: 'tariffs',
  page: { drawer: { section: 'Finance', order: 35, audience: everyRole } },
  fields: [
    field.text('name', 'Name', { required: true }),
    field.enum('kind', 'Kind', meterKind, { required: true, defaultValue: 'water' }),
    field.text('blocks', 'Blocks', {
      required: true,
      fullWidth: true,
      helperText: 'Up to: price per unit, e.g. "10: 1500; 30: 2000; above: 2500" (one price alone is flat)',
    }),
    field.money('fixed_charge', 'Fixed Charge', { required: true, defaultValue: 0 }),
    field.money('minimum_charge', 'Minimum Charge', { required: true, defaultValue: 0 }),
    externalRef.field(),
  ],
  shape: () =>
    ({
      name: text(255),
      kind: oneOf(meterKind.values),
      blocks: blocksRule(),
      fixed_charge: nonNegativeNumber().default(0),
      minimum_charge: nonNegativeNumber().default(0),
      external_ref: externalRef.rule(),
    }) satisfies z.ZodRawShape,
  scope: 'company',
  // prices are money matters, as owners' fees are: admins and company admins set them
  access: { read: 'anyRole', create: 'companyAdmin', update: 'companyAdmin', delete: 'admin' },
  columns: [...sortableColumns('name', 'kind', 'fixed_charge', 'minimum_charge'), ...plainColumns('blocks')],
  search: ['name', 'kind'],
  import: { order: 25, synonyms: { name: ['Tariff', 'Tariff name'], blocks: ['Prices', 'Price blocks'] } },
  ...adminPages('Tariff', 'tariffs', {
    searchLabel: 'Search Tariffs (Name, Kind)',
    deleteConfirm: (row) => `Are you sure you want to delete tariff: ${shown(row.name)}?`,
  }),
});
