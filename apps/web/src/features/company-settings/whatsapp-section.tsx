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
  whatsappTemplateKinds,
  whatsappTemplateLabels,
  whatsappVariablesText,
  type WhatsappSettings,
  type WhatsappTemplateKind,
} from '@kodi/domain';
import { api, errorMessage, isApiError } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';
import { useSnackbar } from '../../components/snackbar-provider.tsx';

const whatsappKey = [...resourceKeys.all, 'whatsapp-settings'] as const;

const whatsappQuery = () =>
  queryOptions({
    queryKey: whatsappKey,
    queryFn: ({ signal }) => api.get<WhatsappSettings>('/whatsapp-settings', { signal }),
    staleTime: 0,
  });

/**
 * Company settings, 'WhatsApp' (issue 29): the WhatsApp Business account (its token and app secret
 * typed in, sealed by the server, never shown again), the templates Meta approved with their
 * variables' order, whether a failed message goes by SMS, and the webhook URL and verify token to
 * paste in Meta's portal.
 */
export const WhatsappSection = () => {
  const query = useQuery(whatsappQuery());
  return (
    <Paper variant="outlined" component="section" aria-label="WhatsApp" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
        WhatsApp
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        Reminders and receipts by WhatsApp go as the templates you had approved in WhatsApp Manager, to
        tenants who agreed to WhatsApp (their record’s ‘Notify by WhatsApp’). The token and app secret are
        stored encrypted and never shown again.
      </Typography>
      {query.isPending ? (
        <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <CircularProgress size={16} aria-hidden="true" />
          <Typography variant="body2">Loading WhatsApp …</Typography>
        </Box>
      ) : query.isError || !query.data ? (
        <Alert severity="error">{errorMessage(query.error, 'Could not load the WhatsApp settings.')}</Alert>
      ) : (
        <WhatsappFields key={query.data.version} current={query.data} />
      )}
    </Paper>
  );
};

const WhatsappFields = ({ current }: { current: WhatsappSettings }) => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [enabled, setEnabled] = useState(current.enabled);
  const [fallback, setFallback] = useState(current.fallback_sms);
  const [phoneNumberId, setPhoneNumberId] = useState(current.phone_number_id ?? '');
  const [language, setLanguage] = useState(current.language);
  const [templates, setTemplates] = useState<Record<WhatsappTemplateKind, string>>(
    Object.fromEntries(whatsappTemplateKinds.map((k) => [k, current.templates[k] ?? ''])) as Record<
      WhatsappTemplateKind,
      string
    >,
  );
  const [token, setToken] = useState('');
  const [appSecret, setAppSecret] = useState('');
  const save = useMutation({
    mutationFn: () =>
      api.put<WhatsappSettings>('/whatsapp-settings', {
        enabled,
        phone_number_id: phoneNumberId.trim() || null,
        ...(token.trim() ? { access_token: token.trim() } : {}),
        ...(appSecret.trim() ? { app_secret: appSecret.trim() } : {}),
        language: language.trim(),
        templates: Object.fromEntries(Object.entries(templates).map(([k, v]) => [k, v.trim() || null])),
        fallback_sms: fallback,
        version: current.version,
      }),
    onSuccess: (saved) => {
      // what was typed is sealed now: the fields empty again, each marked set
      setToken('');
      setAppSecret('');
      queryClient.setQueryData(whatsappKey, saved);
      showSnackbar({ message: 'WhatsApp saved.', severity: 'success' });
    },
  });
  const fieldErrors: Record<string, string> =
    save.isError && isApiError(save.error) ? (save.error.fields ?? {}) : {};
  return (
    <Box
      component="form"
      aria-label="WhatsApp settings"
      data-testid="whatsapp-settings"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack spacing={1.5}>
        <FormControlLabel
          label={<Typography sx={{ fontWeight: 600 }}>Send by WhatsApp</Typography>}
          control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
        />
        <Box
          sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, maxWidth: 720 }}
        >
          <TextField
            label="Phone-number id"
            size="small"
            value={phoneNumberId}
            onChange={(e) => setPhoneNumberId(e.target.value)}
            error={!!fieldErrors.phone_number_id}
            helperText={fieldErrors.phone_number_id ?? 'WhatsApp Manager → Phone numbers'}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Template language"
            size="small"
            value={language}
            onChange={(e) => setLanguage(e.target.value)}
            error={!!fieldErrors.language}
            helperText={fieldErrors.language ?? 'As in WhatsApp Manager: en, en_US, sw, fr…'}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Access token"
            type="password"
            autoComplete="off"
            size="small"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            placeholder={current.access_token_set ? 'Set (type to replace)' : 'Not set'}
            error={!!fieldErrors.access_token}
            helperText={fieldErrors.access_token ?? (current.access_token_set ? 'Set' : undefined)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="App secret (checks the webhook’s signatures)"
            type="password"
            autoComplete="off"
            size="small"
            value={appSecret}
            onChange={(e) => setAppSecret(e.target.value)}
            placeholder={current.app_secret_set ? 'Set (type to replace)' : 'Not set'}
            error={!!fieldErrors.app_secret}
            helperText={fieldErrors.app_secret ?? (current.app_secret_set ? 'Set' : undefined)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Box>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          Templates (their names in WhatsApp Manager)
        </Typography>
        <Box
          sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, maxWidth: 720 }}
        >
          {whatsappTemplateKinds.map((kind) => (
            <TextField
              key={kind}
              label={whatsappTemplateLabels[kind]}
              size="small"
              value={templates[kind]}
              onChange={(e) => setTemplates({ ...templates, [kind]: e.target.value })}
              error={!!fieldErrors[`templates.${kind}`]}
              helperText={fieldErrors[`templates.${kind}`] ?? `Body: ${whatsappVariablesText(kind)}`}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          ))}
        </Box>
        <FormControlLabel
          label="Send by SMS when a WhatsApp message fails"
          control={<Switch checked={fallback} onChange={(e) => setFallback(e.target.checked)} />}
        />
        {current.webhook_url ? (
          <Box data-testid="whatsapp-webhook">
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              Paste in Meta’s portal (WhatsApp → Configuration → Webhook), and subscribe to ‘messages’:
            </Typography>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              Callback URL: <code>{current.webhook_url}</code>
            </Typography>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              Verify token: <code>{current.verify_token}</code>
            </Typography>
          </Box>
        ) : (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            Save once to get the callback URL and verify token to paste in Meta’s portal.
          </Typography>
        )}
        {save.isError && (
          <Alert severity="error">{errorMessage(save.error, 'Could not save WhatsApp.')}</Alert>
        )}
        <Box>
          <Button type="submit" variant="outlined" loading={save.isPending}>
            Save WhatsApp
          </Button>
        </Box>
      </Stack>
    </Box>
  );
};
