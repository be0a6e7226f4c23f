import { useMemo } from 'react';
import {
  formatDate,
  type Column,
  type EntityDefinition,
  type EntityUi,
  type Field,
  type Language,
  type OptionList,
} from '@kodi/domain';
import {
  deleteConfirmFields,
  deleteConfirmMessage,
  entityKey,
  pageEnglish,
} from '@kodi/domain/i18n/entity-texts';
import { useT, type TranslateDerived } from './i18n.ts';
import { useTexts } from './texts.ts';

/**
 * An entity's definition in the page's language (issue 30): the same definition, its texts (title,
 * labels, options, snackbar messages, the delete confirmation) read from the catalogues' `entity`
 * namespace by the keys derived from the definition (packages/domain/src/i18n/entity-texts.ts), its
 * English where a key has no message yet. The generic pages and dialogs read the definition they are
 * given, so they show the language without a text of their own per entity. Loads the `entity` group
 * when first used outside an entity's route (the route loads it beside its code).
 */
export const useLocalizedDefinition = <D extends EntityDefinition>(def: D): D => {
  useTexts('entity');
  const { td, language } = useT();
  return useMemo(() => localize(def, td, language), [def, td, language]);
};

const k = (key: string) => `entity.${key}`;

const localize = <D extends EntityDefinition>(def: D, td: TranslateDerived, language: Language): D => {
  if (language === 'en') return def;
  const n = def.name;
  const options = (f: Field): OptionList | undefined =>
    f.options && {
      values: f.options.values,
      labels: Object.fromEntries(
        f.options.values.map((v) => [v, td(k(entityKey.option(n, f.name, v)), f.options?.labels[v] ?? v)]),
      ),
    };
  const fields = def.fields.map((f): Field => ({
    ...f,
    label: td(k(entityKey.field(n, f.name)), f.label),
    ...(f.helperText ? { helperText: td(k(entityKey.help(n, f.name)), f.helperText) } : {}),
    ...(f.options ? { options: options(f) } : {}),
  }));
  const columns = def.columns.map((c): Column => {
    const f = fields.find((candidate) => candidate.name === c.field);
    const own = def.fields.find((candidate) => candidate.name === c.field);
    return {
      ...c,
      label: own && own.label === c.label && f ? f.label : td(k(entityKey.column(n, c.field)), c.label),
    };
  });
  const page = (text: Parameters<typeof pageEnglish>[1]) =>
    td(k(entityKey.page(n, text)), pageEnglish(def, text) ?? '');
  const confirm = deleteConfirmMessage(def);
  const shownValue = (row: Record<string, unknown>, name: string): string => {
    const value = row[name];
    if (value === null || value === undefined) return '';
    const f = fields.find((candidate) => candidate.name === name);
    if (f?.kind === 'date') return formatDate(String(value), language);
    if (f?.options) return f.options.labels[String(value)] ?? String(value);
    return String(value);
  };
  const ui: EntityUi = {
    ...def.ui,
    title: page('title'),
    searchLabel: page('searchLabel'),
    emptyText: page('emptyText'),
    formTitle: { create: page('formCreate'), edit: page('formEdit') },
    detailsTitle: page('detailsTitle'),
    ...(def.ui.expandEmpty ? { expandEmpty: page('expandEmpty') } : {}),
    deleteConfirm: (row) =>
      td(
        k(entityKey.page(n, 'deleteConfirm')),
        confirm,
        Object.fromEntries(deleteConfirmFields(confirm).map((name) => [name, shownValue(row, name)])),
      ),
    messages: Object.fromEntries(
      Object.entries(def.ui.messages).map(([m, english]) => [m, td(k(entityKey.message(n, m)), english)]),
    ) as EntityUi['messages'],
  };
  // the definition's other properties as they are (its `shape` stays built on first use)
  const localized = Object.defineProperties({}, Object.getOwnPropertyDescriptors(def)) as D;
  return Object.assign(localized, { fields, columns, ui });
};
