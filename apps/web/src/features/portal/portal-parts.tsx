import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { intlLocales, isLanguage } from '@kodi/domain';
import { keptGet, PortalError, type Kept } from './portal-api.ts';
import { i18n } from '../../lib/i18n.ts';

// What the tenant portal's pages and the owner portal's (issue 27) share: navigation, messages, the
// alert, the note of when an answer was fetched, and an answer kept for offline reading.

export const go = (path: string) => {
  window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
};

// these two are called outside a component's render too (a request's failure): the pages' language
// from the one translator (its components re-render when the language changes)
export const message = (err: unknown) =>
  err instanceof PortalError ? err.message : i18n._('portal.noConnection');

export const fetchedNote = (k: { fetchedAt: string; offline: boolean }) => {
  const when = new Date(k.fetchedAt).toLocaleString(
    intlLocales[isLanguage(i18n.locale) ? i18n.locale : 'en'],
    {
      dateStyle: 'medium',
      timeStyle: 'short',
    },
  );
  return i18n._(k.offline ? 'portal.offlineFetchedAt' : 'portal.fetchedAt', { when });
};

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
