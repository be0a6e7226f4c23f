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
import { useT } from '../../lib/i18n.ts';

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
  const { t } = useT();
  const query = useQuery(whatsappQuery());
  return (
    <Paper variant="outlined" component="section" aria-label="WhatsApp" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
        WhatsApp
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        {t('settings.whatsappIntro')}
      </Typography>
      {query.isPending ? (
        <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <CircularProgress size={16} aria-hidden="true" />
          <Typography variant="body2">{t('settings.loadingWhatsapp')}</Typography>
        </Box>
      ) : query.isError || !query.data ? (
        <Alert severity="error">{errorMessage(query.error, t('settings.whatsappLoadFailed'))}</Alert>
      ) : (
        <WhatsappFields key={query.data.version} current={query.data} />
      )}
    </Paper>
  );
};

const WhatsappFields = ({ current }: { current: WhatsappSettings }) => {
  const { t, td } = useT();
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
      showSnackbar({ message: t('settings.whatsappSaved'), severity: 'success' });
    },
  });
  const fieldErrors: Record<string, string> =
    save.isError && isApiError(save.error) ? (save.error.fields ?? {}) : {};
  return (
    <Box
      component="form"
      aria-label={t('settings.whatsappSettings')}
      data-testid="whatsapp-settings"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack spacing={1.5}>
        <FormControlLabel
          label={<Typography sx={{ fontWeight: 600 }}>{t('settings.sendByWhatsapp')}</Typography>}
          control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
        />
        <Box
          sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, maxWidth: 720 }}
        >
          <TextField
            label={t('settings.phoneNumberId')}
            size="small"
            value={phoneNumberId}
            onChange={(e) => setPhoneNumberId(e.target.value)}
            error={!!fieldErrors.phone_number_id}
            helperText={fieldErrors.phone_number_id ?? t('settings.phoneNumberIdHelp')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label={t('settings.templateLanguage')}
            size="small"
            value={language}
            onChange={(e) => setLanguage(e.target.value)}
            error={!!fieldErrors.language}
            helperText={fieldErrors.language ?? t('settings.templateLanguageHelp')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label={t('settings.accessToken')}
            type="password"
            autoComplete="off"
            size="small"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            placeholder={current.access_token_set ? t('settings.setTypeToReplace') : t('settings.notSet')}
            error={!!fieldErrors.access_token}
            helperText={
              fieldErrors.access_token ?? (current.access_token_set ? t('settings.set') : undefined)
            }
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label={t('settings.appSecret')}
            type="password"
            autoComplete="off"
            size="small"
            value={appSecret}
            onChange={(e) => setAppSecret(e.target.value)}
            placeholder={current.app_secret_set ? t('settings.setTypeToReplace') : t('settings.notSet')}
            error={!!fieldErrors.app_secret}
            helperText={fieldErrors.app_secret ?? (current.app_secret_set ? t('settings.set') : undefined)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Box>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('settings.templates')}
        </Typography>
        <Box
          sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, maxWidth: 720 }}
        >
          {whatsappTemplateKinds.map((kind) => (
            <TextField
              key={kind}
              label={td(`settings.whatsappTemplate.${kind}`, whatsappTemplateLabels[kind])}
              size="small"
              value={templates[kind]}
              onChange={(e) => setTemplates({ ...templates, [kind]: e.target.value })}
              error={!!fieldErrors[`templates.${kind}`]}
              helperText={
                fieldErrors[`templates.${kind}`] ??
                t('settings.body', { variables: whatsappVariablesText(kind) })
              }
              slotProps={{ inputLabel: { shrink: true } }}
            />
          ))}
        </Box>
        <FormControlLabel
          label={t('settings.fallbackSms')}
          control={<Switch checked={fallback} onChange={(e) => setFallback(e.target.checked)} />}
        />
        {current.webhook_url ? (
          <Box data-testid="whatsapp-webhook">
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {t('settings.pasteInMeta')}
            </Typography>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {t('settings.callbackUrl')} <code>{current.webhook_url}</code>
            </Typography>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {t('settings.verifyToken')} <code>{current.verify_token}</code>
            </Typography>
          </Box>
        ) : (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('settings.saveOnceMeta')}
          </Typography>
        )}
        {save.isError && (
          <Alert severity="error">{errorMessage(save.error, t('settings.whatsappSaveFailed'))}</Alert>
        )}
        <Box>
          <Button type="submit" variant="outlined" loading={save.isPending}>
            {t('settings.saveWhatsapp')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
};
