import { useMemo, useState, type FocusEventHandler, type Ref } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useDebounced } from './use-debounced.ts';
import { useT } from '../../lib/i18n.ts';

export type PickerChoice<V extends string | number> = { value: V; label: string };

export const PICKER_DEBOUNCE_MS = 300;

/** The text field's side of a picker. */
type PickerInputProps = {
  label: string;
  required?: boolean;
  autoFocus?: boolean;
  error?: boolean;
  helperText?: string | undefined;
  onBlur?: FocusEventHandler;
  inputRef?: Ref<HTMLInputElement>;
  /** shown while nothing is chosen */
  placeholder?: string;
  size?: 'small' | 'medium';
};

/** Whether the list is open, the search text (debounced, trimmed) and the last choice of a picker. */
export const usePickerSearch = <V extends string | number>() => {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), PICKER_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<PickerChoice<V> | null>(null);
  return { open, setOpen, setSearch, q, chosen, setChosen };
};

export type PickerSearch<V extends string | number> = ReturnType<typeof usePickerSearch<V>>;

/** The page of choices, with the selected one first when the page lacks it. */
export const useChoicesWith = <V extends string | number>(
  choices: PickerChoice<V>[],
  selected: PickerChoice<V> | null,
) =>
  useMemo(
    () => (selected && !choices.some((c) => c.value === selected.value) ? [selected, ...choices] : choices),
    [choices, selected],
  );

type ServerPickerProps<V extends string | number> = PickerInputProps & {
  search: PickerSearch<V>;
  /** The choices to offer (the selected one among them). */
  choices: PickerChoice<V>[];
  selected: PickerChoice<V> | null;
  onChange: (value: V | null) => void;
  fetching: boolean;
  noOptionsText: string;
  /** The spinner is decorative: hidden from assistive technology. */
  spinnerHidden?: boolean;
};

/** An Autocomplete whose choices the server searches as the user types; it never loads a whole table. */
export const ServerPicker = <V extends string | number>({
  search,
  choices,
  selected,
  onChange,
  fetching,
  noOptionsText,
  spinnerHidden = false,
  label,
  required,
  autoFocus,
  error,
  helperText,
  onBlur,
  inputRef,
  placeholder,
  size,
}: ServerPickerProps<V>) => {
  const { t } = useT();
  return (
    <Autocomplete
      options={choices}
      {...(size ? { size } : {})}
      value={selected}
      open={search.open}
      onOpen={() => search.setOpen(true)}
      onClose={() => search.setOpen(false)}
      onChange={(_event, choice) => {
        search.setChosen(choice);
        onChange(choice?.value ?? null);
      }}
      onInputChange={(_event, text, reason) => search.setSearch(reason === 'input' ? text : '')}
      filterOptions={(x) => x}
      getOptionLabel={(c) => c.label}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      loading={fetching}
      loadingText={t('shell.pleaseWait')}
      clearText={t('shell.clear')}
      openText={t('shell.open')}
      closeText={t('shell.close')}
      noOptionsText={noOptionsText}
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
          error={error}
          helperText={helperText}
          inputRef={inputRef}
          onBlur={onBlur}
          placeholder={placeholder}
          slotProps={{
            input: {
              ...params.InputProps,
              endAdornment: (
                <>
                  {fetching && search.open ? (
                    <CircularProgress
                      color="inherit"
                      size={18}
                      aria-hidden={spinnerHidden ? 'true' : undefined}
                    />
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

type SearchPickerProps<TData, V extends string | number, TKey extends QueryKey> = Omit<
  PickerInputProps,
  'helperText'
> & {
  value: V | null;
  /** The current value's label when the caller knows it (e.g. the row's company name). */
  valueLabel?: string | undefined;
  onChange: (value: V | null) => void;
  /** A queryOptions factory: the choices matching the search text `q` (the server searches). */
  query: (q: string) => UseQueryOptions<TData, Error, TData, TKey>;
  toChoices: (data: TData) => PickerChoice<V>[];
  /** Shown under the field when the choices could not be loaded ('Failed to load companies.'). */
  loadErrorText: string;
  /** Load the first page at once (the field's own page) rather than when the list opens. */
  eager?: boolean;
  helperText?: string | undefined;
  /** Orders the server's choices for the text searched (countries: names starting with it first). */
  order?: (choices: PickerChoice<V>[], q: string) => PickerChoice<V>[];
};

const blankToNull = <V extends string | number>(v: V | null | undefined | ''): V | null =>
  v === undefined || v === null || v === '' ? null : v;

/**
 * A picker over a query of choices the server searches as the user types (300 ms debounce). Used
 * for companies and countries.
 */
export const SearchPicker = <TData, V extends string | number, TKey extends QueryKey>({
  value: rawValue,
  valueLabel,
  onChange,
  query,
  toChoices,
  loadErrorText,
  eager = false,
  order,
  error,
  helperText,
  ...input
}: SearchPickerProps<TData, V, TKey>) => {
  const { t } = useT();
  const value = blankToNull(rawValue);
  const search = usePickerSearch<V>();
  const { q, chosen } = search;

  const list = useQuery({ ...query(q), enabled: search.open || eager });
  const choices = useMemo(() => {
    const all = list.data ? toChoices(list.data) : [];
    return order ? order(all, q) : all;
  }, [list.data, toChoices, order, q]);

  const selected = useMemo<PickerChoice<V> | null>(() => {
    if (value === null) return null;
    if (chosen?.value === value) return chosen;
    const found = choices.find((c) => c.value === value);
    if (found) return found;
    return { value, label: valueLabel || String(value) };
  }, [value, chosen, choices, valueLabel]);

  const allChoices = useChoicesWith(choices, selected);
  const failed = list.isError;

  return (
    <ServerPicker
      {...input}
      search={search}
      choices={allChoices}
      selected={selected}
      onChange={onChange}
      fetching={list.isFetching}
      noOptionsText={failed ? loadErrorText : q ? t('shell.noMatches') : t('shell.nothingToChoose')}
      spinnerHidden
      error={error || failed}
      helperText={helperText ?? (failed ? loadErrorText : undefined)}
    />
  );
};
