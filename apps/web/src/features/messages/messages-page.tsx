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
  messageChannel,
  messageKind,
  messageStatus,
  type Message,
  type MessageChannel,
} from '@kodi/domain';
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

const LOAD_FAILED = 'Failed to load messages.';

const columns: ListColumn[] = [
  { key: 'created_at', label: 'Date', sortField: 'created_at' },
  { key: 'kind', label: 'Kind', sortField: 'kind' },
  { key: 'channel', label: 'Channel', sortField: 'channel' },
  { key: 'to', label: 'To', sortField: 'to' },
  { key: 'tenant_name', label: 'Tenant', sortField: 'tenant_name' },
  { key: 'text', label: 'Message' },
  { key: 'status', label: 'Status', sortField: 'status' },
  { key: 'reason', label: 'Reason' },
  { key: 'attempts', label: 'Attempts', sortField: 'attempts', align: 'right' },
];

const statusColor: Record<string, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  queued: 'info',
  sending: 'info',
  sent: 'success',
  failed: 'error',
  skipped: 'warning',
};

const when = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const channelLabel = (c: string) => messageChannel.labels[c as MessageChannel] ?? c;

/** WhatsApp's delivery report, after the status: 'Sent · Read'. */
const delivery = (m: Message) => (m.delivery_status ? deliveryStatus.labels[m.delivery_status] : null);

