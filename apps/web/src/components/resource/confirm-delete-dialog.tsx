import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

type ConfirmDeleteDialogProps = {
  open: boolean;
  /** The definition's `deleteConfirm(row)` text. */
  text: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
};

/** 'Are you sure you want to delete ...?' with Cancel and Delete. */
export const ConfirmDeleteDialog = ({ open, text, busy, onCancel, onConfirm }: ConfirmDeleteDialogProps) => {
  // Keeps the text while the dialog closes.
  const [shown, setShown] = useState(text);
  if (text && text !== shown) setShown(text);
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} maxWidth="xs" fullWidth>
      <DialogTitle>Confirm Delete</DialogTitle>
      <DialogContent>
        <DialogContentText>{shown}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy} autoFocus>
          Cancel
        </Button>
        <Button onClick={onConfirm} color="error" variant="contained" loading={busy}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
};
