import { useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '@kodi/domain';
import type { Language } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';
import type { FormApi } from '../../components/resource/types.ts';
import type { ReferencePickerProps } from '../../components/resource/reference-picker.tsx';
import { ServerPicker, usePickerSearch, type PickerChoice } from '../../components/ui/search-picker.tsx';
import { useT, type Translate } from '../../lib/i18n.ts';

/** A unit as `GET /occupancy/unit-choices` answers it: its rates, and who has it today. */
type UnitChoice = {
  id: number;
  name: string;
  property_name: string | null;
  monthly_rate: number;
  weekly_rate: number;
  daily_rate: number;
  tenant_name: string | null;
  let_from: string | null;
  let_until: string | null;
};

const unitChoices = (q: string) => ({
  // under the units' key: saving a unit or a lease refreshes it
  queryKey: [...resourceKeys.entity('units'), 'choices', q] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get<UnitChoice[]>(`/occupancy/unit-choices${q ? `?q=${encodeURIComponent(q)}` : ''}`, { signal }),
  staleTime: 0,
});

/** 'A1 (Kololo Court) · Vacant', 'A1 · Let to Grace Namuli until Jun 30, 2026' */
export const unitChoiceLabel = (u: UnitChoice, t: Translate, language: Language): string => {
  const name = u.property_name ? `${u.name} (${u.property_name})` : u.name;
  if (!u.tenant_name) return t('entityExtras.vacant', { name });
  return u.let_until
    ? t('entityExtras.letToUntil', { name, tenant: u.tenant_name, date: formatDate(u.let_until, language) })
    : t('entityExtras.letTo', { name, tenant: u.tenant_name });
};

/** The units' rates seen by the pickers, for the form's rate (`prefillRate`). */
const rates = new Map<number, Pick<UnitChoice, 'monthly_rate' | 'weekly_rate' | 'daily_rate'>>();

/**
 * A lease's unit (issue 26): the units by name, vacant ones first, each saying whether it is vacant or
 * whom it is let to; the server still refuses a unit let for the lease's dates (409 unit_occupied).
 */
export const UnitPicker = ({
  field,
  value,
  hint,
  onChange,
  onBlur,
  inputRef,
  error,
  helperText,
}: ReferencePickerProps) => {
  const search = usePickerSearch<number>();
  const { t, language } = useT();
  const list = useQuery({ ...unitChoices(search.q), enabled: search.open });
  const seen = useRef(new Map<number, PickerChoice<number>>());
  const choices = useMemo(() => {
    const out = (list.data ?? []).map((u) => ({ value: u.id, label: unitChoiceLabel(u, t, language) }));
    for (const u of list.data ?? []) rates.set(u.id, u);
    return out;
  }, [list.data, t, language]);
  for (const c of choices) seen.current.set(c.value, c);
  const id = typeof value === 'number' ? value : value ? Number(value) : null;
  const selected: PickerChoice<number> | null =
    id === null
      ? null
      : (seen.current.get(id) ?? (hint?.value === id ? hint : { value: id, label: `#${id}` }));
  return (
    <ServerPicker
      search={search}
      choices={
        selected && !choices.some((c) => c.value === selected.value) ? [selected, ...choices] : choices
      }
      selected={selected}
      onChange={onChange}
      fetching={list.isFetching}
      noOptionsText={search.q ? t('shell.noMatches') : t('shell.nothingToChoose')}
      label={field.label}
      required={field.required}
      error={error}
      helperText={helperText}
      onBlur={onBlur}
      inputRef={inputRef}
    />
  );
};

/** The rate of the lease's cycle, from its unit (chosen in the picker, else read): the form's rate. */
export const prefillRate = async (form: FormApi): Promise<void> => {
  const unit = Number(form.getValue('unit_id'));
  if (!Number.isInteger(unit) || unit <= 0) return;
  const known =
    rates.get(unit) ??
    (await api.get<{ monthly_rate: number; weekly_rate: number; daily_rate: number }>(`/units/${unit}`));
  if (Number(form.getValue('unit_id')) !== unit) return;
  const cycle = String(form.getValue('rent_cycle') ?? 'monthly');
  const rate =
    cycle === 'weekly' ? known.weekly_rate : cycle === 'daily' ? known.daily_rate : known.monthly_rate;
  if (Number(rate) > 0) form.setValue('rate', Number(rate));
};
