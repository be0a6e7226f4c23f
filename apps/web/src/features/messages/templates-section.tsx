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
  SMS_PART_LENGTH,
  SMS_PARTS_WARNING,
  templateKind,
  isCompanyAdmin,
  templateVariables,
  unknownVariables,
  type MessageTemplate,
} from '@kodi/domain';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { api, errorMessage, isApiError } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.ts';
import {
  deleteTemplate,
  messageKeys,
  previewTemplate,
  saveTemplate,
  templatesQuery,
  type TemplateInput,
} from './messages-api.ts';

const channelLabel = (c: string) => (c === 'sms' ? 'SMS' : 'E-mail');
const VARIABLES = templateVariables.map((v) => `{{${v}}}`).join(' ');

type Draft = TemplateInput;
const blank: Draft = { name: '', channel: 'sms', kind: 'due', subject: null, body: '' };

const TemplateDialog = ({ template, onClose }: { template: MessageTemplate | null; onClose: () => void }) => {
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
        }
      : blank,
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
      showSnackbar({ message: 'Template saved.', severity: 'success' });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e) && e.fields) setErrors(e.fields);
      showSnackbar({ message: errorMessage(e, 'Could not save the template.'), severity: 'error' });
    },
  });
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{template ? 'Edit template' : 'New template'}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Name"
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
            error={!!errors.name}
            helperText={errors.name}
            required
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              label="For"
              value={draft.kind}
              onChange={(e) => set({ kind: e.target.value as Draft['kind'] })}
              slotProps={{ select: { native: true } }}
              fullWidth
            >
              {templateKind.values.map((k) => (
                <option key={k} value={k}>
                  {templateKind.labels[k]}
                </option>
              ))}
            </TextField>
            <TextField
              select
              label="Channel"
              value={draft.channel}
              onChange={(e) => set({ channel: e.target.value as Draft['channel'] })}
              slotProps={{ select: { native: true } }}
              fullWidth
            >
              <option value="email">E-mail</option>
              <option value="sms">SMS</option>
            </TextField>
          </Stack>
          {draft.channel === 'email' && (
            <TextField
              label="Subject"
              value={draft.subject ?? ''}
              onChange={(e) => set({ subject: e.target.value })}
              error={!!errors.subject}
              helperText={errors.subject}
              required
            />
          )}
          <TextField
            label="Text"
            value={draft.body}
            onChange={(e) => set({ body: e.target.value })}
            multiline
            minRows={4}
            error={!!errors.body || unknown.length > 0}
            helperText={
              errors.body ??
              (unknown.length > 0
                ? `Unknown variable: ${unknown.map((u) => `{{${u}}}`).join(', ')}`
                : draft.channel === 'sms'
                  ? `${draft.body.length} characters`
                  : undefined)
            }
            required
          />
          {draft.channel === 'sms' && draft.body.length > SMS_PART_LENGTH && (
            <Alert severity="warning">{SMS_PARTS_WARNING}</Alert>
          )}
          <Typography variant="caption" sx={{ color: 'text.secondary', wordBreak: 'break-word' }}>
            Variables: {VARIABLES}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => save.mutate()} disabled={save.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
};

type LeaseOption = { id: number; tenant_name: string | null; unit_name: string | null };

const PreviewDialog = ({ template, onClose }: { template: MessageTemplate; onClose: () => void }) => {
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
      <DialogTitle>Preview: {template.name}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label="Lease"
            value={leaseId}
            onChange={(e) => setLeaseId(e.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            <option value="">Choose a lease</option>
            {(leases.data ?? []).map((l) => (
              <option key={l.id} value={String(l.id)}>
                {`${l.tenant_name ?? ''} · ${l.unit_name ?? ''}`}
              </option>
            ))}
          </TextField>
          {preview.isError && (
            <Alert severity="error">{errorMessage(preview.error, 'Could not preview.')}</Alert>
          )}
          {preview.data && (
            <Stack spacing={1} data-testid="template-preview">
              {preview.data.subject && (
                <Typography sx={{ fontWeight: 600 }}>{preview.data.subject}</Typography>
              )}
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{preview.data.body}</Typography>
              {preview.data.warnings.map((w) => (
                <Alert key={w} severity="warning">
                  {w}
                </Alert>
              ))}
            </Stack>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};

/** The company's templates: one card each, changed by admins and company admins. */
export const TemplatesSection = () => {
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
      showSnackbar({ message: 'Template deleted.', severity: 'success' });
    },
    onError: (e) =>
      showSnackbar({ message: errorMessage(e, 'Could not delete the template.'), severity: 'error' }),
  });
  return (
    <Stack spacing={2}>
      {canChange && (
        <div>
          <Button variant="contained" onClick={() => setEditing('new')}>
            New template
          </Button>
        </div>
      )}
      {templates.isError && (
        <Alert severity="error">{errorMessage(templates.error, 'Failed to load templates.')}</Alert>
      )}
      {(templates.data ?? []).map((t) => (
        <Card key={t.id} variant="outlined" component="section" aria-label={t.name}>
          <CardContent>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {t.name}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
              {templateKind.labels[t.kind]} · {channelLabel(t.channel)}
            </Typography>
            {t.subject && <Typography sx={{ fontWeight: 600 }}>{t.subject}</Typography>}
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {t.body}
            </Typography>
            {t.warnings.map((w) => (
              <Alert key={w} severity="warning" sx={{ mt: 1 }}>
                {w}
              </Alert>
            ))}
          </CardContent>
          <CardActions>
            <Button size="small" onClick={() => setPreviewing(t)}>
              Preview
            </Button>
            {canChange && (
              <>
                <Button size="small" onClick={() => setEditing(t)}>
                  Edit
                </Button>
                <Button
                  size="small"
                  color="error"
                  onClick={() => {
                    if (window.confirm(`Delete the template ${t.name}?`)) remove.mutate(t.id);
                  }}
                >
                  Delete
                </Button>
              </>
            )}
          </CardActions>
        </Card>
      ))}
      {editing && (
        <TemplateDialog template={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      {previewing && <PreviewDialog template={previewing} onClose={() => setPreviewing(null)} />}
    </Stack>
  );
};
