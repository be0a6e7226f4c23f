import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Portal from '@mui/material/Portal';
import Snackbar from '@mui/material/Snackbar';
import type { Notice } from '../lib/notifications.ts';
import { useT } from '../lib/i18n.ts';

type NoticeSnackbarProps = {
  notice: Notice;
  open: boolean;
  onClose: (event?: unknown, reason?: string) => void;
  onExited: () => void;
};

/**
 * One message of the snackbar queue (see snackbar-provider.tsx), with its 'Close' button. It is
 * portalled to the end of <body>: mounted after a dialog opened (a refused save keeps the form
 * open), it is not among the siblings the dialog hides from screen readers, so its alert is heard.
 */
export const NoticeSnackbar = ({ notice, open, onClose, onExited }: NoticeSnackbarProps) => {
  const { t } = useT();
  return (
    <Portal>
      <Snackbar
        open={open}
        autoHideDuration={notice.autoHideDuration}
        onClose={onClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        slotProps={{ transition: { onExited } }}
      >
        <Alert
          severity={notice.severity}
          variant="filled"
          sx={{ width: '100%', alignItems: 'center' }}
          action={
            <Button color="inherit" size="small" onClick={() => onClose()}>
              {t('shell.close')}
            </Button>
          }
        >
          {notice.message}
        </Alert>
      </Snackbar>
    </Portal>
  );
};
