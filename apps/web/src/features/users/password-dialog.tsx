import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import { userPasswordBody } from '@kodi/domain';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { NewPasswordFields } from '../../components/ui/form-text-field.tsx';
import type { UserDialogProps } from './roles-dialog.tsx';
import { useT } from '../../lib/i18n.ts';
import { failedTo, useUserFeedback } from './use-user-feedback.ts';
import { useUserMutations } from './users-api.ts';

type PasswordInput = z.input<typeof userPasswordBody>;
type PasswordValues = z.output<typeof userPasswordBody>;

/** Reset password (admin): a new password of at least 8 characters (02-admin §5, §8). */
export const PasswordDialog = ({ user, ...dialog }: UserDialogProps) => {
  const { t } = useT();
  const feedback = useUserFeedback(dialog.onClose);
  const { setPassword } = useUserMutations();
  const textId = useId();

  const { control, handleSubmit } = useForm<PasswordInput, unknown, PasswordValues>({
    resolver: zodResolver(userPasswordBody),
    defaultValues: { password: '' },
  });

  const onValid = (values: PasswordValues) =>
    feedback.save(
      async () =>
        (await setPassword.mutateAsync({ id: user.id, body: values })).message || t('users.passwordSet'),
      { failure: failedTo(t, 'users.failedPassword') },
    );

  return (
    <FormDialog
      {...dialog}
      busy={setPassword.isPending}
      title={t('users.resetPassword')}
      maxWidth="xs"
      describedBy={textId}
      onSubmit={(e) => void handleSubmit(onValid)(e)}
      submitLabel={t('users.setPassword')}
    >
      <Stack spacing={2}>
        <DialogContentText id={textId} sx={{ overflowWrap: 'anywhere' }}>
          {t('users.passwordText', { email: user.email })}
        </DialogContentText>
        <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
        <NewPasswordFields control={control} name="password" autoFocus />
      </Stack>
    </FormDialog>
  );
};
