import { useMemo, type FocusEventHandler, type Ref } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Field } from '@kodi/domain';
import { pickerQuery, recordQuery, type ResourceRow } from '../../lib/resources.ts';
import { ServerPicker, useChoicesWith, usePickerSearch, type PickerChoice } from '../ui/search-picker.tsx';
import { useT } from '../../lib/i18n.ts';

/** A record offered by a reference picker: its id and its label. */
export type PickerOption = PickerChoice<number>;

const textsOf = (fields: readonly string[], row: ResourceRow): string[] =>
  fields
    .map((f) => row[f])
    .filter((v) => v !== null && v !== undefined && v !== '')
    .map(String);

/** A row named by its label fields, then its detail fields after ' · ' ('Jane Doe · A3, Kololo Heights'). */
export const optionOf = (
  labelFields: readonly string[],
  row: ResourceRow,
  detailFields: readonly string[] = [],
): PickerOption => {
  const name = textsOf(labelFields, row).join(' ') || `#${row.id}`;
  const details = textsOf(detailFields, row).join(' · ');
  return { value: row.id, label: details ? `${name} · ${details}` : name };
};

const toId = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

export type ReferencePickerProps = {
  field: Field;
  value: unknown;
  /** The label of the current value when the caller knows it (joined names of the record). */
  hint?: PickerOption | undefined;
  onChange: (id: number | null) => void;
  onBlur?: FocusEventHandler;
  inputRef?: Ref<HTMLInputElement>;
  error?: boolean;
  helperText?: string | undefined;
};

/**
 * A reference field: an Autocomplete that asks the server (`GET /{entity}?q=...&page_size=20`) as
 * the user types (300 ms debounce); it never loads a whole table.
 */
export const ReferencePicker = ({
  field,
  value,
  hint,
  onChange,
  onBlur,
  inputRef,
  error,
  helperText,
}: ReferencePickerProps) => {
  const { t } = useT();
  const ref = field.ref;
  const entity = ref?.entity ?? '';
  const labelFields = useMemo(() => ref?.labelFields ?? ['name'], [ref]);
  const detailFields = useMemo(() => ref?.detailFields ?? [], [ref]);
  const search = usePickerSearch<number>();
  const { q, chosen } = search;

  const list = useQuery({ ...pickerQuery(entity, q), enabled: search.open && !!ref });
  const options = useMemo(
    () => (list.data?.rows ?? []).map((row) => optionOf(labelFields, row, detailFields)),
    [list.data, labelFields, detailFields],
  );

  const id = toId(value);
  const known =
    id === null
      ? null
      : chosen?.value === id
        ? chosen
        : hint?.value === id
          ? hint
          : (options.find((o) => o.value === id) ?? null);
  // The label of a value nobody named yet (set by code): look the record up once.
  const lookup = useQuery({
    ...recordQuery(entity, id ?? 0),
    enabled: id !== null && known === null && !!ref,
    staleTime: 60_000,
    select: (row: ResourceRow) => optionOf(labelFields, row, detailFields),
  });
  const label = id === null ? null : (known?.label ?? lookup.data?.label ?? t('shell.loadingDots'));
  const selected = useMemo<PickerOption | null>(
    () => (id === null || label === null ? null : { value: id, label }),
    [id, label],
  );
  const allOptions = useChoicesWith(options, selected);

  return (
    <ServerPicker
      search={search}
      choices={allOptions}
      selected={selected}
      onChange={onChange}
      fetching={list.isFetching}
      noOptionsText={q ? t('shell.noMatches') : t('shell.nothingToChoose')}
      label={field.label}
      required={field.required}
      error={error}
      helperText={helperText}
      onBlur={onBlur}
      inputRef={inputRef}
    />
  );
};
