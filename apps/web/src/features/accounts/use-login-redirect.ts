import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { PASSWORD_REDIRECT_MS } from './account-api.ts';

/** Once `done` is set, goes to Login after `PASSWORD_REDIRECT_MS` (a new password's success). */
export const useLoginRedirect = (done: unknown) => {
  const navigate = useNavigate();
  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate('/login', { replace: true }), PASSWORD_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);
};
