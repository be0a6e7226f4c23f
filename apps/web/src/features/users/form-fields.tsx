import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { FormEmailField, FormTextField, type FieldOf } from '../../components/ui/form-text-field.tsx';
import { useT } from '../../lib/i18n.ts';

/** The Active switch. */
export const ActiveSwitch = <T extends FieldValues, V = T>({
  label,
  ...field
}: FieldOf<T, V> & { label: string }) => (
  <Controller
    {...field}
    render={({ field: input }) => (
      <FormControlLabel
        label={label}
        control={
          <Switch
            checked={input.value === true}
            onChange={(e) => input.onChange(e.target.checked)}
            onBlur={input.onBlur}
            inputRef={input.ref}
            name={input.name}
          />
        }
      />
    )}
  />
);

type UserFieldsProps<T extends FieldValues, V> = { control: Control<T, unknown, V> };

/** The required e-mail of a user (the dialog's first field). */
export const EmailInput = <T extends FieldValues, V = T>({ control }: UserFieldsProps<T, V>) => (
  <FormEmailField control={control} name={'email' as FieldPath<T>} autoComplete="off" />
);

const NAME_FIELDS = [
  ['first_name', 'users.firstName'],
  ['last_name', 'users.lastName'],
] as const;

/** First and last name, side by side from the small breakpoint up. */
export const NameInputs = <T extends FieldValues, V = T>({ control }: UserFieldsProps<T, V>) => {
  const { t } = useT();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      {NAME_FIELDS.map(([name, label]) => (
        <FormTextField
          key={name}
          control={control}
          name={name as FieldPath<T>}
          label={t(label)}
          autoComplete="off"
          required
        />
      ))}
    </Stack>
  );
};
