import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { accountMessages, messages, registerForm } from '@kodi/domain';
import { CaptchaField, useCaptcha } from '../../components/ui/captcha.tsx';
import { ErrorAlert } from '../../components/ui/error-alert.tsx';
import { FormEmailField, FormTextField, NewPasswordFields } from '../../components/ui/form-text-field.tsx';
import { SearchPicker, type PickerChoice } from '../../components/ui/search-picker.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { captchaProblem } from '../../lib/captcha.ts';
import { showFieldErrors } from '../../lib/form-errors.ts';
import { completeLogin } from '../../lib/session.ts';
import { clearLoggedOutFlag } from '../../lib/storage.ts';
import { useT } from '../../lib/i18n.ts';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { AccountCard } from '../../components/account-card.tsx';
import { AccountForm } from './account-form.tsx';
import { publicCompaniesQuery, registerAccount, type CompanyChoice } from './account-api.ts';

export const REGISTRATION_FAILED = 'Registration failed.';

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
  const { t } = useT();
  const [alert, setAlert] = useState<string | null>(null);

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

  // Opening Register starts a new sign-up: the logout flag of an earlier logout in this tab would
  // otherwise block the companies list and send the user back to Login when the tab becomes visible.
  // It is cleared before the captcha's effect (declared next) asks for a session.
  useEffect(() => clearLoggedOutFlag(), []);
  const captcha = useCaptcha(() => setValue('captcha_answer', ''));

  const register = useMutation({ mutationFn: registerAccount });

  const onValid = async (values: RegisterValues) => {
    setAlert(null);
    const problem = await captchaProblem(values.captcha_answer, accountMessages.captchaFailed);
    if (problem) {
      setAlert(problem);
      captcha.reset();
      return;
    }

    const { confirm_password: _confirm, ...body } = values;
    try {
      const answer = await register.mutateAsync(body);
      await completeLogin(answer);
      await navigate('/', { replace: true });
    } catch (e) {
      setAlert(errorMessage(e, t('auth.registrationFailed')));
      showFieldErrors(e, formFields, setError);
      captcha.reset();
    }
  };

  const onInvalid = () => showSnackbar({ message: t('validation.formInvalid'), severity: 'warning' });

  return (
    <AccountCard title={t('auth.createAccount')} maxWidth={520}>
      <AccountForm
        label={t('auth.createAccount')}
        onSubmit={(e) => void handleSubmit(onValid, onInvalid)(e)}
        submitLabel={t('auth.register')}
        busy={formState.isSubmitting}
        footer={
          <Stack spacing={2}>
            <Typography variant="body2" sx={{ textAlign: 'center' }}>
              {t('auth.haveAccount')}{' '}
              <Link component={RouterLink} to="/login">
                {t('auth.login')}
              </Link>
            </Typography>
            <LanguageSwitcher />
          </Stack>
        }
      >
        <ErrorAlert message={alert} />
        <FormEmailField control={control} name="email" autoComplete="email" />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            control={control}
            name="first_name"
            label={t('auth.firstName')}
            autoComplete="given-name"
            required
          />
          <FormTextField
            control={control}
            name="last_name"
            label={t('auth.lastName')}
            autoComplete="family-name"
            required
          />
        </Stack>
        <Controller
          name="company_id"
          control={control}
          render={({ field, fieldState }) => (
            <SearchPicker
              label={t('auth.company')}
              required
              eager={captcha.ready}
              value={typeof field.value === 'number' ? field.value : null}
              onChange={(id) => field.onChange(id)}
              onBlur={field.onBlur}
              inputRef={field.ref}
              query={publicCompaniesQuery}
              toChoices={companyChoices}
              loadErrorText={t('auth.companiesLoadFailed')}
              error={!!fieldState.error}
              helperText={fieldState.error?.message}
            />
          )}
        />
        <NewPasswordFields control={control} name="password" confirmName="confirm_password" newAccount />
        <CaptchaField captcha={captcha} control={control} name="captcha_answer" required />
      </AccountForm>
    </AccountCard>
  );
};
