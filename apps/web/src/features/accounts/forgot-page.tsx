import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import { useMutation } from '@tanstack/react-query';
import { RESET_TOKEN_MINUTES, forgotPasswordBody } from '@kodi/domain';
import { ErrorAlert } from '../../components/ui/error-alert.tsx';
import { FormEmailField } from '../../components/ui/form-text-field.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { AccountCard } from '../../components/account-card.tsx';
import { AccountForm } from './account-form.tsx';
import { requestPasswordReset } from './account-api.ts';
import { BackToLogin } from './back-to-login.tsx';
import { useT } from '../../lib/i18n.ts';

type ForgotInput = z.input<typeof forgotPasswordBody>;
type ForgotValues = z.output<typeof forgotPasswordBody>;

/** Forgot password (02-admin §2, §5, §8): always the same neutral answer for any address. */
export const ForgotPage = () => {
  const { t } = useT();
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const send = useMutation({ mutationFn: requestPasswordReset });

  const { control, handleSubmit } = useForm<ForgotInput, unknown, ForgotValues>({
    resolver: zodResolver(forgotPasswordBody),
    defaultValues: { email: '' },
  });

  const onValid = async (values: ForgotValues) => {
    setFailure(null);
    try {
      const answer = await send.mutateAsync(values);
      setSent(answer.message || t('account.forgotSent'));
    } catch (e) {
      setFailure(errorMessage(e, t('account.forgotFailed')));
    }
  };

  return (
    <AccountCard
      title={t('account.forgotPassword')}
      intro={t('account.forgotIntro', { minutes: RESET_TOKEN_MINUTES })}
    >
      {sent ? (
        <Alert severity="success" role="status">
          {sent}
        </Alert>
      ) : (
        <AccountForm
          label={t('account.forgotPassword')}
          onSubmit={(e) => void handleSubmit(onValid)(e)}
          submitLabel={t('account.sendResetLink')}
          busy={send.isPending}
        >
          <ErrorAlert message={failure} />
          <FormEmailField control={control} name="email" autoComplete="email" />
        </AccountForm>
      )}
      <BackToLogin label={t('account.backToLogin')} />
    </AccountCard>
  );
};
