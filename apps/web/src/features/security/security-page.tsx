import { useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Language, MfaSetup, SessionInfo } from '@kodi/domain';
import { PasswordField } from '../../components/password-field.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { ErrorAlert } from '../../components/ui/error-alert.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { ensureStatus, useSession } from '../../lib/session.ts';
import { useT } from '../../lib/i18n.ts';
import {
  confirmMfa,
  disableMfa,
  endOtherSessions,
  endSession,
  mfaKey,
  mfaQuery,
  sessionsKey,
  sessionsQuery,
  setUpMfa,
} from './security-api.ts';

const LOCALES: Record<Language, string> = { en: 'en-US', sw: 'sw-KE', fr: 'fr-FR' };

const when = (iso: string | null, language: Language) =>
  iso ? new Date(iso).toLocaleString(LOCALES[language], { dateStyle: 'medium', timeStyle: 'short' }) : '';

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Paper variant="outlined" component="section" aria-label={title} sx={{ p: { xs: 2, sm: 3 } }}>
    <Stack spacing={2}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Stack>
  </Paper>
);

/** What the code forms send: the authenticator's code and the current password (issue 23). */
type CodeAndPassword = { code: string; current_password: string };
type FieldErrors = { code?: string | undefined; current_password?: string | undefined };

/** The errors of a refused code form, by field: the server's, else one message under the code. */
const fieldErrors = (e: unknown, fallback: string): FieldErrors =>
  isApiError(e) && (e.fields?.code || e.fields?.current_password)
    ? { code: e.fields.code, current_password: e.fields.current_password }
    : { code: errorMessage(e, fallback) };

/**
 * The 6-digit code field, the current password and the button (enrolment's confirm, turning off): a
 * session alone, without the password, changes nothing of the second factor.
 */
const CodeForm = ({
  label,
  busy,
  errors,
  onSubmit,
  color = 'primary',
}: {
  label: string;
  busy: boolean;
  errors: FieldErrors;
  onSubmit: (body: CodeAndPassword) => void;
  color?: 'primary' | 'error';
}) => {
  const { t } = useT();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ code, current_password: password });
  };
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label={t('security.authCode')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
          error={!!errors.code}
          helperText={errors.code ?? t('security.codeHelp')}
          sx={{ maxWidth: { sm: 260 } }}
          fullWidth
        />
        <Box sx={{ width: '100%', maxWidth: { sm: 260 } }}>
          <PasswordField
            label={t('security.currentPassword')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            error={!!errors.current_password}
            helperText={errors.current_password ?? t('security.passwordHelp')}
            fullWidth
          />
        </Box>
        <Button type="submit" variant="contained" color={color} disabled={busy} sx={{ mt: { sm: 1 } }}>
          {label}
        </Button>
      </Stack>
    </Box>
  );
};

