import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { LoginAnswer } from '@kodi/domain';
import { ErrorAlert } from '../../components/ui/error-alert.tsx';
import { api, errorMessage, isApiError } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.ts';

/**
 * The second step of a sign-in (issue 20): the code of the authenticator app, or a recovery code.
 * A challenge that expired (or was never started) sends the user back to the password.
 */
export const SecondFactorStep = ({
  onSignedIn,
  onRestart,
}: {
  onSignedIn: (answer: LoginAnswer) => Promise<void>;
  onRestart: (message: string) => void;
}) => {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { t } = useT();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setAlert(null);
    const typed = value.trim();
    if (!typed) {
      setAlert(recovery ? t('account.enterRecovery') : t('account.codeFormat'));
      return;
    }
    setBusy(true);
    try {
      const answer = await api.post<LoginAnswer>(
        '/auth/login/mfa',
        recovery ? { recovery_code: typed } : { code: typed },
      );
      await onSignedIn(answer);
    } catch (err) {
      if (isApiError(err) && err.code === 'mfa_challenge_expired') {
        onRestart(err.message);
        return;
      }
      const field = isApiError(err) ? (err.fields?.code ?? err.fields?.recovery_code) : undefined;
      setAlert(field ?? errorMessage(err, t('account.codeFailed')));
      setValue('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: { xs: 1, sm: 4 } }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 2.5, sm: 4 } }}>
        <Box component="form" noValidate aria-labelledby="mfa-heading" onSubmit={(e) => void submit(e)}>
          <Stack spacing={2.5}>
            <Typography id="mfa-heading" variant="h4" component="h1">
              {t('account.mfaTitle')}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {recovery ? t('account.mfaRecoveryIntro') : t('account.mfaCodeIntro')}
            </Typography>
            <ErrorAlert message={alert} />
            {recovery ? (
              <TextField
                key="recovery"
                label={t('account.recoveryCode')}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                autoComplete="off"
                autoFocus
                fullWidth
              />
            ) : (
              <TextField
                key="code"
                label={t('account.authCode')}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                autoComplete="one-time-code"
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
                autoFocus
                fullWidth
              />
            )}
            <Button type="submit" variant="contained" size="large" fullWidth disabled={busy}>
              {t('account.verify')}
            </Button>
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={() => {
                setRecovery(!recovery);
                setValue('');
                setAlert(null);
              }}
            >
              {recovery ? t('account.useApp') : t('account.useRecovery')}
            </Link>
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
};
