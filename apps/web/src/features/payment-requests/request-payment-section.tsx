import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  canEdit,
  formatMoney,
  paymentProviderLabels,
  paymentProviderNames,
  providerOfPhone,
  type PaymentProviderName,
  type PaymentRequest,
} from '@kodi/domain';
import { api, errorMessage } from '../../lib/api-client.ts';
import { resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';

/**
 * A lease's 'Request payment' (issue 29, canEdit): a prompt to the tenant's phone (M-Pesa STK push,
 * MTN MoMo or Airtel request-to-pay), followed until the provider ends it.
 */
export const RequestPaymentSection = ({ occupancyId }: { occupancyId: number }) => {
  const { user } = useSession();
  return canEdit(user) ? <RequestPayment occupancyId={occupancyId} /> : null;
};

const RequestPayment = ({ occupancyId }: { occupancyId: number }) => {
  const company = useCompanyMoney();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [phone, setPhone] = useState('');
  const [provider, setProvider] = useState<PaymentProviderName>('mpesa');
  const [request, setRequest] = useState<PaymentRequest | null>(null);
  const send = useMutation({
    mutationFn: () =>
      api.post<PaymentRequest>(`/occupancy/${occupancyId}/payment-requests`, {
        amount: Number(amount),
        phone,
        provider,
      }),
    onSuccess: setRequest,
  });
  useEffect(() => {
    if (request?.status !== 'pending') return;
    const timer = setInterval(() => {
      void api
        .get<PaymentRequest>(`/occupancy/${occupancyId}/payment-requests/${request.id}`)
        .then((r) => {
          setRequest(r);
          if (r.status === 'completed') void queryClient.invalidateQueries({ queryKey: resourceKeys.all });
        })
        .catch(() => undefined);
    }, 2000);
    return () => clearInterval(timer);
  }, [request, occupancyId, queryClient]);
  const money = (n: string | null) => formatMoney(Number(n ?? 0), company.currency, company.decimals);

  return (
    <Box component="section" aria-label="Request payment" sx={{ mt: 3 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        Request payment
      </Typography>
      {request ? (
        <Stack spacing={1}>
          {request.status === 'pending' ? (
            <Alert severity="info">
              Prompt sent to {request.phone} for {money(request.amount)}: waiting for the tenant’s PIN…
            </Alert>
          ) : request.status === 'completed' ? (
            <Alert severity={request.flagged ? 'warning' : 'success'}>
              Paid {money(request.received_amount)}: receipt {request.receipt_number}
              {request.flagged ? ` (${request.reason})` : ''}
            </Alert>
          ) : (
            <Alert severity="error">
              {request.status === 'cancelled' ? 'Cancelled' : 'Failed'}: {request.reason}
            </Alert>
          )}
          {request.status !== 'pending' && (
            <Box>
              <Button variant="outlined" onClick={() => setRequest(null)}>
                New request
              </Button>
            </Box>
          )}
        </Stack>
      ) : !open ? (
        <Button variant="outlined" onClick={() => setOpen(true)}>
          Request payment
        </Button>
      ) : (
        <Stack
          component="form"
          spacing={1.5}
          sx={{ maxWidth: 420 }}
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate();
          }}
        >
          <TextField
            label="Amount"
            required
            size="small"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <TextField
            label="Phone"
            required
            size="small"
            type="tel"
            value={phone}
            onChange={(e) => {
              setPhone(e.target.value);
              const own = e.target.value.trim().startsWith('+') ? providerOfPhone(e.target.value) : null;
              if (own) setProvider(own);
            }}
          />
          <TextField
            select
            label="Provider"
            size="small"
            value={provider}
            onChange={(e) => setProvider(e.target.value as PaymentProviderName)}
          >
            {paymentProviderNames.map((p) => (
              <MenuItem key={p} value={p}>
                {paymentProviderLabels[p]}
              </MenuItem>
            ))}
          </TextField>
          {send.isError && (
            <Alert severity="error">{errorMessage(send.error, 'The prompt was not sent.')}</Alert>
          )}
          <Stack direction="row" spacing={1}>
            <Button type="submit" variant="contained" loading={send.isPending}>
              Send prompt
            </Button>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
          </Stack>
        </Stack>
      )}
    </Box>
  );
};
