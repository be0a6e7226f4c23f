import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Replay from '@mui/icons-material/Replay';
import Visibility from '@mui/icons-material/Visibility';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import {
  deliveryStatus,
  intlLocales,
  messageChannel,
  messageKind,
  messageStatus,
  type Message,
  type Language,
  type MessageChannel,
} from '@kodi/domain';
import { useT, type Translate, type TranslateDerived } from '../../lib/i18n.ts';
import { useSnackbar, useErrorSnackbar } from '../../components/snackbar-provider.tsx';
import { ListTable, RowAction, type ListColumn } from '../../components/ui/list-table.tsx';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { useListState } from '../../components/ui/use-list-state.ts';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import {
  messageKeys,
  messageLogQuery,
  providersQuery,
  retryMessage,
  sendTestMessage,
} from './messages-api.ts';
import { TemplatesSection } from './templates-section.tsx';

// the Announcements page (issue 29) ships in this page's chunk (app/routes.tsx)
export { AnnouncementsPage } from './announcements-page.tsx';

const columns = (t: Translate): ListColumn[] => [
  { key: 'created_at', label: t('messages.col.date'), sortField: 'created_at' },
  { key: 'kind', label: t('messages.col.kind'), sortField: 'kind' },
  { key: 'channel', label: t('messages.col.channel'), sortField: 'channel' },
  { key: 'to', label: t('messages.col.to'), sortField: 'to' },
  { key: 'tenant_name', label: t('messages.col.tenant'), sortField: 'tenant_name' },
  { key: 'text', label: t('messages.col.message') },
  { key: 'status', label: t('messages.col.status'), sortField: 'status' },
  { key: 'reason', label: t('messages.col.reason') },
  { key: 'attempts', label: t('messages.col.attempts'), sortField: 'attempts', align: 'right' },
];

const statusColor: Record<string, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  queued: 'info',
  sending: 'info',
  sent: 'success',
  failed: 'error',
  skipped: 'warning',
};

