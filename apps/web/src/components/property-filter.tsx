import { useEffect, useMemo } from 'react';
import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { isApiError } from '../lib/api-client.ts';
import { useRememberedProperty, useSelectedProperty } from '../lib/property-filter.ts';
import { pickerQuery, recordQuery, type ResourceRow } from '../lib/resources.ts';
import { ServerPicker, useChoicesWith, usePickerSearch, type PickerChoice } from './ui/search-picker.tsx';
import { useT } from '../lib/i18n.ts';

const choiceOf = (row: ResourceRow): PickerChoice<number> => ({
  value: row.id,
  label: typeof row.name === 'string' && row.name ? row.name : `#${row.id}`,
});

/**
 * The property selector of the pages that show one property's rows: an Autocomplete that searches
 * the properties on the server as the user types; empty means all properties. The choice is the
 * URL's `property_id`, remembered for the user (lib/property-filter.ts). A property that is gone
 * (or another company's) is forgotten.
 */
export const PropertyFilter = () => {
  const { t } = useT();
  useRememberedProperty();
  const { propertyId, propertyName, setProperty } = useSelectedProperty();
  const search = usePickerSearch<number>();
  const { q, chosen } = search;
  const list = useQuery({ ...pickerQuery('properties', q), enabled: search.open });
  const choices = useMemo(() => (list.data?.rows ?? []).map(choiceOf), [list.data]);

  const known =
    propertyId === null
      ? null
      : chosen?.value === propertyId
        ? chosen
        : propertyName
          ? { value: propertyId, label: propertyName }
          : (choices.find((c) => c.value === propertyId) ?? null);
  const lookup = useQuery({
    ...recordQuery('properties', propertyId ?? 0),
    enabled: propertyId !== null && known === null,
    staleTime: 60_000,
    retry: false,
    select: choiceOf,
  });
  const gone = lookup.isError && isApiError(lookup.error) && lookup.error.status === 404;
  useEffect(() => {
    if (gone) setProperty(null);
  }, [gone, setProperty]);

  const label = known?.label ?? lookup.data?.label ?? t('shell.loadingDots');
  const selected = useMemo<PickerChoice<number> | null>(
    () => (propertyId === null ? null : { value: propertyId, label }),
    [propertyId, label],
  );
  const all = useChoicesWith(choices, selected);

  return (
    <Box sx={{ width: { xs: '100%', sm: 260 }, flexShrink: 0 }}>
      <ServerPicker
        search={search}
        choices={all}
        selected={selected}
        onChange={(id) => setProperty(id, all.find((c) => c.value === id)?.label)}
        fetching={list.isFetching}
        noOptionsText={q ? t('shell.noMatches') : t('shell.noPropertiesYet')}
        spinnerHidden
        label={t('shell.property')}
        placeholder={t('shell.allProperties')}
        size="small"
      />
    </Box>
  );
};
