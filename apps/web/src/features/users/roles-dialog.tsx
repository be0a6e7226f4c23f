import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
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
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { rolesQuery, useUserMutations } from './users-api.ts';
import { dialogForm, ERROR_MS, ROLES_LOAD_FAILED, SERVER_ERROR, SUCCESS_MS } from './user-texts.ts';

type RolesInput = z.input<typeof userRolesBody>;
type RolesValues = z.output<typeof userRolesBody>;

export const ROLES_WARNING = 'Please ensure the user has at least one role.';

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
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value.filter((r) => r !== name), name] : value.filter((r) => r !== name));
  return (
    <FormControl component="fieldset" error={!!error} variant="standard">
      <FormLabel component="legend">{label}</FormLabel>
      <FormGroup aria-describedby={error ? helperId : undefined}>
        {roles.map((role) => (
          <FormControlLabel
            key={role.name}
            label={role.readable_name}
            control={
              <Checkbox
                checked={value.includes(role.name)}
                onChange={(e) => toggle(role.name, e.target.checked)}
                name={role.name}
              />
            }
          />
        ))}
      </FormGroup>
      {error && <FormHelperText id={helperId}>{error}</FormHelperText>}
    </FormControl>
  );
};

export type UserDialogProps = {
  open: boolean;
  user: ManagedUser;
  onClose: () => void;
};

/** Edit Roles: at least one role, from `GET /roles` (02-admin §5 'Roles edit'). */
export const RolesDialog = ({ open, user, onClose }: UserDialogProps) => {
  const { showSnackbar } = useSnackbar();
  const { updateRoles } = useUserMutations();
  const roles = useQuery(rolesQuery());
  const titleId = useId();

  const { control, handleSubmit } = useForm<RolesInput, unknown, RolesValues>({
    resolver: zodResolver(userRolesBody),
    defaultValues: { roles: user.roles },
  });
  const chosen = useWatch({ control, name: 'roles' }) ?? [];

  const onValid = async (values: RolesValues) => {
    try {
      await updateRoles.mutateAsync({ id: user.id, body: values });
      showSnackbar({
        message: `Roles updated for ${user.email}`,
        severity: 'success',
        autoHideDuration: SUCCESS_MS,
      });
      onClose();
    } catch (e) {
      showSnackbar({
        message: `Failed to update roles: ${errorMessage(e, SERVER_ERROR)}`,
        severity: 'error',
        autoHideDuration: ERROR_MS,
      });
    }
  };

  const busy = updateRoles.isPending;

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby={titleId}
    >
      <Box component="form" noValidate sx={dialogForm} onSubmit={(e) => void handleSubmit(onValid)(e)}>
        <DialogTitle id={titleId}>Edit Roles</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
              {user.email}
            </Typography>
            {roles.isPending ? (
              <PageLoader />
            ) : roles.isError ? (
              <Alert severity="error">{ROLES_LOAD_FAILED}</Alert>
            ) : (
              <Controller
                name="roles"
                control={control}
                render={({ field, fieldState }) => (
                  <RoleChecklist
                    label="Roles"
                    roles={roles.data}
                    value={(field.value as string[] | undefined) ?? []}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                  />
                )}
              />
            )}
            {chosen.length === 0 && <Alert severity="warning">{ROLES_WARNING}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={busy} disabled={!roles.isSuccess}>
            Save
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
};