const RecoveryCodesShown = ({ codes, onDone }: { codes: string[]; onDone: () => void }) => {
  const { t } = useT();
  const { showSnackbar } = useSnackbar();
  return (
    <Stack spacing={2}>
      <Alert severity="success">{t('security.enabled')}</Alert>
      <Typography>{t('security.keepCodes')}</Typography>
      <Box
        component="ul"
        aria-label={t('security.recoveryCodes')}
        sx={{
          m: 0,
          p: 2,
          listStyle: 'none',
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(5, auto)' },
          gap: 1,
          fontFamily: 'monospace',
          fontSize: '1rem',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <Button
          variant="outlined"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(codes.join('\n'))
              .then(() => showSnackbar({ message: t('security.codesCopied'), severity: 'success' }))
              .catch(() => undefined)
          }
        >
          {t('security.copyCodes')}
        </Button>
        <Button variant="contained" onClick={onDone}>
          {t('security.savedCodes')}
        </Button>
      </Stack>
    </Stack>
  );
};

const Enrolment = ({ setup, onConfirmed }: { setup: MfaSetup; onConfirmed: (codes: string[]) => void }) => {
  const { t } = useT();
  const [errors, setErrors] = useState<FieldErrors>({});
  const confirm = useMutation({ mutationFn: confirmMfa });
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`;
  return (
    <Stack spacing={2}>
      <Typography>{t('security.step1')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Box
          component="img"
          src={qr}
          alt={t('security.qrAlt')}
          sx={{
            width: 200,
            height: 200,
            bgcolor: '#fff',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
          }}
        />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('security.setupKey')}
          </Typography>
          <Typography
            data-testid="mfa-secret"
            sx={{ fontFamily: 'monospace', fontSize: '1.05rem', wordBreak: 'break-all' }}
          >
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </Typography>
        </Box>
      </Stack>
      <Typography>{t('security.step2')}</Typography>
      <CodeForm
        label={t('security.confirm')}
        busy={confirm.isPending}
        errors={errors}
        onSubmit={(body) => {
          setErrors({});
          confirm.mutate(body, {
            onSuccess: (answer) => onConfirmed(answer.recovery_codes),
            onError: (e) => setErrors(fieldErrors(e, t('security.confirmFailed'))),
          });
        }}
      />
    </Stack>
  );
};

const TwoFactorSection = () => {
  const { t, language } = useT();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const status = useQuery(mfaQuery());
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [offErrors, setOffErrors] = useState<FieldErrors>({});
  const start = useMutation({ mutationFn: setUpMfa });
  const disable = useMutation({ mutationFn: disableMfa });

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: mfaKey });
    await queryClient.invalidateQueries({ queryKey: sessionsKey });
    await ensureStatus({ force: true });
  };

  let body: ReactNode;
  if (codes) {
    body = (
      <RecoveryCodesShown
        codes={codes}
        onDone={() => {
          setCodes(null);
          setSetup(null);
        }}
      />
    );
  } else if (status.isPending) {
    body = <CircularProgress size={24} aria-label={t('security.loading')} />;
  } else if (status.isError) {
    body = <ErrorAlert message={errorMessage(status.error, t('security.loadFailed'))} />;
  } else if (status.data.enabled) {
    body = (
      <Stack spacing={2}>
        <Alert severity="success">
          {t('security.enabledSince', {
            since: when(status.data.enabled_at, language),
            left: status.data.recovery_codes_left,
          })}
        </Alert>
        <Typography>{t('security.toTurnOff')}</Typography>
        <CodeForm
          label={t('security.turnOff')}
          color="error"
          busy={disable.isPending}
          errors={offErrors}
          onSubmit={(body) => {
            setOffErrors({});
            disable.mutate(body, {
              onSuccess: () => {
                showSnackbar({ message: t('security.disabled'), severity: 'success' });
                void refresh();
              },
              onError: (e) => setOffErrors(fieldErrors(e, t('security.turnOffFailed'))),
            });
          }}
        />
      </Stack>
    );
  } else if (setup) {
    body = (
      <Enrolment
        setup={setup}
        onConfirmed={(recovery) => {
          setCodes(recovery);
          void refresh();
        }}
      />
    );
  } else {
    body = (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>{t('security.explain')}</Typography>
        <ErrorAlert message={error} />
        <Button
          variant="contained"
          disabled={start.isPending}
          onClick={() => {
            setError(null);
            start.mutate(undefined, {
              onSuccess: setSetup,
              onError: (e) => setError(errorMessage(e, t('security.startFailed'))),
            });
          }}
        >
          {t('security.setUp')}
        </Button>
      </Stack>
    );
  }
  return <Section title={t('security.mfaTitle')}>{body}</Section>;
};

const SessionRow = ({ s, onEnd, busy }: { s: SessionInfo; onEnd: (id: number) => void; busy: boolean }) => {
  const { t, language } = useT();
  return (
    <Box
      component="li"
      aria-label={s.current ? t('security.thisSessionOf', { browser: s.browser }) : s.browser}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        alignItems: 'center',
        justifyContent: 'space-between',
        py: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 500 }}>
          {s.browser}{' '}
          {s.current && (
            <Chip size="small" color="primary" label={t('security.thisSession')} sx={{ ml: 0.5 }} />
          )}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('security.sessionLine', {
            address: s.ip_address ?? t('security.unknownAddress'),
            signedIn: when(s.created_at, language),
            lastSeen: when(s.last_seen_at, language),
          })}
        </Typography>
      </Box>
      {!s.current && (
        <Button size="small" color="error" variant="outlined" disabled={busy} onClick={() => onEnd(s.id)}>
          {t('security.end')}
        </Button>
      )}
    </Box>
  );
};

const SessionsSection = () => {
  const { t } = useT();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const sessions = useQuery(sessionsQuery());
  const done = () => void queryClient.invalidateQueries({ queryKey: sessionsKey });
  const fail = (e: unknown) =>
    showSnackbar({ message: errorMessage(e, t('security.endFailed')), severity: 'error' });
  const endOne = useMutation({ mutationFn: endSession, onSuccess: done, onError: fail });
  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: (answer) => {
      showSnackbar({ message: t('security.sessionsEnded', { count: answer.ended }), severity: 'success' });
      done();
    },
    onError: fail,
  });
  const list = sessions.data ?? [];
  return (
    <Section title={t('security.sessions')}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('security.sessionsIntro')}
      </Typography>
      {sessions.isPending && <CircularProgress size={24} aria-label={t('security.loading')} />}
      {sessions.isError && (
        <ErrorAlert message={errorMessage(sessions.error, t('security.sessionsLoadFailed'))} />
      )}
      <Box component="ul" aria-label={t('security.yourSessions')} sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {list.map((s) => (
          <SessionRow key={s.id} s={s} busy={endOne.isPending} onEnd={(id) => endOne.mutate(id)} />
        ))}
      </Box>
      <Box>
        <Button
          variant="outlined"
          color="error"
          disabled={endOthers.isPending || list.every((s) => s.current)}
          onClick={() => endOthers.mutate()}
        >
          {t('security.endOthers')}
        </Button>
      </Box>
    </Section>
  );
};

/** The user's own security (issue 20): two-factor sign-in and sessions. */
export const SecurityPage = () => {
  const { t } = useT();
  const { user } = useSession();
  const mfa = useQuery(mfaQuery());
  const required = mfa.data
    ? mfa.data.required && !mfa.data.enabled
    : !!user?.mfa_required && !user.mfa_enabled;
  return (
    <Box sx={{ maxWidth: 860, mx: 'auto', py: { xs: 1, sm: 3 } }}>
      <Stack spacing={2.5}>
        <Typography variant="h4" component="h1">
          {t('security.title')}
        </Typography>
        {required && <Alert severity="warning">{t('security.enrolmentRequired')}</Alert>}
        <TwoFactorSection />
        <SessionsSection />
      </Stack>
    </Box>
  );
};
