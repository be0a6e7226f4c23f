import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { userPasswordBody } from '@kodi/domain';
import { PasswordField } from '../../components/password-field.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import type { UserDialogProps } from './roles-dialog.tsx';
import { dialogForm, ERROR_MS, PASSWORD_SET, SERVER_ERROR, SUCCESS_MS } from './user-texts.ts';
import { useUserMutations } from './users-api.ts';

type PasswordInput = z.input<typeof userPasswordBody>;
type PasswordValues = z.output<typeof userPasswordBody>;

/** Reset password (admin): a new password of at least 8 characters (02-admin §5, §8). */
export const PasswordDialog = ({ open, user, onClose }: UserDialogProps) => {
  const { showSnackbar } = useSnackbar();
  const { setPassword } = useUserMutations();
  const titleId = useId();
  const textId = useId();

  const { control, handleSubmit } = useForm<PasswordInput, unknown, PasswordValues>({
    resolver: zodResolver(userPasswordBody),
    defaultValues: { password: '' },
  });

  const onValid = async (values: PasswordValues) => {
    try {
      const answer = await setPassword.mutateAsync({ id: user.id, body: values });
      showSnackbar({
        message: answer.message || PASSWORD_SET,
        severity: 'success',
        autoHideDuration: SUCCESS_MS,
      });
      onClose();
    } catch (e) {
      showSnackbar({
        message: `Failed to update password: ${errorMessage(e, SERVER_ERROR)}`,
        severity: 'error',
        autoHideDuration: ERROR_MS,
      });
    }
  };

  const busy = setPassword.isPending;

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <Box component="form" noValidate sx={dialogForm} onSubmit={(e) => void handleSubmit(onValid)(e)}>
        <DialogTitle id={titleId}>Reset password</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText id={textId} sx={{ overflowWrap: 'anywhere' }}>
              A new password for {user.email}. Their other sessions end, and a login lock is lifted.
            </DialogContentText>
            <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
            <Controller
              name="password"
              control={control}
              render={({ field, fieldState }) => (
                <PasswordField
                  {...field}
                  inputRef={field.ref}
                  label="New password"
                  autoComplete="new-password"
                  autoFocus
                  required
                  fullWidth
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? 'At least 8 characters.'}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            Set password
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
};
