import { messages } from '@kodi/domain';
import type { MessageKey } from '@kodi/domain/i18n/web';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useValidationText, type Translate } from '../../lib/i18n.ts';
import { ERROR_MS, SUCCESS_MS } from './user-texts.ts';

type SaveOptions = {
  /** The snackbar's text when the save fails. */
  failure: (error: unknown) => string;
  /** How long that snackbar stays: 4 s, 6 s for a destructive change. */
  failureMs?: number;
  /** Before the failure's snackbar (e.g. the server's field errors under the fields). */
  onError?: (error: unknown) => void;
};

/** `Failed to update roles: <the server's message>` ('Server error' without one). */
export const failedTo = (t: Translate, key: MessageKey) => (e: unknown) =>
  t(key, { error: errorMessage(e, t('users.serverError')) });

/**
 * The snackbars of the user dialogs (4 s, unless an error says otherwise) and their save: `save`
 * runs the call, shows the message it answers and calls `onDone` (the dialog closes), or shows what
 * went wrong.
 */
export const useUserFeedback = (onDone: () => void) => {
  const { showSnackbar } = useSnackbar();
  const validationText = useValidationText();
  const save = async (
    action: () => Promise<string>,
    { failure, failureMs = ERROR_MS, onError }: SaveOptions,
  ) => {
    try {
      const message = await action();
      showSnackbar({ message, severity: 'success', autoHideDuration: SUCCESS_MS });
      onDone();
    } catch (e) {
      onError?.(e);
      showSnackbar({ message: failure(e), severity: 'error', autoHideDuration: failureMs });
    }
  };
  /** The form has errors: 'Please correct the errors in the form.' */
  const invalid = () =>
    showSnackbar({
      message: validationText(messages.formInvalid) ?? messages.formInvalid,
      severity: 'warning',
      autoHideDuration: SUCCESS_MS,
    });
  return { save, invalid };
};
