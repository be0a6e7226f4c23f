import { useId, type FormEventHandler, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { DialogButtons } from './dialog-buttons.tsx';

/** A form inside a Dialog: the content scrolls, the title and the buttons stay in view. */
export const dialogForm = { display: 'flex', flexDirection: 'column', minHeight: 0 } as const;

type FormDialogProps = {
  open: boolean;
  onClose: () => void;
  /** Saving: the dialog stays open and Cancel is disabled. */
  busy: boolean;
  title: string;
  maxWidth: DialogProps['maxWidth'];
  /** The id of the text that describes the dialog. */
  describedBy?: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  submitDisabled?: boolean;
  children: ReactNode;
};

/** A dialog holding one form: the title, the fields, then Cancel and the submit button. */
export const FormDialog = ({
  open,
  onClose,
  busy,
  title,
  maxWidth,
  describedBy,
  onSubmit,
  submitLabel,
  submitDisabled,
  children,
}: FormDialogProps) => {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth={maxWidth}
      fullWidth
      aria-labelledby={titleId}
      aria-describedby={describedBy}
    >
      <Box component="form" noValidate sx={dialogForm} onSubmit={onSubmit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogButtons busy={busy} onCancel={onClose} label={submitLabel} disabled={submitDisabled} />
      </Box>
    </Dialog>
  );
};
