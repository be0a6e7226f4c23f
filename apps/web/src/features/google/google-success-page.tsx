import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import { useQueryClient } from '@tanstack/react-query';
import { accountMessages } from '@kodi/domain';
import { PageLoader } from '../../components/page-loader.tsx';
import { completeLogin } from '../../lib/session.ts';
import { clearLoggedOutFlag } from '../../lib/storage.ts';
import { AccountCard } from '../../components/account-card.tsx';
import { useT } from '../../lib/i18n.ts';
import { GOOGLE_FAILURE_REDIRECT_MS, GOOGLE_SUCCESS_REDIRECT_MS, googleSessionQuery } from './google-api.ts';

type Phase = 'processing' | 'success' | 'failed';

/**
 * Where the server sends the browser after a Google sign-in (02-admin §2 'Google sign-in pages'):
 * asks who is signed in, then Home after 1 s, or 'Login failed' and Login after 2 s.
 */
export const GoogleSuccessPage = () => {
  const { t } = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>('processing');

  useEffect(() => {
    let live = true;
    let timer: number | undefined;
    // The user has just signed in: an earlier logout in this tab no longer applies.
    clearLoggedOutFlag();
    void (async () => {
      let ok = false;
      try {
        const status = await queryClient.fetchQuery(googleSessionQuery());
        if (!status.user) throw new Error(accountMessages.googleSessionMissing);
        await completeLogin({ user: status.user, csrf_token: status.csrf_token });
        ok = true;
      } catch (e) {
        console.warn('Google sign-in:', e instanceof Error ? e.message : e);
      }
      if (!live) return;
      setPhase(ok ? 'success' : 'failed');
      timer = window.setTimeout(
        () => void navigate(ok ? '/' : '/login', { replace: true }),
        ok ? GOOGLE_SUCCESS_REDIRECT_MS : GOOGLE_FAILURE_REDIRECT_MS,
      );
    })();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [navigate, queryClient]);

  return (
    <AccountCard title={t('account.googleSignIn')}>
      {phase === 'processing' && <PageLoader label={t('account.googleCompleting')} />}
      {phase === 'success' && (
        <Alert severity="success" role="status">
          {t('account.googleOk')}
        </Alert>
      )}
      {phase === 'failed' && (
        <Alert severity="error" role="alert">
          {t('account.googleLoginFailed')}
        </Alert>
      )}
    </AccountCard>
  );
};
