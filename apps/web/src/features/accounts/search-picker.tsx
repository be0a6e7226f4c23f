import { useMemo, useState, type FocusEventHandler, type Ref } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useDebounced } from '../../components/resource/use-debounced.ts';

export type PickerChoice<V extends string | number> = { value: V; label: string };

export const PICKER_DEBOUNCE_MS = 300;

type SearchPickerProps<TData, V extends string | number, TKey extends QueryKey> = {
  label: string;
  value: V | null;
  /** The current value's label when the caller knows it (e.g. the row's company name). */
  valueLabel?: string;
  onChange: (value: V | null) => void;
  /** A queryOptions factory: the choices matching the search text `q` (the server searches). */
  query: (q: string) => UseQueryOptions<TData, Error, TData, TKey>;
  toChoices: (data: TData) => PickerChoice<V>[];
  /** Shown under the field when the choices could not be loaded ('Failed to load companies.'). */
  loadErrorText: string;
  /** Load the first page at once (the field's own page) rather than when the list opens. */
  eager?: boolean;
  required?: boolean;
  error?: boolean;
  helperText?: string;
  onBlur?: FocusEventHandler;
  inputRef?: Ref<HTMLInputElement>;
  autoFocus?: boolean;
};

const blankToNull = <V extends string | number>(v: V | null | undefined | ''): V | null =>
  v === undefined || v === null || v === '' ? null : v;

/**
 * An Autocomplete whose choices the server searches as the user types (300 ms debounce); it never
 * loads a whole table. Used for companies and countries.
 */
export const SearchPicker = <TData, V extends string | number, TKey extends QueryKey>({
  label,
  value: rawValue,
  valueLabel,
  onChange,
  query,
  toChoices,
  loadErrorText,
  eager = false,
  required,
  error,
  helperText,
  onBlur,
  inputRef,
  autoFocus,
}: SearchPickerProps<TData, V, TKey>) => {
  const value = blankToNull(rawValue);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), PICKER_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<PickerChoice<V> | null>(null);

  const list = useQuery({ ...query(q), enabled: open || eager });
  const choices = useMemo(() => (list.data ? toChoices(list.data) : []), [list.data, toChoices]);

  const selected = useMemo<PickerChoice<V> | null>(() => {
    if (value === null) return null;
    if (chosen?.value === value) return chosen;
    const found = choices.find((c) => c.value === value);
    if (found) return found;
    return { value, label: valueLabel || String(value) };
  }, [value, chosen, choices, valueLabel]);

  const allChoices = useMemo(
    () => (selected && !choices.some((c) => c.value === selected.value) ? [selected, ...choices] : choices),
    [choices, selected],
  );

  const failed = list.isError;

  return (
    <Autocomplete
      options={allChoices}
      value={selected}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      onChange={(_event, choice) => {
        setChosen(choice);
        onChange(choice?.value ?? null);
      }}
      onInputChange={(_event, text, reason) => setSearch(reason === 'input' ? text : '')}
      filterOptions={(x) => x}
      getOptionLabel={(c) => c.label}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      loading={list.isFetching}
      loadingText="Loading ... Please wait"
      noOptionsText={failed ? loadErrorText : q ? 'No matches.' : 'Nothing to choose from.'}
      renderOption={(props, choice) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <li key={`${key}-${String(choice.value)}`} {...rest}>
            {choice.label}
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          autoFocus={autoFocus}
          error={error || failed}
          helperText={helperText ?? (failed ? loadErrorText : undefined)}
          inputRef={inputRef}
          onBlur={onBlur}
          slotProps={{
            input: {
              ...params.InputProps,
              endAdornment: (
                <>
                  {list.isFetching && open ? (
                    <CircularProgress color="inherit" size={18} aria-hidden="true" />
                  ) : null}
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
