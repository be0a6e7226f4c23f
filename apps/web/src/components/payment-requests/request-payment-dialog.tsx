import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
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
}) => (
  <Dialog open={lease !== null} onClose={onClose} maxWidth="xs" fullWidth>
    <DialogTitle>
      {lease ? `Request payment: ${lease.tenant_name} · ${lease.unit_name}` : 'Request payment'}
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
      <Button onClick={onClose}>Close</Button>
    </DialogActions>
  </Dialog>
);
