import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useT } from '../../lib/i18n.ts';
import { useTextsReady } from '../../lib/texts.ts';
import { RequestPaymentForm } from './request-payment-form.tsx';

/** The lease a prompt is for, as an arrears row names it. */
export type PromptLease = { occupancy_id: number; tenant_name: string; unit_name: string; balance: number };

/**
 * 'Request payment' from an arrears row (issue 29): the lease's request in a dialog, the amount
 * prefilled with its balance. Loaded with its first opening (not part of the arrears page's first load).
 */
export const RequestPaymentDialog = ({
  lease,
  onClose,
}: {
  lease: PromptLease | null;
  onClose: () => void;
}) => {
  const { t } = useT();
  const ready = useTextsReady('requests');
  return (
    <Dialog open={lease !== null && ready} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>
        {lease
          ? t('requests.titleFor', { tenant: lease.tenant_name, unit: lease.unit_name })
          : t('requests.title')}
      </DialogTitle>
      <DialogContent>
        {lease && (
          <RequestPaymentForm
            key={lease.occupancy_id}
            occupancyId={lease.occupancy_id}
            defaultAmount={lease.balance}
            onCancel={onClose}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('shell.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
