import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { PasswordField } from '../../components/password-field.tsx';

type FieldProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  autoComplete?: string;
  autoFocus?: boolean;
  type?: string;
  helperText?: string;
};

/** A required text field of a react-hook-form form. */
export const TextInput = <T extends FieldValues>({
  control,
  name,
  label,
  autoComplete,
  autoFocus,
  type,
  helperText,
}: FieldProps<T>) => (
  <Controller
    name={name}
    control={control}
    render={({ field, fieldState }) => (
      <TextField
        {...field}
        value={(field.value as string | undefined) ?? ''}
        inputRef={field.ref}
        label={label}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        required
        fullWidth
        error={!!fieldState.error}
        helperText={fieldState.error?.message ?? helperText}
      />
    )}
  />
);

/** A required password field (show/hide toggle). */
export const PasswordInput = <T extends FieldValues>({
  control,
  name,
  label,
  autoComplete = 'new-password',
  helperText,
}: FieldProps<T>) => (
  <Controller
    name={name}
    control={control}
    render={({ field, fieldState }) => (
      <PasswordField
        {...field}
        value={(field.value as string | undefined) ?? ''}
        inputRef={field.ref}
        label={label}
        autoComplete={autoComplete}
        required
        fullWidth
        error={!!fieldState.error}
        helperText={fieldState.error?.message ?? helperText}
      />
    )}
  />
);

/** The Active switch. */
export const ActiveSwitch = <T extends FieldValues>({
  control,
  name,
  label,
}: Omit<FieldProps<T>, 'autoComplete' | 'autoFocus' | 'type' | 'helperText'>) => (
  <Controller
    name={name}
    control={control}
    render={({ field }) => (
      <FormControlLabel
        label={label}
        control={
          <Switch
            checked={field.value === true}
            onChange={(e) => field.onChange(e.target.checked)}
            onBlur={field.onBlur}
            inputRef={field.ref}
            name={field.name}
          />
        }
      />
    )}
  />
);
