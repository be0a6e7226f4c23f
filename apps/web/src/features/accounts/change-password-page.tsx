import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useMutation } from '@tanstack/react-query';
import { accountMessages, changePasswordForm } from '@kodi/domain';
import { PasswordField } from '../../components/password-field.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { clearSession, useSession } from '../../lib/session.ts';
import { AccountCard } from './account-card.tsx';
import { PASSWORD_REDIRECT_MS, changePassword } from './account-api.ts';

export const CHANGE_FAILED = 'Update failed';

type ChangeInput = z.input<typeof changePasswordForm>;
type ChangeValues = z.output<typeof changePasswordForm>;

const fieldNames = new Set<string>(['current_password', 'new_password']);

/**
 * Change password (02-admin §2, §5, §8). The server ends every session of the user, this one too:
 * on success the local session is cleared and Login follows after 2.5 s.
 */
export const ChangePasswordPage = () => {
  const navigate = useNavigate();
  const { user } = useSession();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const change = useMutation({ mutationFn: changePassword });

  const { control, handleSubmit, setError } = useForm<ChangeInput, unknown, ChangeValues>({
    resolver: zodResolver(changePasswordForm),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate('/login', { replace: true }), PASSWORD_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const onValid = async (values: ChangeValues) => {
    setFailure(null);
    try {
      await change.mutateAsync({
        current_password: values.current_password,
        new_password: values.new_password,
      });
      setDone(accountMessages.changeDone);
      clearSession();
    } catch (e) {
      setFailure(errorMessage(e, CHANGE_FAILED));
      if (isApiError(e) && e.fields) {
        for (const [name, message] of Object.entries(e.fields)) {
          if (fieldNames.has(name)) setError(name as FieldPath<ChangeInput>, { message });
        }
      }
    }
  };

  if (done) {
    return (
      <AccountCard title="Change password">
        <Alert severity="success" role="status">
          {done}
        </Alert>
      </AccountCard>
    );
  }

  if (!user) {
    return (
      <AccountCard title="Change password">
        <Alert severity="info">
          Sign in to change your password.{' '}
          <Link component={RouterLink} to="/login?redirect=%2Fchange-password" color="inherit">
            Login
          </Link>
        </Alert>
      </AccountCard>
    );
  }

  return (
    <AccountCard
      title="Change password"
      intro="After the change every session of your account ends, this one too: sign in again with the new password."
    >
      <Box
        component="form"
        noValidate
        aria-label="Change password"
        onSubmit={(e) => void handleSubmit(onValid)(e)}
      >
        <Stack spacing={2.5}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <Controller
            name="current_password"
            control={control}
            render={({ field, fieldState }) => (
              <PasswordField
                {...field}
                inputRef={field.ref}
                label="Current password"
                autoComplete="current-password"
                autoFocus
                required
                fullWidth
                error={!!fieldState.error}
                helperText={fieldState.error?.message}
              />
            )}
          />
          <Controller
            name="new_password"
            control={control}
            render={({ field, fieldState }) => (
              <PasswordField
                {...field}
                inputRef={field.ref}
                label="New password"
                autoComplete="new-password"
                required
                fullWidth
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? 'At least 8 characters.'}
              />
            )}
          />
          <Controller
            name="confirm_password"
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
          <Button type="submit" variant="contained" size="large" fullWidth loading={change.isPending}>
            Change password
          </Button>
        </Stack>
      </Box>
    </AccountCard>
  );
};
