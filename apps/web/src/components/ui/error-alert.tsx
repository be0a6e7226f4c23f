import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';

type ErrorAlertProps = {
  /** The text; nothing is shown without it. */
  message: string | null;
  /** Shown after the text (e.g. a link). */
  children?: ReactNode;
};

/** A form's error, announced (role 'alert'). */
export const ErrorAlert = ({ message, children }: ErrorAlertProps) =>
  message ? (
    <Alert severity="error" role="alert">
      {message}
      {children}
    </Alert>
  ) : null;
