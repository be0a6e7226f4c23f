import { roleDescriptions, roleLabels, type RoleName } from '@kodi/domain';
import type { TranslateDerived } from '../../lib/i18n.ts';

/**
 * The User Roles page's timings (02-admin §8, §9); its texts are the catalogues' `users` namespace
 * (issue 30). A role's name and description are keyed by the role (`users.role.<name>`,
 * `users.roleDescription.<name>`), their English the domain's `roleLabels` and `roleDescriptions`.
 */
export const roleText = (td: TranslateDerived, name: string, english?: string): string =>
  td(`users.role.${name}`, english ?? roleLabels[name as RoleName] ?? name);

export const roleDescriptionText = (td: TranslateDerived, name: string): string | undefined =>
  name in roleDescriptions
    ? td(`users.roleDescription.${name}`, roleDescriptions[name as keyof typeof roleDescriptions])
    : undefined;

/** Snackbar timeouts: 4 s, and 6 s for destructive errors (enable/disable). */
export const SUCCESS_MS = 4000;
export const ERROR_MS = 4000;
export const DESTRUCTIVE_ERROR_MS = 6000;
