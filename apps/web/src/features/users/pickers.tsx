import type { FocusEventHandler, Ref } from 'react';
import { Controller, type FieldValues } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { FieldOf } from '../../components/ui/form-text-field.tsx';
import { SearchPicker, type PickerChoice } from '../../components/ui/search-picker.tsx';
import { prefixFirst } from '../../components/ui/choice-order.ts';
import { listQuery, pickerQuery, type ListResult } from '../../lib/resources.ts';
import { useT } from '../../lib/i18n.ts';

type PickerFieldProps<V> = {
  value: V | null;
  valueLabel?: string;
  onChange: (value: V | null) => void;
  onBlur?: FocusEventHandler;
  inputRef?: Ref<HTMLInputElement>;
  error?: boolean;
  helperText?: string;
};

const companiesQuery = (q: string) => pickerQuery('companies', q);
/**
 * The countries matching the search, by name: the whole list is a few hundred rows, so every match
 * is read and those whose name starts with the text come first ('Ug' → Uganda before Portugal).
 */
export const COUNTRIES_PAGE_SIZE = 300;
const countriesQuery = (q: string) =>
  listQuery('countries', {
    page: 0,
    pageSize: COUNTRIES_PAGE_SIZE,
    q: q.trim() || undefined,
    sort: 'country_name',
  });

// signed out (the register form) the companies list answers only ids and names
const companyChoices = (data: { rows: Pick<ListResult<'companies'>['rows'][number], 'id' | 'name'>[] }) =>
  data.rows.map((row): PickerChoice<number> => ({ value: row.id, label: row.name || `#${row.id}` }));

const countryChoices = (data: ListResult<'countries'>): PickerChoice<string>[] =>
  data.rows.map((row) => ({
    value: row.country_code,
    label: `${row.country_name || row.country_code} (${row.country_code})`,
  }));

/** A company of the installation (`GET /companies?q=...&page_size=20`). */
export const CompanyField = (props: PickerFieldProps<number>) => {
  const { t } = useT();
  return (
    <SearchPicker
      {...props}
      label={t('users.company')}
      required
      query={companiesQuery}
      toChoices={companyChoices}
      loadErrorText={t('users.companiesLoadFailed')}
    />
  );
};

/** A country of the countries list, by its 3-letter code (`GET /countries?q=...&page_size=20`). */
export const CountryField = (props: PickerFieldProps<string>) => {
  const { t } = useT();
  const code = props.value ?? '';
  // The name of a country set before the list was opened (a stored profile): looked up by its code.
  const known = useQuery({
    ...countriesQuery(code),
    enabled: code !== '' && !props.valueLabel,
    select: (data: ListResult<'countries'>) => countryChoices(data).find((c) => c.value === code)?.label,
  });
  return (
    <SearchPicker
      {...props}
      valueLabel={props.valueLabel ?? known.data}
      label={t('users.country')}
      required
      query={countriesQuery}
      toChoices={countryChoices}
      order={prefixFirst}
      loadErrorText={t('users.countriesLoadFailed')}
    />
  );
};

/** The label of the form's first value (the stored company's name). */
type CompanyInputProps<T extends FieldValues, V> = FieldOf<T, V> & {
  valueLabel?: (value: unknown) => string | undefined;
};

/** The Company field of a react-hook-form form. */
export const CompanyInput = <T extends FieldValues, V = T>({
  valueLabel,
  ...field
}: CompanyInputProps<T, V>) => (
  <Controller
    {...field}
    render={({ field: input, fieldState }) => (
      <CompanyField
        value={typeof input.value === 'number' ? input.value : null}
        valueLabel={valueLabel?.(input.value)}
        onChange={input.onChange}
        onBlur={input.onBlur}
        inputRef={input.ref}
        error={!!fieldState.error}
        helperText={fieldState.error?.message}
      />
    )}
  />
);

/** The Country field of a react-hook-form form: the 3-letter code, '' for none. */
export const CountryInput = <T extends FieldValues, V = T>(field: FieldOf<T, V>) => (
  <Controller
    {...field}
    render={({ field: input, fieldState }) => (
      <CountryField
        value={typeof input.value === 'string' && input.value ? input.value : null}
        onChange={(code) => input.onChange(code ?? '')}
        onBlur={input.onBlur}
        inputRef={input.ref}
        error={!!fieldState.error}
        helperText={fieldState.error?.message}
      />
    )}
  />
);
