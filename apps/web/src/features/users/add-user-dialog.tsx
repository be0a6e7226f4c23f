import { useId } from 'react';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { addUserForm, messages } from '@kodi/domain';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { ActiveSwitch, PasswordInput, TextInput } from './form-fields.tsx';
import { CompanyField, CountryField } from './pickers.tsx';
import { RoleChecklist } from './roles-dialog.tsx';
import { ADD_FAILED, dialogForm, ERROR_MS, ROLES_LOAD_FAILED, SUCCESS_MS, USER_ADDED } from './user-texts.ts';
import { rolesQuery, useUserMutations } from './users-api.ts';

type AddInput = z.input<typeof addUserForm>;
type AddValues = z.output<typeof addUserForm>;

const fieldNames = new Set([
  'email',
  'first_name',
  'last_name',
  'company_id',
  'country_code',
  'active',
  'password',
  'roles',
]);

type AddUserDialogProps = { open: boolean; onClose: () => void; onAdded: () => void };

/** Add user (canEdit): every field required but the roles (02-admin §5 'Add user'). */
export const AddUserDialog = ({ open, onClose, onAdded }: AddUserDialogProps) => {
  const { showSnackbar } = useSnackbar();
  const { addUser } = useUserMutations();
  const roles = useQuery({ ...rolesQuery(), enabled: open });
  const titleId = useId();

  const { control, handleSubmit, setError } = useForm<AddInput, unknown, AddValues>({
    resolver: zodResolver(addUserForm),
    defaultValues: {
      email: '',
      first_name: '',
      last_name: '',
      company_id: null,
      country_code: '',
      active: true,
      password: '',
      confirm_password: '',
      roles: [],
    },
  });

  const onValid = async (values: AddValues) => {
    const { confirm_password: _confirm, ...body } = values;
    try {
      await addUser.mutateAsync(body);
      showSnackbar({ message: USER_ADDED, severity: 'success', autoHideDuration: SUCCESS_MS });
      onAdded();
      onClose();
    } catch (e) {
      if (isApiError(e) && e.fields) {
        for (const [name, message] of Object.entries(e.fields)) {
          if (fieldNames.has(name)) setError(name as FieldPath<AddInput>, { message });
        }
      }
      showSnackbar({ message: errorMessage(e, ADD_FAILED), severity: 'error', autoHideDuration: ERROR_MS });
    }
  };

  const onInvalid = () =>
    showSnackbar({ message: messages.formInvalid, severity: 'warning', autoHideDuration: SUCCESS_MS });

  const busy = addUser.isPending;

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      aria-labelledby={titleId}
    >
      <Box
        component="form"
        noValidate
        sx={dialogForm}
        onSubmit={(e) => void handleSubmit(onValid, onInvalid)(e)}
      >
        <DialogTitle id={titleId}>Add User</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextInput
              control={control}
              name="email"
              label="Email"
              type="email"
              autoComplete="off"
              autoFocus
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextInput control={control} name="first_name" label="First Name" autoComplete="off" />
              <TextInput control={control} name="last_name" label="Last Name" autoComplete="off" />
            </Stack>
            <Controller
              name="company_id"
              control={control}
              render={({ field, fieldState }) => (
                <CompanyField
                  value={typeof field.value === 'number' ? field.value : null}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />
            <Controller
              name="country_code"
              control={control}
              render={({ field, fieldState }) => (
                <CountryField
                  value={typeof field.value === 'string' && field.value ? field.value : null}
                  onChange={(code) => field.onChange(code ?? '')}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />
            <ActiveSwitch control={control} name="active" label="Active" />
            <PasswordInput
              control={control}
              name="password"
              label="Password"
              helperText="At least 8 characters."
            />
            <PasswordInput control={control} name="confirm_password" label="Confirm password" />
            {roles.isError ? (
              <Alert severity="error">{ROLES_LOAD_FAILED}</Alert>
            ) : (
              <Controller
                name="roles"
                control={control}
                render={({ field, fieldState }) => (
                  <RoleChecklist
                    label="Roles (optional)"
                    roles={roles.data ?? []}
                    value={(field.value as string[] | undefined) ?? []}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                  />
                )}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            Add User
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
};
