import { lazy, Suspense, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useForm, type FieldErrors } from 'react-hook-form';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Google from '@mui/icons-material/Google';
import { useQueryClient } from '@tanstack/react-query';
import type { LoginAnswer, MfaChallenge, loginBody } from '@kodi/domain';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { CaptchaField, useCaptcha } from '../../components/ui/captcha.tsx';
import { ErrorAlert } from '../../components/ui/error-alert.tsx';
import { FormEmailField, FormPasswordField } from '../../components/ui/form-text-field.tsx';
import { LazyTooltip } from '../../components/ui/lazy-tooltip.tsx';
import { API_BASE, api, errorMessage, isApiError, setCsrfToken } from '../../lib/api-client.ts';
import { captchaProblem } from '../../lib/captcha.ts';
import { lazyResolver, RESOLVER_LOAD_FAILED } from '../../lib/lazy-resolver.ts';
import { safeRedirect } from '../../lib/navigation.ts';
import { serverInfoKey, serverInfoQuery, type ServerInfo } from '../../lib/server-info.ts';
import { completeLogin } from '../../lib/session.ts';
import { useT } from '../../lib/i18n.ts';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';

// the code step (a second factor) loads when a sign-in needs it
const SecondFactorStep = lazy(() =>
  import('./second-factor-step.tsx').then((m) => ({ default: m.SecondFactorStep })),
);

export const GOOGLE_LOGIN_URL = `${API_BASE}/auth/google/login`;

export const LOGIN_FAILED = 'Login failed. Please check your credentials.';
export const CAPTCHA_FAILED = 'CAPTCHA failed';

type LoginInput = z.input<typeof loginBody>;
type LoginValues = z.output<typeof loginBody>;

// The form's schema (and zod) load after the page: the page shows without them.
const validation = lazyResolver(() => import('./login-resolver.ts').then((m) => m.loginResolver));

const GoogleButton = ({ enabled }: { enabled: boolean }) => {
  const { t } = useT();
  const button = (
    <Button
      variant="outlined"
      fullWidth
      size="large"
      startIcon={<Google />}
      disabled={!enabled}
      {...(enabled ? { href: GOOGLE_LOGIN_URL } : {})}
    >
      {t('auth.loginWithGoogle')}
    </Button>
  );
  if (enabled) return button;
  return (
    <LazyTooltip title={t('auth.googleNotConfigured')} describeChild>
      <Box component="span" sx={{ display: 'block' }}>
        {button}
      </Box>
    </LazyTooltip>
  );
};

/** Sign in (01-core §2 'Login', §5 'Login'). */
export const LoginPage = ({ googleEnabled }: { googleEnabled?: boolean }) => {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { showSnackbar } = useSnackbar();
  const { t } = useT();
  const [alert, setAlert] = useState<string | null>(null);
  // a tenant's portal account signs in at the portal (issue 19), an owner's at the owner portal (issue
  // 27): the page shows its link
  const [tenant, setTenant] = useState<'tenant' | 'owner' | false>(false);
  // the password was right and the user has a second factor (or Google sent them here for it)
  const [codeStep, setCodeStep] = useState(searchParams.get('mfa') === '1');
  const { control, handleSubmit, setValue, formState } = useForm<LoginInput, unknown, LoginValues>({
    resolver: validation.resolver,
    defaultValues: { email: '', password: '', captcha_answer: '' },
  });
  useEffect(() => validation.preload(), []);
  const captcha = useCaptcha(() => setValue('captcha_answer', ''));

  // Google sign-in is on when the server's status says so (asked once the session exists).
  // read once the session is open (the CAPTCHA's), without React Query's observer (the page's budget)
  const queryClient = useQueryClient();
  const [serverInfo, setServerInfo] = useState<ServerInfo | undefined>(() =>
    queryClient.getQueryData(serverInfoKey),
  );
  useEffect(() => {
    if (!captcha.ready) return;
    let live = true;
    queryClient.fetchQuery(serverInfoQuery()).then(
      (info) => {
        if (live) setServerInfo(info);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [captcha.ready, queryClient]);
  const google = googleEnabled ?? serverInfo?.googleEnabled ?? false;

  const onValid = async (values: LoginValues) => {
    setAlert(null);
    setTenant(false);
    const problem = await captchaProblem(values.captcha_answer, CAPTCHA_FAILED);
    if (problem) {
      setAlert(problem);
      captcha.reset();
      return;
    }

    let answer: LoginAnswer | MfaChallenge;
    try {
      answer = await api.post<LoginAnswer | MfaChallenge>('/auth/login', values);
    } catch (e) {
      setAlert(errorMessage(e, LOGIN_FAILED));
      setTenant(
        isApiError(e) && e.code === 'tenant_account'
          ? errorMessage(e, '').includes('owner')
            ? 'owner'
            : 'tenant'
          : false,
      );
      captcha.reset();
      return;
    }
    if ('mfa_required' in answer) {
      setCsrfToken(answer.csrf_token);
      setCodeStep(true);
      return;
    }
    await signedIn(answer);
  };

  const signedIn = async (answer: LoginAnswer) => {
    await completeLogin(answer);
    await navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
  };

  if (codeStep) {
    return (
      <Suspense fallback={null}>
        <SecondFactorStep
          onSignedIn={signedIn}
          onRestart={(message) => {
            setCodeStep(false);
            setAlert(message);
            captcha.reset();
          }}
        />
      </Suspense>
    );
  }

  const onInvalid = (errors: FieldErrors<LoginInput>) => {
    if (errors.root?.type === RESOLVER_LOAD_FAILED) setAlert(t('shell.chunkFailed'));
    else if (errors.root?.message) setAlert(errors.root.message);
    else showSnackbar({ message: t('validation.formInvalid'), severity: 'warning' });
  };

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
              {t('auth.signIn')}
            </Typography>

            <ErrorAlert message={alert} />
            {tenant ? (
              <Typography>
                {tenant === 'owner' ? (
                  <Link href="/owner/login">{t('auth.toOwnerPortal')}</Link>
                ) : (
                  <Link href="/portal/login">{t('auth.toTenantPortal')}</Link>
                )}
              </Typography>
            ) : null}

            <FormEmailField control={control} name="email" autoComplete="username" required={false} />
            <FormPasswordField
              control={control}
              name="password"
              label={t('common.password')}
              autoComplete="current-password"
            />
            <CaptchaField captcha={captcha} control={control} name="captcha_answer" />

            <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Link component={RouterLink} to="/forgot" variant="body2">
                {t('auth.forgotPassword')}
              </Link>
            </Box>

            <Button
              type="submit"
              variant="contained"
              size="large"
              fullWidth
              disabled={formState.isSubmitting}
            >
              {t('auth.login')}
            </Button>

            {/* a divider's look with a Box (MUI's Divider is 1.5 KB the login page's budget has not) */}
            <Box
              role="separator"
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 2,
                '&::before, &::after': { content: '""', flex: 1, borderTop: 1, borderColor: 'divider' },
              }}
            >
              <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>
                {t('auth.or')}
              </Typography>
            </Box>

            <GoogleButton enabled={google} />

            <Typography variant="body2" sx={{ textAlign: 'center' }}>
              {t('auth.noAccount')}{' '}
              <Link component={RouterLink} to="/register">
                {t('auth.signUp')}
              </Link>
            </Typography>

            <LanguageSwitcher />
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
};
