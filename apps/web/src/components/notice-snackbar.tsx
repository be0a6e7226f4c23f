import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import type { Notice } from '../lib/notifications.ts';

type NoticeSnackbarProps = {
  notice: Notice;
  open: boolean;
  onClose: (event?: unknown, reason?: string) => void;
  onExited: () => void;
};

/** One message of the snackbar queue (see snackbar-provider.tsx), with its 'Close' button. */
export const NoticeSnackbar = ({ notice, open, onClose, onExited }: NoticeSnackbarProps) => (
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
          Close
        </Button>
      }
    >
      {notice.message}
    </Alert>
  </Snackbar>
);
