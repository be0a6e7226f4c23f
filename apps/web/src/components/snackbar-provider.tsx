import {
  Suspense,
  createContext,
  lazy,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import {
  DEFAULT_AUTO_HIDE_MS,
  notify,
  subscribeNotices,
  type Notice,
  type NoticeSeverity,
} from '../lib/notifications.ts';

export type SnackbarOptions = {
  message: string;
  severity?: NoticeSeverity;
  /** Milliseconds; 4000 unless told (01-core §9). */
  autoHideDuration?: number;
};

type SnackbarApi = { showSnackbar: (options: SnackbarOptions) => void };

const SnackbarContext = createContext<SnackbarApi | null>(null);

// The snackbar (Snackbar, Alert, their transitions) loads after the first page, which does not need it.
const loadSnackbar = () => import('./notice-snackbar.tsx');
const NoticeSnackbar = lazy(() => loadSnackbar().then((m) => ({ default: m.NoticeSnackbar })));

/** One global snackbar; messages queue and show one at a time, each with a 'Close' button. */
export const SnackbarProvider = ({ children }: { children: ReactNode }) => {
  const [queue, setQueue] = useState<Notice[]>([]);
  const [open, setOpen] = useState(false);
  const current = queue[0];

  useEffect(() => {
    void loadSnackbar();
  }, []);

  useEffect(
    () =>
      subscribeNotices((notice) => {
        setQueue((q) => [...q, notice]);
      }),
    [],
  );

  useEffect(() => {
    if (current) setOpen(true);
  }, [current]);

  const close = useCallback((_event?: unknown, reason?: string) => {
    if (reason === 'clickaway') return;
    setOpen(false);
  }, []);

  const value = useMemo<SnackbarApi>(
    () => ({
      showSnackbar: ({ message, severity = 'info', autoHideDuration = DEFAULT_AUTO_HIDE_MS }) =>
        notify(message, severity, autoHideDuration),
    }),
    [],
  );

  return (
    <SnackbarContext.Provider value={value}>
      {children}
      {current && (
        <Suspense fallback={null}>
          <NoticeSnackbar
            key={current.id}
            notice={current}
            open={open}
            onClose={close}
            onExited={() => setQueue((q) => q.slice(1))}
          />
        </Suspense>
      )}
    </SnackbarContext.Provider>
  );
};

export const useSnackbar = (): SnackbarApi => {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error('useSnackbar must be used inside <SnackbarProvider>');
  return api;
};

/** Shows `message` as an error snackbar whenever it appears (or changes); nothing while it is null. */
export const useErrorSnackbar = (message: string | null, autoHideDuration?: number) => {
  const { showSnackbar } = useSnackbar();
  useEffect(() => {
    if (message) showSnackbar({ message, severity: 'error', autoHideDuration });
  }, [message, autoHideDuration, showSnackbar]);
};
