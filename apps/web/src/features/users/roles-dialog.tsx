import { useId } from 'react';
import { Controller, useForm, useWatch, type FieldValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { userRolesBody, type ManagedUser, type Role } from '@kodi/domain';
import { PageLoader } from '../../components/page-loader.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import type { FieldOf } from '../../components/ui/form-text-field.tsx';
import { rolesQuery, useUserMutations } from './users-api.ts';
import { useT } from '../../lib/i18n.ts';
import { roleDescriptionText, roleText } from './user-texts.ts';
import { failedTo, useUserFeedback } from './use-user-feedback.ts';

type RolesInput = z.input<typeof userRolesBody>;
type RolesValues = z.output<typeof userRolesBody>;

type RoleChecklistProps = {
  roles: Role[];
  value: readonly string[];
  onChange: (roles: string[]) => void;
  error?: string;
  label: string;
};

/** The server's roles as checkboxes, in a labelled group. */
export const RoleChecklist = ({ roles, value, onChange, error, label }: RoleChecklistProps) => {
  const helperId = useId();
  const { td } = useT();
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value.filter((r) => r !== name), name] : value.filter((r) => r !== name));
  return (
    <FormControl component="fieldset" error={!!error} variant="standard">
      <FormLabel component="legend">{label}</FormLabel>
      <FormGroup aria-describedby={error ? helperId : undefined}>
        {roles.map((role) => {
          const description = roleDescriptionText(td, role.name);
          return (
            <FormControlLabel
              key={role.name}
              sx={{ alignItems: 'flex-start', mb: 0.5, '& .MuiCheckbox-root': { mt: -0.75 } }}
              label={
                <>
                  {roleText(td, role.name, role.readable_name)}
                  {description && (
                    <Typography
                      component="span"
                      variant="body2"
                      color="text.secondary"
                      sx={{ display: 'block' }}
                    >
                      {description}
                    </Typography>
                  )}
                </>
              }
              control={
                <Checkbox
                  checked={value.includes(role.name)}
                  onChange={(e) => toggle(role.name, e.target.checked)}
                  name={role.name}
                />
              }
            />
          );
        })}
      </FormGroup>
      {error && <FormHelperText id={helperId}>{error}</FormHelperText>}
    </FormControl>
  );
};

type RolesInputProps<T extends FieldValues, V> = FieldOf<T, V> & { label: string; roles: Role[] };

/** The roles of a react-hook-form form, as a checklist. */
export const RolesInput = <T extends FieldValues, V = T>({
  label,
  roles,
  ...field
}: RolesInputProps<T, V>) => (
  <Controller
    {...field}
    render={({ field: input, fieldState }) => (
      <RoleChecklist
        label={label}
        roles={roles}
        value={(input.value as string[] | undefined) ?? []}
        onChange={input.onChange}
        error={fieldState.error?.message}
      />
    )}
  />
);

export type UserDialogProps = {
  open: boolean;
  user: ManagedUser;
  onClose: () => void;
};

/** Edit Roles: at least one role, from `GET /roles` (02-admin §5 'Roles edit'). */
export const RolesDialog = ({ user, ...dialog }: UserDialogProps) => {
  const { t } = useT();
  const feedback = useUserFeedback(dialog.onClose);
  const { updateRoles } = useUserMutations();
  const roles = useQuery(rolesQuery());
  const { control, handleSubmit } = useForm<RolesInput, unknown, RolesValues>({
    resolver: zodResolver(userRolesBody),
    defaultValues: { roles: user.roles },
  });
  const chosen = useWatch({ control, name: 'roles' }) ?? [];

  const onValid = (values: RolesValues) =>
    feedback.save(
      async () => {
        await updateRoles.mutateAsync({ id: user.id, body: values });
        return t('users.rolesUpdated', { email: user.email });
      },
      { failure: failedTo(t, 'users.failedRoles') },
    );

  return (
    <FormDialog
      {...dialog}
      busy={updateRoles.isPending}
      title={t('users.editRoles')}
      maxWidth="xs"
      onSubmit={(e) => void handleSubmit(onValid)(e)}
      submitLabel={t('shell.save')}
      submitDisabled={!roles.isSuccess}
    >
      <Stack spacing={2}>
        <Typography variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
          {user.email}
        </Typography>
        {roles.isPending ? (
          <PageLoader />
        ) : roles.isError ? (
          <Alert severity="error">{t('users.rolesLoadFailed')}</Alert>
        ) : (
          <RolesInput control={control} name="roles" label={t('users.roles')} roles={roles.data} />
        )}
        {chosen.length === 0 && <Alert severity="warning">{t('users.rolesWarning')}</Alert>}
      </Stack>
    </FormDialog>
  );
};
