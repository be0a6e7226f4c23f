import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
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
import { accountMessages, messages, registerForm } from '@kodi/domain';
import { PasswordField } from '../../components/password-field.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { ensureCsrfToken, errorMessage, isApiError } from '../../lib/api-client.ts';
import { completeLogin } from '../../lib/session.ts';
import { clearLoggedOutFlag } from '../../lib/storage.ts';
import { CaptchaImage } from '../auth/captcha-image.tsx';
import { AccountCard } from './account-card.tsx';
import { publicCompaniesQuery, registerAccount, validateCaptcha, type CompanyChoice } from './account-api.ts';
import { SearchPicker, type PickerChoice } from './search-picker.tsx';

export const REGISTRATION_FAILED = 'Registration failed.';
export const COMPANIES_LOAD_FAILED = 'Failed to load companies.';

/**
 * The register form: the shared body plus the confirmation (packages/domain `registerForm`), with the
 * CAPTCHA answer required as well (02-admin §5 'Registration'); checked on every field at once.
 */
const schema = registerForm.refine(
  (v) => typeof v.captcha_answer === 'string' && v.captcha_answer.trim() !== '',
  { path: ['captcha_answer'], message: messages.required, when: () => true },
);

type RegisterInput = z.input<typeof schema>;
type RegisterValues = z.output<typeof schema>;

const companyChoices = (rows: CompanyChoice[]): PickerChoice<number>[] =>
  rows.map((c) => ({ value: c.id, label: c.name }));

const formFields = new Set<string>(['email', 'first_name', 'last_name', 'company_id', 'password']);

/** Sign up (02-admin §2 'Register', §5 'Registration'): success signs in and goes Home. */
export const RegisterPage = () => {
  const navigate = useNavigate();
  const { showSnackbar } = useSnackbar();
  const [alert, setAlert] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [captchaNonce, setCaptchaNonce] = useState<number | null>(null);
  const [captchaFailed, setCaptchaFailed] = useState(false);

  const { control, handleSubmit, setValue, setError, formState } = useForm<
    RegisterInput,
    unknown,
    RegisterValues
  >({
    resolver: zodResolver(schema),
    defaultValues: {
      email: '',
      first_name: '',
      last_name: '',
      company_id: null,
      password: '',
      confirm_password: '',
      captcha_answer: '',
    },
  });

  const newCaptcha = useCallback(() => {
    setCaptchaFailed(false);
    setCaptchaNonce(Date.now());
  }, []);

  // Opening Register starts a new sign-up: the logout flag of an earlier logout in this tab would
  // otherwise block the companies list and send the user back to Login when the tab becomes visible.
  // Then a session (and its CSRF token) before the first image, so the answer is kept with it.
  useEffect(() => {
    let live = true;
    clearLoggedOutFlag();
    void ensureCsrfToken().finally(() => {
      if (!live) return;
      setReady(true);
      newCaptcha();
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

  const register = useMutation({ mutationFn: registerAccount });

  const onValid = async (values: RegisterValues) => {
    setAlert(null);
    try {
      if (!(await validateCaptcha(values.captcha_answer))) {
        setAlert(accountMessages.captchaFailed);
        resetCaptcha();
        return;
      }
    } catch (e) {
      setAlert(errorMessage(e, accountMessages.captchaFailed));
      resetCaptcha();
      return;
    }

    const { confirm_password: _confirm, ...body } = values;
    try {
      const answer = await register.mutateAsync(body);
      await completeLogin(answer);
      await navigate('/', { replace: true });
    } catch (e) {
      setAlert(errorMessage(e, REGISTRATION_FAILED));
      if (isApiError(e) && e.fields) {
        for (const [name, message] of Object.entries(e.fields)) {
          if (formFields.has(name)) setError(name as FieldPath<RegisterInput>, { message });
        }
      }
      resetCaptcha();
    }
  };

  const onInvalid = () => showSnackbar({ message: messages.formInvalid, severity: 'warning' });

  return (
    <AccountCard title="Create an account" maxWidth={520}>
      <Box
        component="form"
        noValidate
        aria-label="Create an account"
        onSubmit={(e) => void handleSubmit(onValid, onInvalid)(e)}
      >
        <Stack spacing={2.5}>
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
                autoComplete="email"
                autoFocus
                required
                fullWidth
                error={!!fieldState.error}
                helperText={fieldState.error?.message}
              />
            )}
          />

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Controller
              name="first_name"
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  label="First name"
                  autoComplete="given-name"
                  required
                  fullWidth
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />
            <Controller
              name="last_name"
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  label="Last name"
                  autoComplete="family-name"
                  required
                  fullWidth
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message}
                />
              )}
            />
          </Stack>

          <Controller
            name="company_id"
            control={control}
            render={({ field, fieldState }) => (
              <SearchPicker
                label="Company"
                required
                eager={ready}
                value={typeof field.value === 'number' ? field.value : null}
                onChange={(id) => field.onChange(id)}
                onBlur={field.onBlur}
                inputRef={field.ref}
                query={publicCompaniesQuery}
                toChoices={companyChoices}
                loadErrorText={COMPANIES_LOAD_FAILED}
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
                label="Confirm password"
                autoComplete="new-password"
                required
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
                required
                fullWidth
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? 'Type the characters shown in the image.'}
              />
            )}
          />

          <Button type="submit" variant="contained" size="large" fullWidth loading={formState.isSubmitting}>
            Register
          </Button>

          <Typography variant="body2" sx={{ textAlign: 'center' }}>
            Already have an account?{' '}
            <Link component={RouterLink} to="/login">
              Login
            </Link>
          </Typography>
        </Stack>
      </Box>
    </AccountCard>
  );
};
