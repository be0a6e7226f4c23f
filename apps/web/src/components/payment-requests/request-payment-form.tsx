import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  formatMoney,
  paymentProviderLabels,
  providerOfPhone,
  type PaymentProviderName,
  type PaymentRequest,
} from '@kodi/domain';
import { api, errorMessage } from '../../lib/api-client.ts';
import { DASHBOARD_KEY, resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import { useT } from '../../lib/i18n.ts';
import { paymentOptionsQuery, type PaymentOptions } from './payment-request-queries.ts';

/** How often a pending prompt is asked about. */
const POLL_MS = 2000;

type FormProps = {
  occupancyId: number;
  /** the amount prefilled (the lease's balance on the arrears page) */
  defaultAmount?: number | undefined;
  onCancel: () => void;
};

/**
 * Request payment's form (issue 29, admins and editors): a prompt to the tenant's phone (M-Pesa STK
 * push, MTN MoMo request-to-pay, Airtel Money USSD push) for a lease, the phone prefilled with its
 * tenant's, the provider with its network's (among those the company has on), the amount with what
 * is given; then the request followed until the provider ends it.
 */
export const RequestPaymentForm = ({ occupancyId, defaultAmount, onCancel }: FormProps) => {
  const { t } = useT();
  const options = useQuery(paymentOptionsQuery(occupancyId));
  if (options.isPending)
    return (
      <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <CircularProgress size={16} aria-hidden="true" />
        <Typography variant="body2">{t('common.loading')}</Typography>
      </Box>
    );
  if (options.isError)
    return <Alert severity="error">{errorMessage(options.error, t('requests.providersLoadFailed'))}</Alert>;
  if (options.data.providers.length === 0) return <Alert severity="info">{t('requests.noProvider')}</Alert>;
  return (
    <PromptForm
      occupancyId={occupancyId}
      defaultAmount={defaultAmount}
      options={options.data}
      onCancel={onCancel}
    />
  );
};

const PromptForm = ({
  occupancyId,
  defaultAmount,
  options,
  onCancel,
}: FormProps & { options: PaymentOptions }) => {
  const { t, language } = useT();
  const company = useCompanyMoney();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(defaultAmount && defaultAmount > 0 ? String(defaultAmount) : '');
  const [phone, setPhone] = useState(options.phone ?? '');
  const [provider, setProvider] = useState<PaymentProviderName>(
    options.provider ?? options.providers[0] ?? 'mpesa',
  );
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
          // paid: the lists, the lease and the arrears' totals (under the dashboard's key) follow
          if (r.status === 'completed') {
            void queryClient.invalidateQueries({ queryKey: resourceKeys.all });
            void queryClient.invalidateQueries({ queryKey: DASHBOARD_KEY });
          }
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [request, occupancyId, queryClient]);
  const money = (n: string | null) =>
    formatMoney(Number(n ?? 0), company.currency, company.decimals, language);

  if (request)
    return (
      <Stack spacing={1} data-testid="payment-request-status">
        {request.status === 'pending' ? (
          <Alert severity="info" role="status">
            {t('requests.promptSent', { phone: request.phone, amount: money(request.amount) })}
          </Alert>
        ) : request.status === 'completed' ? (
          <Alert severity={request.flagged ? 'warning' : 'success'} role="status">
            {t('requests.paid', {
              amount: money(request.received_amount),
              receipt: request.receipt_number ?? '',
            })}
            {request.flagged ? ` (${request.reason})` : ''}
          </Alert>
        ) : (
          <Alert severity="error" role="status">
            {t(request.status === 'cancelled' ? 'requests.cancelled' : 'requests.failed', {
              reason: request.reason ?? '',
            })}
          </Alert>
        )}
        {request.status !== 'pending' && (
          <Box>
            <Button variant="outlined" onClick={() => setRequest(null)}>
              {t('requests.newRequest')}
            </Button>
          </Box>
        )}
      </Stack>
    );

  return (
    <Stack
      component="form"
      aria-label={t('requests.title')}
      spacing={1.5}
      sx={{ maxWidth: 420, pt: 0.5 }}
      onSubmit={(e) => {
        e.preventDefault();
        send.mutate();
      }}
    >
      <TextField
        label={t('requests.amount', { currency: company.currency })}
        required
        size="small"
        inputMode="decimal"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
      />
      <TextField
        label={t('requests.phone')}
        required
        size="small"
        type="tel"
        value={phone}
        onChange={(e) => {
          setPhone(e.target.value);
          const own = e.target.value.trim().startsWith('+') ? providerOfPhone(e.target.value) : null;
          if (own && options.providers.includes(own)) setProvider(own);
        }}
      />
      <TextField
        select
        label={t('requests.provider')}
        size="small"
        value={provider}
        onChange={(e) => setProvider(e.target.value as PaymentProviderName)}
      >
        {options.providers.map((p) => (
          <MenuItem key={p} value={p}>
            {paymentProviderLabels[p]}
          </MenuItem>
        ))}
      </TextField>
      {send.isError && <Alert severity="error">{errorMessage(send.error, t('requests.notSent'))}</Alert>}
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" loading={send.isPending}>
          {t('requests.sendPrompt')}
        </Button>
        <Button onClick={onCancel}>{t('shell.cancel')}</Button>
      </Stack>
    </Stack>
  );
};
