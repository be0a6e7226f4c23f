import { useId } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { DialogButtons } from '../../components/ui/dialog-buttons.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import type { UserDialogProps } from './roles-dialog.tsx';
import { useT } from '../../lib/i18n.ts';
import { DESTRUCTIVE_ERROR_MS } from './user-texts.ts';
import { useUserFeedback } from './use-user-feedback.ts';
import { profileOf, useUserMutations } from './users-api.ts';

/**
 * Enable or disable an account: `PUT /users/{id}` with `active` toggled (the rest of the profile as
 * read, with its version). Disabling ends the user's sessions at once.
 */
export const StatusDialog = ({ open, user, onClose }: UserDialogProps) => {
  const { t } = useT();
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
        return t(disabling ? 'users.disabled' : 'users.enabled', { email: user.email });
      },
      { failure: (e) => errorMessage(e, t('users.statusFailed')), failureMs: DESTRUCTIVE_ERROR_MS },
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
      <DialogTitle id={titleId}>{t(disabling ? 'users.disableUser' : 'users.enableUser')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId} sx={{ overflowWrap: 'anywhere' }}>
          {t(noCountry ? 'users.noCountry' : disabling ? 'users.disableText' : 'users.enableText', {
            email: user.email,
          })}
        </DialogContentText>
      </DialogContent>
      <DialogButtons
        busy={busy}
        onCancel={onClose}
        cancelFocus
        label={t(disabling ? 'users.disable' : 'users.enable')}
        onConfirm={() => void confirm()}
        color={disabling ? 'error' : 'primary'}
        disabled={noCountry}
      />
    </Dialog>
  );
};
