import { useMemo, useState, type FocusEventHandler, type Ref } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import type { Field } from '@kodi/domain';
import { pickerQuery, recordQuery, type ResourceRow } from '../../lib/resources.ts';
import { useDebounced } from './use-debounced.ts';

export type PickerOption = { id: number; label: string };

export const optionOf = (labelFields: readonly string[], row: ResourceRow): PickerOption => ({
  id: row.id,
  label:
    labelFields
      .map((f) => row[f])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .join(' ') || `#${row.id}`,
});

const toId = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

type ReferencePickerProps = {
  field: Field;
  value: unknown;
  /** The label of the current value when the caller knows it (joined names of the record). */
  hint?: PickerOption;
  onChange: (id: number | null) => void;
  onBlur?: FocusEventHandler;
  inputRef?: Ref<HTMLInputElement>;
  error?: boolean;
  helperText?: string;
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
  const ref = field.ref;
  const entity = ref?.entity ?? '';
  const labelFields = useMemo(() => ref?.labelFields ?? ['name'], [ref]);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const q = useDebounced(search, 300);
  const [chosen, setChosen] = useState<PickerOption | null>(null);

  const list = useQuery({ ...pickerQuery(entity, q), enabled: open && !!ref });
  const options = useMemo(
    () => (list.data?.rows ?? []).map((row) => optionOf(labelFields, row)),
    [list.data, labelFields],
  );

  const id = toId(value);
  const known =
    id === null
      ? null
      : chosen?.id === id
        ? chosen
        : hint?.id === id
          ? hint
          : (options.find((o) => o.id === id) ?? null);
  // The label of a value nobody named yet (set by code): look the record up once.
  const lookup = useQuery({
    ...recordQuery(entity, id ?? 0),
    enabled: id !== null && known === null && !!ref,
    staleTime: 60_000,
    select: (row: ResourceRow) => optionOf(labelFields, row),
  });
  const label = id === null ? null : (known?.label ?? lookup.data?.label ?? 'Loading...');
  const selected = useMemo<PickerOption | null>(
    () => (id === null || label === null ? null : { id, label }),
    [id, label],
  );
  const allOptions = useMemo(
    () => (selected && !options.some((o) => o.id === selected.id) ? [selected, ...options] : options),
    [options, selected],
  );

  return (
    <Autocomplete
      options={allOptions}
      value={selected}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      onChange={(_event, option) => {
        setChosen(option);
        onChange(option?.id ?? null);
      }}
      onInputChange={(_event, text, reason) => setSearch(reason === 'input' ? text : '')}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={list.isFetching}
      loadingText="Loading ... Please wait"
      noOptionsText={q ? 'No matches.' : 'Nothing to choose from.'}
      renderOption={(props, option) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <li key={`${key}-${option.id}`} {...rest}>
            {option.label}
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={field.label}
          required={field.required}
          error={error}
          helperText={helperText}
          inputRef={inputRef}
          onBlur={onBlur}
          slotProps={{
            input: {
              ...params.InputProps,
              endAdornment: (
                <>
                  {list.isFetching && open ? <CircularProgress color="inherit" size={18} /> : null}
                  {params.InputProps.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
};
