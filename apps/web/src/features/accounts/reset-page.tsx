import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { accountMessages, resetPasswordForm } from '@kodi/domain';
import { PasswordField } from '../../components/password-field.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { clearSession, getSession } from '../../lib/session.ts';
import { AccountCard } from './account-card.tsx';
import { PASSWORD_REDIRECT_MS, resetPassword } from './account-api.ts';

export const RESET_FAILED = 'Reset failed';

type ResetInput = z.input<typeof resetPasswordForm>;
type ResetValues = z.output<typeof resetPasswordForm>;

/** Reset password with the e-mailed token (02-admin §2, §5, §8). */
export const ResetPage = () => {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const reset = useMutation({ mutationFn: resetPassword });

  const { control, handleSubmit } = useForm<ResetInput, unknown, ResetValues>({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { password: '', confirm: '' },
  });

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate('/login', { replace: true }), PASSWORD_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const onValid = async (values: ResetValues) => {
    setFailure(null);
    try {
      await reset.mutateAsync({ token, password: values.password });
      // The server ended every session of that user: forget one held in this tab too.
      if (getSession().user) clearSession();
      setDone(accountMessages.resetDone);
    } catch (e) {
      setFailure(errorMessage(e, RESET_FAILED));
    }
  };

  let content;
  if (!token) {
    content = (
      <>
        <Alert severity="error" role="alert">
          {accountMessages.resetTokenMissing}
        </Alert>
        <Typography variant="body2">
          Open the link from the e-mail again, or{' '}
          <Link component={RouterLink} to="/forgot">
            ask for a new reset link
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
      <Box
        component="form"
        noValidate
        aria-label="Reset password"
        onSubmit={(e) => void handleSubmit(onValid)(e)}
      >
        <Stack spacing={2.5}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
              {failure === accountMessages.resetInvalid && (
                <>
                  {' '}
                  <Link component={RouterLink} to="/forgot" color="inherit">
                    Ask for a new link
                  </Link>
                  .
                </>
              )}
            </Alert>
          )}
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
          <Controller
            name="confirm"
            control={control}
            render={({ field, fieldState }) => (
              <PasswordField
                {...field}
                inputRef={field.ref}
                label="Confirm new password"
                autoComplete="new-password"
                required
                fullWidth
                error={!!fieldState.error}
                helperText={fieldState.error?.message}
              />
            )}
          />
          <Button type="submit" variant="contained" size="large" fullWidth loading={reset.isPending}>
            Set new password
          </Button>
        </Stack>
      </Box>
    );
  }

  return (
    <AccountCard title="Reset password">
      {content}
      <Typography variant="body2" sx={{ textAlign: 'center' }}>
        <Link component={RouterLink} to="/login">
          Back to Login
        </Link>
      </Typography>
    </AccountCard>
  );
};