/** A shortened text for the table (the whole one is in the message's dialog). */
const short = (m: Message) => {
  const text = m.subject ?? m.body;
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

const MessageLog = () => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const listState = useListState({ resetPageOnSort: true });
  const [status, setStatus] = useState('');
  const [channel, setChannel] = useState('');
  const [shown, setShown] = useState<Message | null>(null);
  const list = useQuery(
    messageLogQuery({ ...listState.params, status: status || undefined, channel: channel || undefined }),
  );
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? errorMessage(list.error, LOAD_FAILED) : null;
  useErrorSnackbar(loadError);

  const retry = useMutation({
    mutationFn: retryMessage,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: messageKeys.all });
      showSnackbar({ message: 'The message is queued to be sent again.', severity: 'success' });
    },
    onError: (e) =>
      showSnackbar({ message: errorMessage(e, 'Could not send the message again.'), severity: 'error' }),
  });

  return (
    <Stack spacing={2}>
      <ListToolbar
        label="Search Messages (To, Tenant, Subject)"
        value={listState.search}
        onChange={listState.setSearch}
      >
        <TextField
          select
          size="small"
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            listState.setPage(0);
          }}
          sx={{ minWidth: 130 }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">All</option>
          {messageStatus.values.map((s) => (
            <option key={s} value={s}>
              {messageStatus.labels[s]}
            </option>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Channel"
          value={channel}
          onChange={(e) => {
            setChannel(e.target.value);
            listState.setPage(0);
          }}
          sx={{ minWidth: 120 }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">All</option>
          {messageChannel.values.map((c) => (
            <option key={c} value={c}>
              {messageChannel.labels[c]}
            </option>
          ))}
        </TextField>
      </ListToolbar>
      <ListTable
        label="Messages"
        list={listState}
        query={list}
        emptyText={loadError ?? 'No messages yet.'}
        columns={columns}
      >
        {rows.map((m) => (
          <TableRow key={m.id} hover>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(m.created_at)}</TableCell>
            <TableCell>{messageKind.labels[m.kind]}</TableCell>
            <TableCell>{channelLabel(m.channel)}</TableCell>
            {/* an address is read whole: never cut nor broken across lines */}
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.to ?? '—'}</TableCell>
            <TableCell>{m.tenant_name ?? '—'}</TableCell>
            <TableCell sx={{ minWidth: 160 }}>{short(m)}</TableCell>
            <TableCell>
              <Chip
                size="small"
                color={statusColor[m.status] ?? 'default'}
                label={messageStatus.labels[m.status]}
              />
              {delivery(m) && (
                <Typography
                  variant="caption"
                  data-testid="delivery-status"
                  sx={{ display: 'block', color: 'text.secondary', whiteSpace: 'nowrap' }}
                >
                  {delivery(m)}
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
                label="View message"
                icon={<Visibility fontSize="small" />}
                onClick={() => setShown(m)}
              />
              {(m.status === 'failed' || m.status === 'skipped') && (
                <RowAction
                  label="Send again"
                  icon={<Replay fontSize="small" />}
                  onClick={() => retry.mutate(m.id)}
                />
              )}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <Dialog open={shown !== null} onClose={() => setShown(null)} maxWidth="sm" fullWidth>
        <DialogTitle>Message</DialogTitle>
        <DialogContent dividers>
          {shown && (
            <Stack spacing={1}>
              <Typography variant="body2">
                {messageKind.labels[shown.kind]} by {channelLabel(shown.channel)} to {shown.to ?? '—'} ·{' '}
                {messageStatus.labels[shown.status]}
                {delivery(shown) ? ` · ${delivery(shown)}` : ''}
              </Typography>
              {shown.reason && (
                <Typography variant="body2" color="text.secondary">
                  Reason: {shown.reason}
                </Typography>
              )}
              {shown.subject && <Typography sx={{ fontWeight: 600 }}>{shown.subject}</Typography>}
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{shown.body}</Typography>
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setShown(null)}>Close</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};

/** A test message to an address: it goes through the server's SMTP or SMS provider and into the log. */
const TestMessageDialog = ({ onClose }: { onClose: () => void }) => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [channel, setChannel] = useState<MessageChannel>('sms');
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => sendTestMessage(channel, to),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: messageKeys.all });
      showSnackbar({ message: 'Test message queued: see its status in the log.', severity: 'success' });
      onClose();
    },
    onError: (e) => {
      setError(
        isApiError(e) && e.fields?.to ? e.fields.to : errorMessage(e, 'Could not send the test message.'),
      );
    },
  });
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Send a test message</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label="Channel"
            value={channel}
            onChange={(e) => setChannel(e.target.value as MessageChannel)}
            slotProps={{ select: { native: true } }}
          >
            <option value="sms">SMS</option>
            <option value="email">E-mail</option>
            <option value="whatsapp">WhatsApp (Meta’s hello_world template)</option>
          </TextField>
          <TextField
            label={channel === 'email' ? 'E-mail address' : 'Phone (+256…)'}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={!!error}
            helperText={error}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => send.mutate()} disabled={send.isPending}>
          Send
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
  const [tab, setTab] = useState(0);
  const [testing, setTesting] = useState(false);
  const providers = useQuery(providersQuery());
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          Messages
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          Reminders and receipts sent to tenants by e-mail, SMS and WhatsApp, and the templates they are
          written from.
        </Typography>
      </Box>
      {providers.data && !providers.data.sms && (
        <Alert severity="info">No SMS provider configured: SMS messages are recorded as skipped.</Alert>
      )}
      {providers.data && !providers.data.email && (
        <Alert severity="info">No SMTP server configured: e-mails are recorded as skipped.</Alert>
      )}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => setTesting(true)}>
          Send a test message
        </Button>
        <Button variant="outlined" component={RouterLink} to="/announcements">
          Announcements
        </Button>
      </Stack>
      {testing && <TestMessageDialog onClose={() => setTesting(false)} />}
      <Tabs
        value={tab}
        onChange={(_e, v: number) => setTab(v)}
        aria-label="Messages sections"
        variant="scrollable"
      >
        <Tab label="Message log" id="messages-tab-0" aria-controls="messages-panel-0" />
        <Tab label="Templates" id="messages-tab-1" aria-controls="messages-panel-1" />
      </Tabs>
      <Box role="tabpanel" id={`messages-panel-${tab}`} aria-labelledby={`messages-tab-${tab}`}>
        {tab === 0 ? <MessageLog /> : <TemplatesSection />}
      </Box>
    </Stack>
  );
};
