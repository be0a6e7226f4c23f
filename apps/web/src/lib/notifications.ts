/**
 * A tiny message channel so non-React code (the API client, the session store) can show snackbar
 * messages. The snackbar provider in components/ renders them.
 */
export type NoticeSeverity = 'success' | 'info' | 'warning' | 'error';

export type Notice = {
  id: number;
  message: string;
  severity: NoticeSeverity;
  autoHideDuration: number;
};

export const DEFAULT_AUTO_HIDE_MS = 4000;

type Listener = (notice: Notice) => void;

const listeners = new Set<Listener>();
let nextId = 1;

export const notify = (
  message: string,
  severity: NoticeSeverity = 'info',
  autoHideDuration: number = DEFAULT_AUTO_HIDE_MS,
): void => {
  const notice: Notice = { id: nextId++, message, severity, autoHideDuration };
  for (const listener of listeners) listener(notice);
};

export const subscribeNotices = (listener: Listener): (() => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
