import { useId } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { DialogButtons } from '../../components/ui/dialog-buttons.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import type { UserDialogProps } from './roles-dialog.tsx';
import { DESTRUCTIVE_ERROR_MS, STATUS_FAILED } from './user-texts.ts';
import { useUserFeedback } from './use-user-feedback.ts';
import { profileOf, useUserMutations } from './users-api.ts';

/**
 * Enable or disable an account: `PUT /users/{id}` with `active` toggled (the rest of the profile as
 * read, with its version). Disabling ends the user's sessions at once.
 */
export const StatusDialog = ({ open, user, onClose }: UserDialogProps) => {
  const feedback = useUserFeedback(onClose);
  const { updateProfile } = useUserMutations();
  const titleId = useId();
  const textId = useId();
  const disabling = user.active;
  const noCountry = !user.country_code;

  const confirm = () =>
    feedback.save(
      async () => {
        const body = { ...profileOf(user), country_code: user.country_code ?? '', active: !user.active };
        await updateProfile.mutateAsync({ id: user.id, body });
        return `${user.email} ${disabling ? 'disabled' : 'enabled'}.`;
      },
      { failure: (e) => errorMessage(e, STATUS_FAILED), failureMs: DESTRUCTIVE_ERROR_MS },
    );

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
      <DialogButtons
        busy={busy}
        onCancel={onClose}
        cancelFocus
        label={disabling ? 'Disable' : 'Enable'}
        onConfirm={() => void confirm()}
        color={disabling ? 'error' : 'primary'}
        disabled={noCountry}
      />
    </Dialog>
  );
};
