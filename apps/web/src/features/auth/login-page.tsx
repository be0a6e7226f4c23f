import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Google from '@mui/icons-material/Google';
import { useQuery } from '@tanstack/react-query';
import { loginBody, messages, type LoginAnswer } from '@kodi/domain';
import { PasswordField } from '../../components/password-field.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { API_BASE, api, ensureCsrfToken, errorMessage } from '../../lib/api-client.ts';
import { safeRedirect } from '../../lib/navigation.ts';
import { completeLogin } from '../../lib/session.ts';
import { serverInfoQuery } from '../accounts/server-info.ts';
import { CaptchaImage } from './captcha-image.tsx';

export const GOOGLE_LOGIN_URL = `${API_BASE}/auth/google/login`;

export const LOGIN_FAILED = 'Login failed. Please check your credentials.';
export const CAPTCHA_FAILED = 'CAPTCHA failed';

type LoginInput = z.input<typeof loginBody>;
type LoginValues = z.output<typeof loginBody>;

const GoogleButton = ({ enabled }: { enabled: boolean }) => {
  const button = (
    <Button
      variant="outlined"
      fullWidth
      size="large"
      startIcon={<Google />}
      disabled={!enabled}
      {...(enabled ? { href: GOOGLE_LOGIN_URL } : {})}
    >
      Login with Google
    </Button>
  );
  if (enabled) return button;
  return (
    <Tooltip title="Google sign-in is not configured." describeChild>
      <Box component="span" sx={{ display: 'block' }}>
        {button}
      </Box>
    </Tooltip>
  );
};

/** Sign in (01-core §2 'Login', §5 'Login'). */
export const LoginPage = ({ googleEnabled }: { googleEnabled?: boolean }) => {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { showSnackbar } = useSnackbar();
  const [alert, setAlert] = useState<string | null>(null);
  const [captchaNonce, setCaptchaNonce] = useState<number | null>(null);
  const [captchaFailed, setCaptchaFailed] = useState(false);
  // Google sign-in is on when the server's status says so (asked once the session exists).
  const serverInfo = useQuery({ ...serverInfoQuery(), enabled: captchaNonce !== null });
  const google = googleEnabled ?? serverInfo.data?.googleEnabled ?? false;

  const { control, handleSubmit, setValue, formState } = useForm<LoginInput, unknown, LoginValues>({
    resolver: zodResolver(loginBody),
    defaultValues: { email: '', password: '', captcha_answer: '' },
  });

  const newCaptcha = useCallback(() => {
    setCaptchaFailed(false);
    setCaptchaNonce(Date.now());
  }, []);

  // Have a session (and its CSRF token) before the first image, so the captcha answer is kept with it.
  useEffect(() => {
    let live = true;
    void ensureCsrfToken().finally(() => {
      if (live) newCaptcha();
    });
    return () => {
      live = false;
    };
  }, [newCaptcha]);

  /** A captcha is used up by any attempt: clear the answer and load a new image. */
  const resetCaptcha = () => {
    setValue('captcha_answer', '');
    newCaptcha();
  };

  const onValid = async (values: LoginValues) => {
    setAlert(null);
    try {
      const check = await api.post<{ valid: boolean }>('/captcha/validate', {
        answer: values.captcha_answer,
      });
      if (!check.valid) {
        setAlert(CAPTCHA_FAILED);
        resetCaptcha();
        return;
      }
    } catch (e) {
      setAlert(errorMessage(e, CAPTCHA_FAILED));
      resetCaptcha();
      return;
    }

    let answer: LoginAnswer;
    try {
      answer = await api.post<LoginAnswer>('/auth/login', values);
    } catch (e) {
      setAlert(errorMessage(e, LOGIN_FAILED));
      resetCaptcha();
      return;
    }
    await completeLogin(answer);
    await navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
  };

  const onInvalid = () => showSnackbar({ message: messages.formInvalid, severity: 'warning' });

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: { xs: 1, sm: 4 } }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 2.5, sm: 4 } }}>
        <Box
          component="form"
          noValidate
          aria-labelledby="login-heading"
          onSubmit={(e) => void handleSubmit(onValid, onInvalid)(e)}
        >
          <Stack spacing={2.5}>
            <Typography id="login-heading" variant="h4" component="h1">
              Sign in
            </Typography>

            {alert && (
              <Alert severity="error" role="alert">
                {alert}
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
                  autoComplete="username"
                  autoFocus
                  fullWidth
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />

            <Controller
              name="password"
              control={control}
              render={({ field, fieldState }) => (
                <PasswordField
                  {...field}
                  inputRef={field.ref}
                  label="Password"
                  autoComplete="current-password"
                  fullWidth
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />

            <CaptchaImage
              nonce={captchaNonce}
              failed={captchaFailed}
              onRefresh={newCaptcha}
              onError={() => setCaptchaFailed(true)}
            />

            <Controller
              name="captcha_answer"
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  label="CAPTCHA"
                  autoComplete="off"
                  fullWidth
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? 'Type the characters shown in the image.'}
                />
              )}
            />

            <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Link component={RouterLink} to="/forgot" variant="body2">
                Forgot password?
              </Link>
            </Box>

            <Button
              type="submit"
              variant="contained"
              size="large"
              fullWidth
              disabled={formState.isSubmitting}
            >
              Login
            </Button>

            <Divider>
              <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>
                or
              </Typography>
            </Divider>

            <GoogleButton enabled={google} />

            <Typography variant="body2" sx={{ textAlign: 'center' }}>
              Don&apos;t have an account?{' '}
              <Link component={RouterLink} to="/register">
                Sign Up
              </Link>
            </Typography>
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
};
