import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Block from '@mui/icons-material/Block';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { canEdit, formatDate, isCompanyAdmin, payments, voidPaymentBodySchema } from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { DASHBOARD_KEY, resourceKeys, type RecordOf } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { actionErrorText } from '../../components/resource/messages.ts';
import { DialogButtons } from '../../components/ui/dialog-buttons.tsx';
import { useT } from '../../lib/i18n.ts';

type Payment = RecordOf<'payments'>;

/**
 * Under a payment's details: a voided one says when, by whom and why; a completed one has "Void
 * payment" (company admins; an editor for a payment they recorded today, which the server checks),
 * which asks for the reason.
 */
export const VoidPaymentSection = ({ payment }: { payment: Payment }) => {
  const { user } = useSession();
  const { t, language } = useT();
  const VOID_PAYMENT = t('entityExtras.voidPayment');
  const { showSnackbar } = useSnackbar();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: { reason: string }) => api.post<Payment>(`/payments/${payment.id}/void`, body),
    onSuccess: async (record) => {
      client.setQueryData(resourceKeys.record('payments', payment.id), record);
      await Promise.all([
        client.invalidateQueries({ queryKey: resourceKeys.entity('payments') }),
        client.invalidateQueries({ queryKey: DASHBOARD_KEY }),
        client.invalidateQueries({ queryKey: resourceKeys.all, refetchType: 'none' }),
      ]);
    },
  });

  if (payment.status === 'void') {
    const date = formatDate(payment.voided_at, language);
    const reason = payment.void_reason ?? '';
    return (
      <Alert severity="warning" sx={{ mt: 3 }}>
        {payment.voided_by_name
          ? t('entityExtras.voidedOnBy', { date, name: payment.voided_by_name, reason })
          : t('entityExtras.voidedOn', { date, reason })}
      </Alert>
    );
  }
  if (payment.status !== 'completed' || !(isCompanyAdmin(user) || canEdit(user))) return null;

  const submit = async () => {
    const parsed = voidPaymentBodySchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? t('entityExtras.giveReason'));
      return;
    }
    try {
      await mutation.mutateAsync(parsed.data);
      setOpen(false);
      showSnackbar({ message: t('entityExtras.voided'), severity: 'success', autoHideDuration: 4000 });
    } catch (e) {
      setError(actionErrorText(payments, e, t('entityExtras.voidFailed')));
    }
  };

  return (
    <Box sx={{ mt: 3 }}>
      <Button
        variant="outlined"
        color="error"
        startIcon={<Block />}
        onClick={() => {
          setReason('');
          setError(null);
          setOpen(true);
        }}
      >
        {VOID_PAYMENT}
      </Button>
      <Dialog
        open={open}
        onClose={mutation.isPending ? undefined : () => setOpen(false)}
        maxWidth="xs"
        fullWidth
      >
        <DialogTitle>{VOID_PAYMENT}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {t('entityExtras.voidWarning', {
              number: payment.receipt_number ?? payment.payment_serial ?? '',
            })}
          </DialogContentText>
          <TextField
            autoFocus
            fullWidth
            required
            multiline
            minRows={2}
            label={t('entityExtras.reason')}
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setError(null);
            }}
            error={!!error}
            helperText={error ?? `${reason.length}/500`}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </DialogContent>
        <DialogButtons
          busy={mutation.isPending}
          onCancel={() => setOpen(false)}
          label={VOID_PAYMENT}
          onConfirm={() => void submit()}
          color="error"
        />
      </Dialog>
    </Box>
  );
};