const when = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(intlLocales[language], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

/** The options' labels in the page's language (`messages.<option>.<value>`; English the domain's). */
const channelLabel = (c: string, td: TranslateDerived) =>
  td(`messages.channel.${c}`, messageChannel.labels[c as MessageChannel] ?? c);
const statusLabel = (s: Message['status'], td: TranslateDerived) =>
  td(`messages.status.${s}`, messageStatus.labels[s]);
const kindLabel = (k: Message['kind'], td: TranslateDerived) =>
  td(`messages.kind.${k}`, messageKind.labels[k]);

/** WhatsApp's delivery report, after the status: 'Sent · Read'. */
const delivery = (m: Message, td: TranslateDerived) =>
  m.delivery_status
    ? td(`messages.delivery.${m.delivery_status}`, deliveryStatus.labels[m.delivery_status])
    : null;

/** A shortened text for the table (the whole one is in the message's dialog). */
const short = (m: Message) => {
  const text = m.subject ?? m.body;
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

const MessageLog = () => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const { t, td, language } = useT();
  const listState = useListState({ resetPageOnSort: true });
  const [status, setStatus] = useState('');
  const [channel, setChannel] = useState('');
  const [shown, setShown] = useState<Message | null>(null);
  const list = useQuery(
    messageLogQuery({ ...listState.params, status: status || undefined, channel: channel || undefined }),
  );
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? errorMessage(list.error, t('messages.loadFailed')) : null;
  useErrorSnackbar(loadError);

  const retry = useMutation({
    mutationFn: retryMessage,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: messageKeys.all });
      showSnackbar({ message: t('messages.requeued'), severity: 'success' });
    },
    onError: (e) => showSnackbar({ message: errorMessage(e, t('messages.retryFailed')), severity: 'error' }),
  });

  return (
    <Stack spacing={2}>
      <ListToolbar label={t('messages.search')} value={listState.search} onChange={listState.setSearch}>
        <TextField
          select
          size="small"
          label={t('messages.col.status')}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            listState.setPage(0);
          }}
          sx={{ minWidth: 130 }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('messages.all')}</option>
          {messageStatus.values.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s, td)}
            </option>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('messages.col.channel')}
          value={channel}
          onChange={(e) => {
            setChannel(e.target.value);
            listState.setPage(0);
          }}
          sx={{ minWidth: 120 }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('messages.all')}</option>
          {messageChannel.values.map((c) => (
            <option key={c} value={c}>
              {channelLabel(c, td)}
            </option>
          ))}
        </TextField>
      </ListToolbar>
      <ListTable
        label={t('messages.title')}
        list={listState}
        query={list}
        emptyText={loadError ?? t('messages.empty')}
        columns={columns(t)}
      >
        {rows.map((m) => (
          <TableRow key={m.id} hover>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(m.created_at, language)}</TableCell>
            <TableCell>{kindLabel(m.kind, td)}</TableCell>
            <TableCell>{channelLabel(m.channel, td)}</TableCell>
            {/* an address is read whole: never cut nor broken across lines */}
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.to ?? '—'}</TableCell>
            <TableCell>{m.tenant_name ?? '—'}</TableCell>
            <TableCell sx={{ minWidth: 160 }}>{short(m)}</TableCell>
            <TableCell>
              <Chip
                size="small"
                color={statusColor[m.status] ?? 'default'}
                label={statusLabel(m.status, td)}
              />
              {delivery(m, td) && (
                <Typography
                  variant="caption"
                  data-testid="delivery-status"
                  sx={{ display: 'block', color: 'text.secondary', whiteSpace: 'nowrap' }}
                >
                  {delivery(m, td)}
                </Typography>
              )}
            </TableCell>
            <TableCell sx={{ minWidth: 180 }}>
              {m.reason ? (
                <Typography variant="body2" color={m.status === 'failed' ? 'error' : 'text.secondary'}>
                  {m.reason}
                </Typography>
              ) : (
                '—'
              )}
            </TableCell>
            <TableCell align="right">{m.attempts}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <RowAction
                label={t('messages.view')}
                icon={<Visibility fontSize="small" />}
                onClick={() => setShown(m)}
              />
              {(m.status === 'failed' || m.status === 'skipped') && (
                <RowAction
                  label={t('messages.sendAgain')}
                  icon={<Replay fontSize="small" />}
                  onClick={() => retry.mutate(m.id)}
                />
              )}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <Dialog open={shown !== null} onClose={() => setShown(null)} maxWidth="sm" fullWidth>
        <DialogTitle>{t('messages.message')}</DialogTitle>
        <DialogContent dividers>
          {shown && (
            <Stack spacing={1}>
              <Typography variant="body2">
                {t('messages.summary', {
                  kind: kindLabel(shown.kind, td),
                  channel: channelLabel(shown.channel, td),
                  to: shown.to ?? '—',
                  status: statusLabel(shown.status, td),
                })}
                {delivery(shown, td) ? ` · ${delivery(shown, td)}` : ''}
              </Typography>
              {shown.reason && (
                <Typography variant="body2" color="text.secondary">
                  {t('messages.reasonLine', { reason: shown.reason })}
                </Typography>
              )}
              {shown.subject && <Typography sx={{ fontWeight: 600 }}>{shown.subject}</Typography>}
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{shown.body}</Typography>
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setShown(null)}>{t('messages.close')}</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};

/** A test message to an address: it goes through the server's SMTP or SMS provider and into the log. */
const TestMessageDialog = ({ onClose }: { onClose: () => void }) => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const { t } = useT();
  const [channel, setChannel] = useState<MessageChannel>('sms');
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => sendTestMessage(channel, to),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: messageKeys.all });
      showSnackbar({ message: t('messages.testQueued'), severity: 'success' });
      onClose();
    },
    onError: (e) => {
      setError(isApiError(e) && e.fields?.to ? e.fields.to : errorMessage(e, t('messages.testFailed')));
    },
  });
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('messages.sendTest')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label={t('messages.col.channel')}
            value={channel}
            onChange={(e) => setChannel(e.target.value as MessageChannel)}
            slotProps={{ select: { native: true } }}
          >
            <option value="sms">{t('messages.channel.sms')}</option>
            <option value="email">{t('messages.channel.email')}</option>
            <option value="whatsapp">{t('messages.whatsappTest')}</option>
          </TextField>
          <TextField
            label={channel === 'email' ? t('messages.emailAddress') : t('messages.phone')}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={!!error}
            helperText={error}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('messages.cancel')}</Button>
        <Button variant="contained" onClick={() => send.mutate()} disabled={send.isPending}>
          {t('messages.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * 'Messages' (Administration, admins and company admins): the log of the reminders and receipts
 * sent to tenants by e-mail and SMS (queued, sent, failed or skipped; a failed one sent again), and
 * the company's message templates.
 */
export const MessagesPage = () => {
  const { t } = useT();
  const [tab, setTab] = useState(0);
  const [testing, setTesting] = useState(false);
  const providers = useQuery(providersQuery());
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('messages.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('messages.intro')}
        </Typography>
      </Box>
      {providers.data && !providers.data.sms && <Alert severity="info">{t('messages.noSms')}</Alert>}
      {providers.data && !providers.data.email && <Alert severity="info">{t('messages.noSmtp')}</Alert>}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => setTesting(true)}>
          {t('messages.sendTest')}
        </Button>
        <Button variant="outlined" component={RouterLink} to="/announcements">
          {t('messages.announcements')}
        </Button>
      </Stack>
      {testing && <TestMessageDialog onClose={() => setTesting(false)} />}
      <Tabs
        value={tab}
        onChange={(_e, v: number) => setTab(v)}
        aria-label={t('messages.sections')}
        variant="scrollable"
      >
        <Tab label={t('messages.log')} id="messages-tab-0" aria-controls="messages-panel-0" />
        <Tab label={t('messages.templates')} id="messages-tab-1" aria-controls="messages-panel-1" />
      </Tabs>
      <Box role="tabpanel" id={`messages-panel-${tab}`} aria-labelledby={`messages-tab-${tab}`}>
        {tab === 0 ? <MessageLog /> : <TemplatesSection />}
      </Box>
    </Stack>
  );
};
