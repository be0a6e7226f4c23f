import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { keptGet, PortalError, type Kept } from './portal-api.ts';

// What the tenant portal's pages and the owner portal's (issue 27) share: navigation, messages, the
// alert, the note of when an answer was fetched, and an answer kept for offline reading.

export const go = (path: string) => {
  window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
};

export const message = (err: unknown) =>
  err instanceof PortalError ? err.message : 'No connection. Check your network and try again.';

export const fetchedNote = (k: { fetchedAt: string; offline: boolean }) =>
  `${k.offline ? 'Offline: showing what was fetched at' : 'Fetched at'} ${new Date(
    k.fetchedAt,
  ).toLocaleString('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
  })}`;

export const Alert = ({ children, kind = 'error' }: { children: ReactNode; kind?: 'error' | 'info' }) =>
  children ? (
    <p className={`alert ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  ) : null;

export const useKept = <T,>(path: string, onSignedOut: () => void) => {
  const [state, setState] = useState<Kept<T> | undefined>();
  const [error, setError] = useState('');
  const load = useCallback(async () => {
    try {
      setState(await keptGet<T>(path));
      setError('');
    } catch (err) {
      if (err instanceof PortalError && (err.status === 401 || err.status === 403)) onSignedOut();
      else setError(message(err));
    }
  }, [path, onSignedOut]);
  useEffect(() => {
    void load();
  }, [load]);
  return { state, error, reload: load };
};
