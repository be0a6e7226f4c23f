import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useMutation } from '@tanstack/react-query';
import { changePasswordForm } from '@kodi/domain';
import { ErrorAlert } from '../../components/ui/error-alert.tsx';
import { FormPasswordField, NewPasswordFields } from '../../components/ui/form-text-field.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { showFieldErrors } from '../../lib/form-errors.ts';
import { clearSession, useSession } from '../../lib/session.ts';
import { AccountCard } from '../../components/account-card.tsx';
import { AccountForm } from './account-form.tsx';
import { changePassword } from './account-api.ts';
import { useLoginRedirect } from './use-login-redirect.ts';
import { useT } from '../../lib/i18n.ts';

type ChangeInput = z.input<typeof changePasswordForm>;
type ChangeValues = z.output<typeof changePasswordForm>;

const fieldNames = new Set<string>(['current_password', 'new_password']);

/**
 * Change password (02-admin §2, §5, §8). The server ends every session of the user, this one too:
 * on success the local session is cleared and Login follows after 2.5 s.
 */
export const ChangePasswordPage = () => {
  const { user } = useSession();
  const { t } = useT();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const change = useMutation({ mutationFn: changePassword });

  const { control, handleSubmit, setError } = useForm<ChangeInput, unknown, ChangeValues>({
    resolver: zodResolver(changePasswordForm),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });

  useLoginRedirect(done);

  const onValid = async (values: ChangeValues) => {
    setFailure(null);
    try {
      await change.mutateAsync({
        current_password: values.current_password,
        new_password: values.new_password,
      });
      setDone(t('account.changeDone'));
      clearSession();
    } catch (e) {
      setFailure(errorMessage(e, t('account.changeFailed')));
      showFieldErrors(e, fieldNames, setError);
    }
  };

  if (done) {
    return (
      <AccountCard title={t('account.changePassword')}>
        <Alert severity="success" role="status">
          {done}
        </Alert>
      </AccountCard>
    );
  }

  if (!user) {
    return (
      <AccountCard title={t('account.changePassword')}>
        <Alert severity="info">
          {t('account.signInToChange')}{' '}
          <Link component={RouterLink} to="/login?redirect=%2Fchange-password" color="inherit">
            {t('auth.login')}
          </Link>
        </Alert>
      </AccountCard>
    );
  }

  return (
    <AccountCard title={t('account.changePassword')} intro={t('account.changeIntro')}>
      <AccountForm
        label={t('account.changePassword')}
        onSubmit={(e) => void handleSubmit(onValid)(e)}
        submitLabel={t('account.changePassword')}
        busy={change.isPending}
      >
        <ErrorAlert message={failure} />
        <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
        <FormPasswordField
          control={control}
          name="current_password"
          label={t('account.currentPassword')}
          autoComplete="current-password"
          autoFocus
          required
        />
        <NewPasswordFields control={control} name="new_password" confirmName="confirm_password" />
      </AccountForm>
    </AccountCard>
  );
};
