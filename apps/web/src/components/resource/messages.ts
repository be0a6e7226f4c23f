import type { EntityDefinition } from '@kodi/domain';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { i18n } from '../../lib/i18n.ts';

/** 'Error: ' before an entity's error messages when its definition asks for it (01-core §8). */
export const withErrorPrefix = (def: EntityDefinition, message: string): string => {
  if (!def.ui.errorPrefix) return message;
  const prefix = i18n._('resource.errorPrefix', { message: '' }); // 'Error: ' in the page's language
  return message.startsWith(prefix) ? message : i18n._('resource.errorPrefix', { message });
};

/** A failed list load: on 401/403 the server's text or 'You are not authorized...', else 'Failed to load...'. */
export const loadErrorText = (def: EntityDefinition, error: unknown): string =>
  withErrorPrefix(
    def,
    isApiError(error) && (error.status === 401 || error.status === 403)
      ? errorMessage(error, def.ui.messages.notAuthorized)
      : def.ui.messages.loadFailed,
  );

/** A failed save, delete or details load: the server's `error`, else the fallback. */
export const actionErrorText = (def: EntityDefinition, error: unknown, fallback: string): string =>
  withErrorPrefix(def, errorMessage(error, fallback));
