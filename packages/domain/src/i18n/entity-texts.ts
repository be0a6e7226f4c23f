import type { EntityDefinition } from '../entity.ts';
import { formatDate } from '../dates.ts';

/**
 * The texts of an entity's definition, each with its catalogue key (issue 30): the keys follow from
 * the definition itself, never from a list of entities. Keys are the catalogues' `entity` namespace's
 * (`entity.tenants.field.first_name`); the English is the definition's own words, which a test
 * (catalogues.test.ts) compares with en.json's, and the web falls back to when a key has no message.
 *
 * - `<entity>.title`, `.searchLabel`, `.emptyText`, `.formCreate`, `.formEdit`, `.detailsTitle`,
 *   `.expandEmpty`, `.msg.<message>` (the snackbar's), `.deleteConfirm`: an ICU message whose
 *   arguments are the row's fields as shown (`{first_name}`), found by calling the definition's
 *   confirmation with a row of placeholders;
 * - `<entity>.field.<field>` (its label), `.help.<field>` (its helper text),
 *   `.option.<field>.<value>` (an enum's value's label), `.column.<field>` (a column labelled
 *   otherwise than its field).
 */
export type EntityText = { key: string; english: string };

/** The keys of an entity's texts, without the `entity.` namespace (the web adds it). */
export const entityKey = {
  page: (entity: string, text: EntityPageText) => `${entity}.${text}`,
  message: (entity: string, message: string) => `${entity}.msg.${message}`,
  field: (entity: string, field: string) => `${entity}.field.${field}`,
  help: (entity: string, field: string) => `${entity}.help.${field}`,
  option: (entity: string, field: string, value: string) => `${entity}.option.${field}.${value}`,
  column: (entity: string, field: string) => `${entity}.column.${field}`,
};

export type EntityPageText =
  | 'title'
  | 'searchLabel'
  | 'emptyText'
  | 'formCreate'
  | 'formEdit'
  | 'detailsTitle'
  | 'expandEmpty'
  | 'deleteConfirm';

/** A definition's page texts. */
export const entityPageTexts = (def: EntityDefinition): EntityText[] => {
  const n = def.name;
  const page = (text: EntityPageText, english: string | undefined) =>
    english === undefined ? [] : [{ key: entityKey.page(n, text), english }];
  return [
    ...(
      ['title', 'searchLabel', 'emptyText', 'formCreate', 'formEdit', 'detailsTitle', 'expandEmpty'] as const
    ).flatMap((text) => page(text, pageEnglish(def, text))),
    ...page('deleteConfirm', deleteConfirmMessage(def)),
    ...Object.entries(def.ui.messages).map(([k, english]) => ({ key: entityKey.message(n, k), english })),
  ];
};

/** A page text's English, as the definition states it. */
export const pageEnglish = (def: EntityDefinition, text: Exclude<EntityPageText, 'deleteConfirm'>) => {
  const { ui } = def;
  switch (text) {
    case 'formCreate':
      return ui.formTitle.create;
    case 'formEdit':
      return ui.formTitle.edit;
    default:
      return ui[text];
  }
};

/** A definition's fields' texts: labels, helper texts, options' labels, columns' own labels. */
export const entityFieldTexts = (def: EntityDefinition): EntityText[] => {
  const n = def.name;
  const out: EntityText[] = [];
  for (const f of def.fields) {
    out.push({ key: entityKey.field(n, f.name), english: f.label });
    if (f.helperText) out.push({ key: entityKey.help(n, f.name), english: f.helperText });
    for (const value of f.options?.values ?? [])
      out.push({ key: entityKey.option(n, f.name, value), english: f.options?.labels[value] ?? value });
  }
  for (const c of def.columns) {
    const f = def.fields.find((candidate) => candidate.name === c.field);
    if (!f || f.label !== c.label) out.push({ key: entityKey.column(n, c.field), english: c.label });
  }
  return out;
};

/** Every text of a definition with its key (without the `entity.` namespace). */
export const entityTexts = (def: EntityDefinition): EntityText[] => [
  ...entityPageTexts(def),
  ...entityFieldTexts(def),
];

/** A far date per date field, whose English rendering the confirmation's text gives back as `{field}`. */
const sentinelDate = (index: number) => `2999-01-${String(index + 1).padStart(2, '0')}`;

/**
 * The delete confirmation as an ICU message: the definition's function called with a row of
 * placeholders (a date field a far date, recognised in its formatted form), so that its words stay the
 * definition's. The web gives each `{field}` the row's value as the list shows it.
 */
export const deleteConfirmMessage = (def: EntityDefinition): string => {
  const dates = def.fields.filter((f) => f.kind === 'date').map((f) => f.name);
  const row = new Proxy<Record<string, unknown>>(
    {},
    {
      get: (_, name) => {
        if (typeof name !== 'string') return undefined;
        const i = dates.indexOf(name);
        return i >= 0 ? sentinelDate(i) : `{${name}}`;
      },
    },
  );
  let text = def.ui.deleteConfirm(row);
  dates.forEach((name, i) => {
    text = text.replaceAll(formatDate(sentinelDate(i)), `{${name}}`).replaceAll(sentinelDate(i), `{${name}}`);
  });
  return text;
};

/** The arguments of a derived confirmation: the field names between braces. */
export const deleteConfirmFields = (message: string): string[] =>
  [...message.matchAll(/\{([a-z_0-9]+)\}/g)].map((m) => m[1] ?? '');
