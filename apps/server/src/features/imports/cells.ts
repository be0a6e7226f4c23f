import { normalHeader, type Field } from '@kodi/domain';
import type { Cell } from '../../modules/files/file-rows.ts';
import {
  cellText,
  isBlank,
  readAmount,
  readDate,
  readPhone,
  shown,
  type CellContext,
  type Converted,
} from '../../modules/files/cells.ts';

export {
  cellText,
  excelSerialDate,
  isBlank,
  phoneDigits,
  readAmount,
  readDate,
  readPhone,
  type CellContext,
  type Converted,
} from '../../modules/files/cells.ts';

// ---------------------------------------------------------------- the others

const YES = new Set(['yes', 'y', 'true', 't', '1', 'x', 'on']);
const NO = new Set(['no', 'n', 'false', 'f', '0', 'off']);

const readBoolean = (cell: Cell): Converted => {
  if (typeof cell === 'boolean') return { value: cell };
  const s = cellText(cell).toLowerCase();
  if (YES.has(s)) return { value: true };
  if (NO.has(s)) return { value: false };
  return { error: `Not yes or no: ${shown(cell)}.` };
};

/** An option by its value or its label ('Mobile Money' → mobilemoney); anything else goes to the rule. */
const readOption = (cell: Cell, field: Field): Converted => {
  const s = cellText(cell);
  const options = field.options;
  if (!options) return { value: s };
  const key = normalHeader(s);
  const byValue = options.values.find((v) => normalHeader(v) === key);
  if (byValue) return { value: byValue };
  const byLabel = Object.entries(options.labels).find(([, label]) => normalHeader(label) === key);
  return { value: byLabel ? byLabel[0] : s };
};

const AMOUNTS = new Set(['money', 'number', 'integer', 'percent']);

/**
 * A non-blank cell as its field's input (blank cells are left to the rules: required or null).
 * References are resolved elsewhere, by batch.
 */
export const convertCell = (cell: Cell, field: Field, ctx: CellContext): Converted => {
  if (isBlank(cell)) return { value: '' };
  if (field.kind === 'date') return readDate(cell, ctx);
  if (AMOUNTS.has(field.kind)) return readAmount(cell, ctx);
  if (field.kind === 'boolean') return readBoolean(cell);
  if (field.kind === 'enum') return readOption(cell, field);
  if (field.kind === 'phone') return { value: readPhone(cell, ctx) };
  return { value: cellText(cell) };
};
