import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { PasswordField } from '../password-field.tsx';
import { TextInput, type TextInputProps } from './text-input.tsx';
import { useT, useValidationText } from '../../lib/i18n.ts';
import { useTexts } from '../../lib/texts.ts';

/** A field of a react-hook-form form: the form's control and the field's name. */
export type FieldOf<T extends FieldValues, V> = { control: Control<T, unknown, V>; name: FieldPath<T> };

export type FormTextFieldProps<T extends FieldValues, V> = Omit<
  TextInputProps,
  | 'name'
  | 'value'
  | 'onChange'
  | 'onBlur'
  | 'inputRef'
  | 'ref'
  | 'error'
  | 'fullWidth'
  | 'helperText'
  | 'endAdornment'
> &
  FieldOf<T, V> & {
    /** Shown under the field while it has no error. */
    helperText?: string;
    /** A password field with its 'Show password' / 'Hide password' toggle. */
    password?: boolean;
  };

/** A full-width text field of a react-hook-form form, its error message under it (in the page's language). */
export const FormTextField = <T extends FieldValues, V = T>({
  control,
  name,
  helperText,
  password = false,
  ...props
}: FormTextFieldProps<T, V>) => {
  const translated = useValidationText();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { ref, ...field }, fieldState }) => {
        const Input = password ? PasswordField : TextInput;
        // the ref goes to the <input> alone, so that a failed submit focuses the first invalid field
        return (
          <Input
            {...field}
            value={(field.value as string | null | undefined) ?? ''}
            inputRef={ref}
            {...props}
            fullWidth
            error={!!fieldState.error}
            helperText={translated(fieldState.error?.message) ?? helperText}
          />
        );
      }}
    />
  );
};

/** A full-width password field of a react-hook-form form (show/hide toggle). */
export const FormPasswordField = <T extends FieldValues, V = T>(
  props: Omit<FormTextFieldProps<T, V>, 'password' | 'type'>,
) => <FormTextField {...props} password />;

/** The e-mail field of a form (required unless `required` is false), focused first. */
export const FormEmailField = <T extends FieldValues, V = T>({
  control,
  name,
  autoComplete,
  required = true,
}: FieldOf<T, V> & { autoComplete: string; required?: boolean }) => {
  const { t } = useT();
  return (
    <FormTextField
      control={control}
      name={name}
      label={t('common.email')}
      type="email"
      autoComplete={autoComplete}
      autoFocus
      required={required}
    />
  );
};

type NewPasswordFieldsProps<T extends FieldValues, V> = FieldOf<T, V> & {
  /** The confirmation's field; none without it. */
  confirmName?: FieldPath<T>;
  /** The first password of a new account: 'Password' rather than 'New password'. */
  newAccount?: boolean;
  autoFocus?: boolean;
};

/** A new password ('At least 8 characters.') and, with `confirmName`, its confirmation. */
export const NewPasswordFields = <T extends FieldValues, V = T>({
  confirmName,
  newAccount = false,
  autoFocus,
  ...field
}: NewPasswordFieldsProps<T, V>) => {
  const { t } = useT();
  useTexts('auth'); // the sign-up pages' texts (loaded with those pages; here for the users' dialogs)
  return (
    <>
      <FormPasswordField
        {...field}
        label={t(newAccount ? 'common.password' : 'auth.newPassword')}
        autoComplete="new-password"
        autoFocus={autoFocus}
        required
        helperText={t('auth.passwordHelp')}
      />
      {confirmName && (
        <FormPasswordField
          control={field.control}
          name={confirmName}
          label={t(newAccount ? 'auth.confirmPassword' : 'auth.confirmNewPassword')}
          autoComplete="new-password"
          required
        />
      )}
    </>
  );
};
