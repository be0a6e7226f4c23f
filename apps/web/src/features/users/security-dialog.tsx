import { useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { securityMessages } from '@kodi/domain';
import type { UserDialogProps } from './roles-dialog.tsx';
import { DESTRUCTIVE_ERROR_MS } from './user-texts.ts';
import { failedTo, useUserFeedback } from './use-user-feedback.ts';
import { useUserMutations } from './users-api.ts';

/**
 * An admin's help with a user's sign-in (issue 20): reset their second factor (a lost phone) or end
 * every session of theirs. Both are audited on the server.
 */
export const SecurityDialog = ({ open, user, onClose }: UserDialogProps) => {
  const feedback = useUserFeedback(onClose);
  const { resetMfa, endSessions } = useUserMutations();
  const titleId = useId();
  const busy = resetMfa.isPending || endSessions.isPending;

  const reset = () =>
    feedback.save(
      async () => {
        await resetMfa.mutateAsync(user.id);
        return securityMessages.mfaReset;
      },
      { failure: failedTo('two-factor sign-in'), failureMs: DESTRUCTIVE_ERROR_MS },
    );
  const end = () =>
    feedback.save(
      async () => {
        const { ended } = await endSessions.mutateAsync(user.id);
        return `${securityMessages.sessionsEnded} (${ended})`;
      },
      { failure: failedTo('sessions'), failureMs: DESTRUCTIVE_ERROR_MS },
    );

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>Sign-in security</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText sx={{ overflowWrap: 'anywhere' }}>
            {user.mfa_enabled
              ? `${user.email} signs in with two-factor sign-in. Reset it when they lost their phone and their recovery codes: they set it up again.`
              : `${user.email} does not use two-factor sign-in.`}
          </DialogContentText>
          {user.mfa_enabled && (
            <Button variant="outlined" color="error" disabled={busy} onClick={() => void reset()}>
              Reset two-factor sign-in
            </Button>
          )}
          <DialogContentText>End every session of theirs: they sign in again everywhere.</DialogContentText>
          <Button variant="outlined" color="error" disabled={busy} onClick={() => void end()}>
            End all sessions
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
};
