import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { accountMessages, resetPasswordForm } from '@kodi/domain';
import { ErrorAlert } from '../../components/ui/error-alert.tsx';
import { NewPasswordFields } from '../../components/ui/form-text-field.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { clearSession, getSession } from '../../lib/session.ts';
import { AccountCard } from '../../components/account-card.tsx';
import { AccountForm } from './account-form.tsx';
import { resetPassword } from './account-api.ts';
import { BackToLogin } from './back-to-login.tsx';
import { useLoginRedirect } from './use-login-redirect.ts';
import { useT } from '../../lib/i18n.ts';

type ResetInput = z.input<typeof resetPasswordForm>;
type ResetValues = z.output<typeof resetPasswordForm>;

/** Reset password with the e-mailed token (02-admin §2, §5, §8). */
export const ResetPage = () => {
  const { t } = useT();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const reset = useMutation({ mutationFn: resetPassword });

  const { control, handleSubmit } = useForm<ResetInput, unknown, ResetValues>({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { password: '', confirm: '' },
  });

  useLoginRedirect(done);

  const onValid = async (values: ResetValues) => {
    setFailure(null);
    try {
      await reset.mutateAsync({ token, password: values.password });
      // The server ended every session of that user: forget one held in this tab too.
      if (getSession().user) clearSession();
      setDone(t('account.resetDone'));
    } catch (e) {
      setFailure(errorMessage(e, t('account.resetFailed')));
    }
  };

  let content;
  if (!token) {
    content = (
      <>
        <Alert severity="error" role="alert">
          {t('account.resetTokenMissing')}
        </Alert>
        <Typography variant="body2">
          {t('account.openLinkAgain')}{' '}
          <Link component={RouterLink} to="/forgot">
            {t('account.askNewResetLink')}
          </Link>
          .
        </Typography>
      </>
    );
  } else if (done) {
    content = (
      <Alert severity="success" role="status">
        {done}
      </Alert>
    );
  } else {
    content = (
      <AccountForm
        label={t('account.resetPassword')}
        onSubmit={(e) => void handleSubmit(onValid)(e)}
        submitLabel={t('account.setNewPassword')}
        busy={reset.isPending}
      >
        <ErrorAlert message={failure}>
          {failure === accountMessages.resetInvalid && (
            <>
              {' '}
              <Link component={RouterLink} to="/forgot" color="inherit">
                {t('account.askNewLink')}
              </Link>
              .
            </>
          )}
        </ErrorAlert>
        <NewPasswordFields control={control} name="password" confirmName="confirm" autoFocus />
      </AccountForm>
    );
  }

  return (
    <AccountCard title={t('account.resetPassword')}>
      {content}
      <BackToLogin label={t('account.backToLogin')} />
    </AccountCard>
  );
};
