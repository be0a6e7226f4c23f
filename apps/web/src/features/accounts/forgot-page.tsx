import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { RESET_TOKEN_MINUTES, accountMessages, forgotPasswordBody } from '@kodi/domain';
import { errorMessage } from '../../lib/api-client.ts';
import { AccountCard } from './account-card.tsx';
import { requestPasswordReset } from './account-api.ts';

export const FORGOT_FAILED = 'The reset link could not be requested. Please try again.';

type ForgotInput = z.input<typeof forgotPasswordBody>;
type ForgotValues = z.output<typeof forgotPasswordBody>;

/** Forgot password (02-admin §2, §5, §8): always the same neutral answer for any address. */
export const ForgotPage = () => {
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
      setSent(answer.message || accountMessages.forgotSent);
    } catch (e) {
      setFailure(errorMessage(e, FORGOT_FAILED));
    }
  };

  return (
    <AccountCard
      title="Forgot password"
      intro={`Enter your account's e-mail address. If it is registered, we e-mail you a link to choose a new password; the link works once, within ${RESET_TOKEN_MINUTES} minutes.`}
    >
      {sent ? (
        <Alert severity="success" role="status">
          {sent}
        </Alert>
      ) : (
        <Box
          component="form"
          noValidate
          aria-label="Forgot password"
          onSubmit={(e) => void handleSubmit(onValid)(e)}
        >
          <Stack spacing={2.5}>
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            <Controller
              name="email"
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  label="Email"
                  type="email"
                  autoComplete="email"
                  autoFocus
                  required
                  fullWidth
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />
            <Button type="submit" variant="contained" size="large" fullWidth loading={send.isPending}>
              Send reset link
            </Button>
          </Stack>
        </Box>
      )}
      <Typography variant="body2" sx={{ textAlign: 'center' }}>
        <Link component={RouterLink} to="/login">
          Back to Login
        </Link>
      </Typography>
    </AccountCard>
  );
};
