import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-client.ts';

/** Puts the server's field errors of a failed save under the form's fields of those names. */
export const showFieldErrors = <T extends FieldValues>(
  error: unknown,
  fieldNames: ReadonlySet<string>,
  setError: UseFormSetError<T>,
): void => {
  if (!isApiError(error) || !error.fields) return;
  for (const [name, message] of Object.entries(error.fields)) {
    if (fieldNames.has(name)) setError(name as FieldPath<T>, { message });
  }
};
