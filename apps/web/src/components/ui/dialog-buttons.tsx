import type { ReactNode } from 'react';
import Button, { type ButtonProps } from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import { useT } from '../../lib/i18n.ts';

type DialogButtonsProps = {
  /** The action runs: Cancel is disabled and the action button shows its spinner. */
  busy: boolean;
  onCancel: () => void;
  /** Cancel takes the focus (confirmations). */
  cancelFocus?: boolean;
  /** The action button's text. */
  label: ReactNode;
  /** The action; without it the button submits the dialog's form (or the form named by `form`). */
  onConfirm?: () => void;
  form?: string;
  color?: ButtonProps['color'];
  disabled?: boolean;
};

/** A dialog's footer: Cancel, then the contained action button. */
export const DialogButtons = ({
  busy,
  onCancel,
  cancelFocus,
  label,
  onConfirm,
  form,
  color,
  disabled,
}: DialogButtonsProps) => {
  const { t } = useT();
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={busy} autoFocus={cancelFocus}>
        {t('shell.cancel')}
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        form={form}
        onClick={onConfirm}
        color={color}
        variant="contained"
        loading={busy}
        disabled={disabled}
      >
        {label}
      </Button>
    </DialogActions>
  );
};
