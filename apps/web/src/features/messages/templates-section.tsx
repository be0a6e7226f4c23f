import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LANGUAGES,
  SMS_PART_LENGTH,
  SMS_PARTS_WARNING,
  templateKind,
  isCompanyAdmin,
  languageNames,
  templateVariables,
  unknownVariables,
  type Language,
  type MessageTemplate,
} from '@kodi/domain';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { api, errorMessage, isApiError } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.ts';
import { useT, useValidationText, type Translate } from '../../lib/i18n.ts';
import {
  deleteTemplate,
  messageKeys,
  previewTemplate,
  saveTemplate,
  templatesQuery,
  type TemplateInput,
} from './messages-api.ts';

const channelLabel = (t: Translate, c: string) => (c === 'sms' ? t('templates.sms') : t('templates.email'));
const kindLabel = (t: Translate, k: MessageTemplate['kind']) => t(`templates.kind_${k}`);
const VARIABLES = templateVariables.map((v) => `{{${v}}}`).join(' ');
/** A template's warning (the server's English) in the page's language. */
const warningText = (t: Translate, w: string) =>
  w === SMS_PARTS_WARNING ? t('templates.smsParts', { length: SMS_PART_LENGTH }) : w;

type Draft = TemplateInput;
const blank = (language: Language): Draft => ({
  name: '',
  channel: 'sms',
  kind: 'due',
  subject: null,
  body: '',
  language,
});

