import { standardMessages, type EntityUi } from '../entity.ts';

type Page = EntityUi;
type Family = Pick<EntityUi, 'messages' | 'errorPrefix' | 'timeouts'>;

/** What a page states itself; its other texts follow from the entity's nouns (see `pages`). */
export type PageSpec = Pick<EntityUi, 'searchLabel' | 'deleteConfirm'> &
  Partial<Omit<Page, 'searchLabel' | 'deleteConfirm' | 'messages'>> & {
    /** how the dialogs name a record ('New Payment'), when not by the singular ('Payment record'). */
    noun?: string;
    /** the snackbar texts that are not the family's. */
    messages?: Partial<EntityUi['messages']>;
  };

/** 'Commission wage' → 'Commission Wage'. */
const titleCase = (s: string) => s.replace(/\b\w/g, (c) => c.toUpperCase());

/**
 * The nouns of an entity and its pages: titled with the plural ('Maintenance Requests'), 'No {plural}
 * available or match your search.', 600 px dialogs titled 'New {Noun}', 'Edit {Noun}', '{Noun} Details',
 * and the snackbar of its family, unless the spec says otherwise.
 */
const pages = (
  singular: string,
  plural: string,
  { noun = singular, messages, ...spec }: PageSpec,
  family: (noun: string) => Family,
): { singular: string; plural: string; ui: Page } => {
  const { messages: familyMessages, ...snackbar } = family(noun);
  return {
    singular,
    plural,
    ui: {
      title: titleCase(plural),
      emptyText: `No ${plural} available or match your search.`,
      dialogWidth: 600,
      formTitle: { create: `New ${titleCase(noun)}`, edit: `Edit ${titleCase(noun)}` },
      detailsTitle: `${titleCase(noun)} Details`,
      ...snackbar,
      ...spec,
      messages: { ...familyMessages, ...messages },
    },
  };
};

/**
 * The administration pages (02-admin §8, §9): '{Entity} saved successfully!' after a create or an edit,
 * 4 s, 6 s for delete errors, no 'Error: ' prefix.
 */
export const adminPages = (singular: string, plural: string, spec: PageSpec) =>
  pages(singular, plural, spec, (noun) => ({
    messages: {
      ...standardMessages(singular, plural, noun),
      created: `${singular} saved successfully!`,
      updated: `${singular} saved successfully!`,
    },
    errorPrefix: false,
    timeouts: { success: 4000, error: 4000, saveError: 4000, deleteError: 6000 },
  }));

/** Countries and currencies: as `adminPages`, but 'Failed to save {entity}.', '{Entity} created/updated successfully!'. */
export const referencePages = (singular: string, plural: string, spec: PageSpec) => {
  const { created, updated } = standardMessages(singular, plural);
  const saveFailed = `Failed to save ${singular.toLowerCase()}.`;
  return adminPages(singular, plural, {
    ...spec,
    messages: { saveFailed, created, updated, ...spec.messages },
  });
};

/** The operations pages (01-core §8, §9): the standard snackbar texts; each page its own timeouts. */
export const corePages = (
  singular: string,
  plural: string,
  { errorPrefix, timeouts, ...spec }: PageSpec & Pick<EntityUi, 'errorPrefix' | 'timeouts'>,
) =>
  pages(singular, plural, spec, (noun) => ({
    messages: standardMessages(singular, plural, noun),
    errorPrefix,
    timeouts,
  }));

/** The text of a value in a confirmation ('' when absent). */
export const shown = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
