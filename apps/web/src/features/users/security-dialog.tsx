import { useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useT } from '../../lib/i18n.ts';
import type { UserDialogProps } from './roles-dialog.tsx';
import { DESTRUCTIVE_ERROR_MS } from './user-texts.ts';
import { failedTo, useUserFeedback } from './use-user-feedback.ts';
import { useUserMutations } from './users-api.ts';

/**
 * An admin's help with a user's sign-in (issue 20): reset their second factor (a lost phone) or end
 * every session of theirs. Both are audited on the server.
 */
export const SecurityDialog = ({ open, user, onClose }: UserDialogProps) => {
  const { t } = useT();
  const feedback = useUserFeedback(onClose);
  const { resetMfa, endSessions } = useUserMutations();
  const titleId = useId();
  const busy = resetMfa.isPending || endSessions.isPending;

  const reset = () =>
    feedback.save(
      async () => {
        await resetMfa.mutateAsync(user.id);
        return t('users.mfaReset');
      },
      { failure: failedTo(t, 'users.failedMfa'), failureMs: DESTRUCTIVE_ERROR_MS },
    );
  const end = () =>
    feedback.save(
      async () => {
        const { ended } = await endSessions.mutateAsync(user.id);
        return t('users.sessionsEnded', { count: ended });
      },
      { failure: failedTo(t, 'users.failedSessions'), failureMs: DESTRUCTIVE_ERROR_MS },
    );

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>{t('users.signInSecurity')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText sx={{ overflowWrap: 'anywhere' }}>
            {t(user.mfa_enabled ? 'users.mfaOn' : 'users.mfaOff', { email: user.email })}
          </DialogContentText>
          {user.mfa_enabled && (
            <Button variant="outlined" color="error" disabled={busy} onClick={() => void reset()}>
              {t('users.resetMfa')}
            </Button>
          )}
          <DialogContentText>{t('users.endSessionsText')}</DialogContentText>
          <Button variant="outlined" color="error" disabled={busy} onClick={() => void end()}>
            {t('users.endSessions')}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('shell.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