const TemplateDialog = ({
  template,
  language,
  onClose,
}: {
  template: MessageTemplate | null;
  /** a new template's language (the one the list shows) */
  language: Language;
  onClose: () => void;
}) => {
  const { t } = useT();
  const validation = useValidationText();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [draft, setDraft] = useState<Draft>(
    template
      ? {
          name: template.name,
          channel: template.channel,
          kind: template.kind,
          subject: template.subject,
          body: template.body,
          language: template.language,
        }
      : blank(language),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));
  const unknown = unknownVariables(`${draft.subject ?? ''} ${draft.body}`);
  const save = useMutation({
    mutationFn: () =>
      saveTemplate(
        { ...draft, subject: draft.channel === 'email' ? draft.subject : null },
        template ?? undefined,
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: messageKeys.templates });
      showSnackbar({ message: t('templates.saved'), severity: 'success' });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e) && e.fields) setErrors(e.fields);
      showSnackbar({ message: errorMessage(e, t('templates.saveFailed')), severity: 'error' });
    },
  });
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{template ? t('templates.editTitle') : t('templates.newTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('templates.name')}
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
            error={!!errors.name}
            helperText={validation(errors.name)}
            required
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              label={t('templates.kindField')}
              value={draft.kind}
              onChange={(e) => set({ kind: e.target.value as Draft['kind'] })}
              slotProps={{ select: { native: true } }}
              fullWidth
            >
              {(templateKind.values as readonly MessageTemplate['kind'][]).map((k) => (
                <option key={k} value={k}>
                  {kindLabel(t, k)}
                </option>
              ))}
            </TextField>
            <TextField
              select
              label={t('templates.channel')}
              value={draft.channel}
              onChange={(e) => set({ channel: e.target.value as Draft['channel'] })}
              slotProps={{ select: { native: true } }}
              fullWidth
            >
              <option value="email">{t('templates.email')}</option>
              <option value="sms">{t('templates.sms')}</option>
            </TextField>
            <TextField
              select
              label={t('templates.language')}
              value={draft.language ?? 'en'}
              onChange={(e) => set({ language: e.target.value as Language })}
              slotProps={{ select: { native: true } }}
              fullWidth
            >
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {languageNames[l]}
                </option>
              ))}
            </TextField>
          </Stack>
          {draft.channel === 'email' && (
            <TextField
              label={t('templates.subject')}
              value={draft.subject ?? ''}
              onChange={(e) => set({ subject: e.target.value })}
              error={!!errors.subject}
              helperText={validation(errors.subject)}
              required
            />
          )}
          <TextField
            label={t('templates.text')}
            value={draft.body}
            onChange={(e) => set({ body: e.target.value })}
            multiline
            minRows={4}
            error={!!errors.body || unknown.length > 0}
            helperText={
              validation(errors.body) ??
              (unknown.length > 0
                ? t('templates.unknownVariable', { list: unknown.map((u) => `{{${u}}}`).join(', ') })
                : draft.channel === 'sms'
                  ? t('templates.characters', { count: draft.body.length })
                  : undefined)
            }
            required
          />
          {draft.channel === 'sms' && draft.body.length > SMS_PART_LENGTH && (
            <Alert severity="warning">{warningText(t, SMS_PARTS_WARNING)}</Alert>
          )}
          <Typography variant="caption" sx={{ color: 'text.secondary', wordBreak: 'break-word' }}>
            {t('templates.variables', { list: VARIABLES })}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('templates.cancel')}</Button>
        <Button variant="contained" onClick={() => save.mutate()} disabled={save.isPending}>
          {t('templates.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

type LeaseOption = { id: number; tenant_name: string | null; unit_name: string | null };

const PreviewDialog = ({ template, onClose }: { template: MessageTemplate; onClose: () => void }) => {
  const { t } = useT();
  const leases = useQuery({
    queryKey: [...messageKeys.all, 'preview-leases'],
    queryFn: ({ signal }) =>
      api.get<LeaseOption[]>('/occupancy', { signal, query: { page_size: 100, sort: 'tenant_name' } }),
  });
  const [leaseId, setLeaseId] = useState('');
  const preview = useQuery({
    queryKey: [...messageKeys.all, 'preview', template.id, template.version, leaseId],
    queryFn: () => previewTemplate(template.id, Number(leaseId)),
    enabled: leaseId !== '',
  });
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t('templates.previewTitle', { name: template.name })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label={t('templates.lease')}
            value={leaseId}
            onChange={(e) => setLeaseId(e.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            <option value="">{t('templates.chooseLease')}</option>
            {(leases.data ?? []).map((l) => (
              <option key={l.id} value={String(l.id)}>
                {`${l.tenant_name ?? ''} · ${l.unit_name ?? ''}`}
              </option>
            ))}
          </TextField>
          {preview.isError && (
            <Alert severity="error">{errorMessage(preview.error, t('templates.previewFailed'))}</Alert>
          )}
          {preview.data && (
            <Stack spacing={1} data-testid="template-preview">
              {preview.data.subject && (
                <Typography sx={{ fontWeight: 600 }}>{preview.data.subject}</Typography>
              )}
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{preview.data.body}</Typography>
              {preview.data.warnings.map((w) => (
                <Alert key={w} severity="warning">
                  {warningText(t, w)}
                </Alert>
              ))}
            </Stack>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('templates.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * The company's templates: one card each, changed by admins and company admins; each in a language
 * (issue 30), the list of one language or all.
 */
export const TemplatesSection = () => {
  const { t, language: pageLanguage } = useT();
  const [shown, setShown] = useState<Language | 'all'>('all');
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const { user } = useSession();
  const canChange = isCompanyAdmin(user);
  const templates = useQuery(templatesQuery());
  const [editing, setEditing] = useState<MessageTemplate | 'new' | null>(null);
  const [previewing, setPreviewing] = useState<MessageTemplate | null>(null);
  const remove = useMutation({
    mutationFn: deleteTemplate,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: messageKeys.templates });
      showSnackbar({ message: t('templates.deleted'), severity: 'success' });
    },
    onError: (e) =>
      showSnackbar({ message: errorMessage(e, t('templates.deleteFailed')), severity: 'error' }),
  });
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        {canChange && (
          <div>
            <Button variant="contained" onClick={() => setEditing('new')}>
              {t('templates.newTemplate')}
            </Button>
          </div>
        )}
        <TextField
          select
          size="small"
          label={t('templates.showLanguage')}
          value={shown}
          onChange={(e) => setShown(e.target.value as Language | 'all')}
          slotProps={{ select: { native: true } }}
          sx={{ minWidth: 180 }}
        >
          <option value="all">{t('templates.allLanguages')}</option>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {languageNames[l]}
            </option>
          ))}
        </TextField>
      </Stack>
      {templates.isError && (
        <Alert severity="error">{errorMessage(templates.error, t('templates.loadFailed'))}</Alert>
      )}
      {(templates.data ?? [])
        .filter((m) => shown === 'all' || m.language === shown)
        .map((m) => (
          <Card key={m.id} variant="outlined" component="section" aria-label={m.name}>
            <CardContent>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                {m.name}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
                {kindLabel(t, m.kind)} · {channelLabel(t, m.channel)} · {languageNames[m.language]}
              </Typography>
              {m.subject && <Typography sx={{ fontWeight: 600 }}>{m.subject}</Typography>}
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {m.body}
              </Typography>
              {m.warnings.map((w) => (
                <Alert key={w} severity="warning" sx={{ mt: 1 }}>
                  {warningText(t, w)}
                </Alert>
              ))}
            </CardContent>
            <CardActions>
              <Button size="small" onClick={() => setPreviewing(m)}>
                {t('templates.preview')}
              </Button>
              {canChange && (
                <>
                  <Button size="small" onClick={() => setEditing(m)}>
                    {t('templates.edit')}
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => {
                      if (window.confirm(t('templates.confirmDelete', { name: m.name }))) remove.mutate(m.id);
                    }}
                  >
                    {t('templates.delete')}
                  </Button>
                </>
              )}
            </CardActions>
          </Card>
        ))}
      {editing && (
        <TemplateDialog
          template={editing === 'new' ? null : editing}
          language={shown === 'all' ? pageLanguage : shown}
          onClose={() => setEditing(null)}
        />
      )}
      {previewing && <PreviewDialog template={previewing} onClose={() => setPreviewing(null)} />}
    </Stack>
  );
};
