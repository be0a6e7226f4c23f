import { useState } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { DialogButtons } from '../ui/dialog-buttons.tsx';
import { useT } from '../../lib/i18n.ts';

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
  const { t } = useT();
  if (text && text !== shown) setShown(text);
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} maxWidth="xs" fullWidth>
      <DialogTitle>{t('shell.confirmDelete')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{shown}</DialogContentText>
      </DialogContent>
      <DialogButtons
        busy={busy}
        onCancel={onCancel}
        cancelFocus
        label={t('shell.delete')}
        onConfirm={onConfirm}
        color="error"
      />
    </Dialog>
  );
};
