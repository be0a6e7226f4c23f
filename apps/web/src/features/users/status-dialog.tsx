import { useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import type { UserDialogProps } from './roles-dialog.tsx';
import { DESTRUCTIVE_ERROR_MS, STATUS_FAILED, SUCCESS_MS } from './user-texts.ts';
import { profileOf, useUserMutations } from './users-api.ts';

/**
 * Enable or disable an account: `PUT /users/{id}` with `active` toggled (the rest of the profile as
 * read, with its version). Disabling ends the user's sessions at once.
 */
export const StatusDialog = ({ open, user, onClose }: UserDialogProps) => {
  const { showSnackbar } = useSnackbar();
  const { updateProfile } = useUserMutations();
  const titleId = useId();
  const textId = useId();
  const disabling = user.active;
  const noCountry = !user.country_code;

  const confirm = async () => {
    try {
      await updateProfile.mutateAsync({
        id: user.id,
        body: { ...profileOf(user), country_code: user.country_code ?? '', active: !user.active },
      });
      showSnackbar({
        message: `${user.email} ${disabling ? 'disabled' : 'enabled'}.`,
        severity: 'success',
        autoHideDuration: SUCCESS_MS,
      });
      onClose();
    } catch (e) {
      showSnackbar({
        message: errorMessage(e, STATUS_FAILED),
        severity: 'error',
        autoHideDuration: DESTRUCTIVE_ERROR_MS,
      });
    }
  };

  const busy = updateProfile.isPending;

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <DialogTitle id={titleId}>{disabling ? 'Disable user' : 'Enable user'}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId} sx={{ overflowWrap: 'anywhere' }}>
          {noCountry
            ? `${user.email} has no country yet: choose one in Edit profile first, then change the status.`
            : disabling
              ? `Disable ${user.email}? They are signed out at once and cannot sign in until enabled again.`
              : `Enable ${user.email}? They can sign in again.`}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} autoFocus>
          Cancel
        </Button>
        <Button
          onClick={() => void confirm()}
          color={disabling ? 'error' : 'primary'}
          variant="contained"
          loading={busy}
          disabled={noCountry}
        >
          {disabling ? 'Disable' : 'Enable'}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
