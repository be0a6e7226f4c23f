import { useId } from 'react';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { messages, userProfileBody } from '@kodi/domain';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { ActiveSwitch, TextInput } from './form-fields.tsx';
import { CompanyField, CountryField } from './pickers.tsx';
import type { UserDialogProps } from './roles-dialog.tsx';
import { dialogForm, ERROR_MS, PROFILE_FAILED, PROFILE_SAVED, SUCCESS_MS } from './user-texts.ts';
import { useUserMutations } from './users-api.ts';

type ProfileInput = z.input<typeof userProfileBody>;
type ProfileValues = z.output<typeof userProfileBody>;

const fieldNames = new Set(['email', 'first_name', 'last_name', 'company_id', 'country_code', 'active']);

/** Edit profile (admin): e-mail, company, names and country required, active optional (02-admin §5). */
export const ProfileDialog = ({ open, user, onClose }: UserDialogProps) => {
  const { showSnackbar } = useSnackbar();
  const { updateProfile } = useUserMutations();
  const titleId = useId();

  const { control, handleSubmit, setError } = useForm<ProfileInput, unknown, ProfileValues>({
    resolver: zodResolver(userProfileBody),
    defaultValues: {
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      company_id: user.company_id,
      country_code: user.country_code ?? '',
      active: user.active,
      version: user.version,
    },
  });

  const onValid = async (values: ProfileValues) => {
    try {
      await updateProfile.mutateAsync({ id: user.id, body: values });
      showSnackbar({ message: PROFILE_SAVED, severity: 'success', autoHideDuration: SUCCESS_MS });
      onClose();
    } catch (e) {
      if (isApiError(e) && e.fields) {
        for (const [name, message] of Object.entries(e.fields)) {
          if (fieldNames.has(name)) setError(name as FieldPath<ProfileInput>, { message });
        }
      }
      showSnackbar({
        message: errorMessage(e, PROFILE_FAILED),
        severity: 'error',
        autoHideDuration: ERROR_MS,
      });
    }
  };

  const onInvalid = () =>
    showSnackbar({ message: messages.formInvalid, severity: 'warning', autoHideDuration: SUCCESS_MS });

  const busy = updateProfile.isPending;

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
        <DialogTitle id={titleId}>Edit profile</DialogTitle>
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
            <Controller
              name="company_id"
              control={control}
              render={({ field, fieldState }) => (
                <CompanyField
                  value={typeof field.value === 'number' ? field.value : null}
                  valueLabel={
                    field.value === user.company_id
                      ? (user.company_name ?? `Unknown (ID: ${user.company_id})`)
                      : undefined
                  }
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextInput control={control} name="first_name" label="First Name" autoComplete="off" />
              <TextInput control={control} name="last_name" label="Last Name" autoComplete="off" />
            </Stack>
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
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            Save
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
};
