import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { canEdit } from '@kodi/domain';
import { useSession } from '../../lib/session.ts';
import { providersOnQuery } from '../../components/payment-requests/payment-request-queries.ts';
import { RequestPaymentForm } from '../../components/payment-requests/request-payment-form.tsx';
import { useT } from '../../lib/i18n.ts';
import { useTextsReady } from '../../lib/texts.ts';

/**
 * A lease's 'Request payment' (issue 29, admins and editors, when the company has a provider on): a
 * prompt to the tenant's phone (M-Pesa STK push, MTN MoMo request-to-pay, Airtel Money USSD push),
 * followed until the provider ends it.
 */
export const RequestPaymentSection = ({ occupancyId }: { occupancyId: number }) => {
  const { user } = useSession();
  return canEdit(user) ? <RequestPayment occupancyId={occupancyId} /> : null;
};

const RequestPayment = ({ occupancyId }: { occupancyId: number }) => {
  const { t } = useT();
  const ready = useTextsReady('requests');
  const on = useQuery(providersOnQuery());
  const [open, setOpen] = useState(false);
  if (!on.data?.providers.length || !ready) return null;
  return (
    <Box component="section" aria-label={t('requests.title')} sx={{ mt: 3 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        {t('requests.title')}
      </Typography>
      {open ? (
        <RequestPaymentForm occupancyId={occupancyId} onCancel={() => setOpen(false)} />
      ) : (
        <Button variant="outlined" onClick={() => setOpen(true)}>
          {t('requests.title')}
        </Button>
      )}
    </Box>
  );
};
