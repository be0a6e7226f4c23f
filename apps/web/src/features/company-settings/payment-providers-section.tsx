import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  paymentProviderLabels,
  paymentProviderNames,
  providerCallbackLabels,
  providerCredentialFields,
  type PaymentProvider,
  type PaymentProviderName,
} from '@kodi/domain';
import { api, errorMessage } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { useT } from '../../lib/i18n.ts';

const providerKey = (p: PaymentProviderName) => [...resourceKeys.all, 'payment-providers', p] as const;

const providerQuery = (p: PaymentProviderName) =>
  queryOptions({
    queryKey: providerKey(p),
    queryFn: ({ signal }) => api.get<PaymentProvider>(`/payment-providers/${p}`, { signal }),
    staleTime: 0,
  });

/**
 * Company settings, 'Payment providers' (issue 29): each provider on or off, its credentials (typed in,
 * sealed by the server, never shown again: a set one says so and is kept unless typed over), and the
 * callback URLs to paste in the provider's portal.
 */
export const PaymentProvidersSection = () => {
  const { t } = useT();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={t('settings.paymentProviders')}
      sx={{ p: { xs: 1.5, sm: 2 } }}
    >
      <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
        {t('settings.paymentProviders')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        {t('settings.paymentProvidersIntro')}
      </Typography>
      <Stack spacing={2}>
        {paymentProviderNames.map((p) => (
          <ProviderForm key={p} provider={p} />
        ))}
      </Stack>
    </Paper>
  );
};

const ProviderForm = ({ provider }: { provider: PaymentProviderName }) => {
  const { t } = useT();
  const query = useQuery(providerQuery(provider));
  if (query.isPending)
    return (
      <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <CircularProgress size={16} aria-hidden="true" />
        <Typography variant="body2">
          {t('settings.loadingProvider', { provider: paymentProviderLabels[provider] })}
        </Typography>
      </Box>
    );
  if (query.isError || !query.data)
    return <Alert severity="error">{errorMessage(query.error, t('settings.providerLoadFailed'))}</Alert>;
  return <ProviderFields key={query.data.version} provider={provider} current={query.data} />;
};

const ProviderFields = ({
  provider,
  current,
}: {
  provider: PaymentProviderName;
  current: PaymentProvider;
}) => {
  const { t, td } = useT();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [enabled, setEnabled] = useState(current.enabled);
  const [refuse, setRefuse] = useState(current.refuse_unknown_accounts);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const label = paymentProviderLabels[provider];
  const save = useMutation({
    mutationFn: () =>
      api.put<PaymentProvider>(`/payment-providers/${provider}`, {
        enabled,
        credentials: Object.fromEntries(Object.entries(typed).filter(([, v]) => v.trim() !== '')),
        ...(provider === 'mpesa' ? { refuse_unknown_accounts: refuse } : {}),
        version: current.version,
      }),
    onSuccess: (saved) => {
      // what was typed is sealed now: the fields empty again, each marked set
      setTyped({});
      queryClient.setQueryData(providerKey(provider), saved);
      showSnackbar({ message: t('settings.providerSaved', { provider: label }), severity: 'success' });
    },
  });
  return (
    <Box
      component="form"
      aria-label={label}
      data-testid={`provider-${provider}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
      sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5 }}
    >
      <Stack spacing={1.5}>
        <FormControlLabel
          label={<Typography sx={{ fontWeight: 600 }}>{label}</Typography>}
          control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
        />
        <Box
          sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, maxWidth: 720 }}
        >
          {Object.entries(providerCredentialFields[provider]).map(([name, fieldLabel]) => (
            <TextField
              key={name}
              label={td(`settings.credential.${provider}.${name}`, fieldLabel)}
              type={/secret|key|passkey/.test(name) ? 'password' : 'text'}
              autoComplete="off"
              size="small"
              value={typed[name] ?? ''}
              onChange={(e) => setTyped({ ...typed, [name]: e.target.value })}
              placeholder={
                current.credentials_set[name] ? t('settings.setTypeToReplace') : t('settings.notSet')
              }
              slotProps={{ inputLabel: { shrink: true } }}
              helperText={current.credentials_set[name] ? t('settings.set') : undefined}
            />
          ))}
        </Box>
        {provider === 'mpesa' && (
          <FormControlLabel
            label={t('settings.refuseUnknown')}
            control={<Switch checked={refuse} onChange={(e) => setRefuse(e.target.checked)} />}
          />
        )}
        {current.callback_urls ? (
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {t('settings.pasteInPortal', { provider: label })}
            </Typography>
            {Object.entries(current.callback_urls).map(([name, url]) => (
              <Typography key={name} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {td(`settings.callback.${provider}.${name}`, providerCallbackLabels[provider][name] ?? name)}:{' '}
                <code>{url}</code>
              </Typography>
            ))}
          </Box>
        ) : (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('settings.saveOncePortal', { provider: label })}
          </Typography>
        )}
        {save.isError && (
          <Alert severity="error">
            {errorMessage(save.error, t('settings.providerSaveFailed', { provider: label }))}
          </Alert>
        )}
        <Box>
          <Button type="submit" variant="outlined" loading={save.isPending}>
            {t('settings.saveProvider', { provider: label })}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
};
