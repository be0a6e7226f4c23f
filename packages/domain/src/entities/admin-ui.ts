import { standardMessages } from '../entity.ts';

/**
 * Snackbar texts and timeouts of the administration and reference pages (02-admin §8, §9):
 * '{Entity} saved successfully!' after a create or an edit, 4 s, 6 s for delete errors, no 'Error: ' prefix.
 */
export const adminSnackbar = (
  singular: string,
  plural: string,
  overrides: Partial<ReturnType<typeof standardMessages>> = {},
) => ({
  messages: {
    ...standardMessages(singular, plural),
    created: `${singular} saved successfully!`,
    updated: `${singular} saved successfully!`,
    ...overrides,
  },
  errorPrefix: false,
  timeouts: { success: 4000, error: 4000, saveError: 4000, deleteError: 6000 },
});

/** Countries and currencies: 'Failed to save {entity}.', '{Entity} created/updated successfully!' (02-admin §8). */
export const referenceSnackbar = (singular: string, plural: string) => {
  const standard = standardMessages(singular, plural);
  return adminSnackbar(singular, plural, {
    saveFailed: `Failed to save ${singular.toLowerCase()}.`,
    created: standard.created,
    updated: standard.updated,
  });
};

/** The text of a value in a confirmation ('' when absent). */
export const shown = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
