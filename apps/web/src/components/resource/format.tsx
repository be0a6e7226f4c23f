import type { ReactNode } from 'react';
import Chip from '@mui/material/Chip';
import { formatDate, formatMoney, type EntityDefinition, type Field, type FieldKind } from '@kodi/domain';
import type { MoneyFormat, ResourceRow } from '../../lib/resources.ts';
import { i18n } from '../../lib/i18n.ts';

/** Shown for an empty value in lists and details. */
export const EMPTY = '—';

export const fieldByName = (def: EntityDefinition, name: string): Field | undefined =>
  def.fields.find((f) => f.name === name);

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/** The label of an enum value (the value itself when the list does not know it). */
export const optionLabel = (field: Field | undefined, value: unknown): string => {
  const s = String(value);
  return field?.options?.labels[s] ?? s;
};

/** The text of a value of a kind: money in the company's currency, dates as 'Nov 22, 2026'. */
export const formatText = (
  kind: FieldKind | undefined,
  value: unknown,
  money: MoneyFormat,
  field?: Field,
): string => {
  if (isEmpty(value)) return EMPTY;
  switch (kind) {
    case 'money':
      return formatMoney(value as number | string, money.currency, money.decimals, money.language);
    case 'date':
      return formatDate(String(value), money.language) || String(value);
    case 'enum':
      return optionLabel(field, value);
    case 'boolean':
      return value === true || value === 'true' ? i18n._('shell.yes') : i18n._('shell.no');
    case 'percent':
      return `${String(value)}%`;
    case 'number':
    case 'integer': {
      const n = Number(value);
      return Number.isFinite(n)
        ? n.toLocaleString(money.language && money.language !== 'en' ? money.language : 'en-US', {
            maximumFractionDigits: 4,
          })
        : String(value);
    }
    default:
      return String(value);
  }
};

/** An enum value as a Chip coloured by `chipColors`, with the option label. */
export const EnumChip = ({ field, value }: { field: Field | undefined; value: unknown }) =>
  isEmpty(value) ? (
    <>{EMPTY}</>
  ) : (
    <Chip
      size="small"
      label={optionLabel(field, value)}
      color={field?.chipColors?.[String(value)] ?? 'default'}
    />
  );

/** A reference shown by the joined name the API answers (`tenant_id` → `tenant_name`). */
export const referenceText = (field: Field, record: ResourceRow): string => {
  const id = record[field.name];
  if (isEmpty(id)) return EMPTY;
  const base = field.name.replace(/_id$/, '');
  const name = record[`${base}_name`];
  if (typeof name === 'string' && name.trim()) return name;
  const first = record[`${base}_first_name`];
  const last = record[`${base}_last_name`];
  const joined = [first, last].filter((v) => typeof v === 'string' && v).join(' ');
  return joined || `#${String(id)}`;
};

/** A value of a record as the lists and the details show it. */
export const formatValue = (
  def: EntityDefinition,
  name: string,
  record: ResourceRow,
  money: MoneyFormat,
  kindHint?: FieldKind,
): ReactNode => {
  const field = fieldByName(def, name);
  const kind = kindHint ?? field?.kind;
  const value = record[name];
  if (kind === 'enum') return <EnumChip field={field} value={value} />;
  if (kind === 'reference' && field) return referenceText(field, record);
  return formatText(kind, value, money, field);
};
