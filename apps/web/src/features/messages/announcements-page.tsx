import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ANNOUNCEMENT_BODY_MAX,
  ANNOUNCEMENT_SUBJECT_MAX,
  canEdit,
  messageChannel,
  type Announcement,
  type MessageChannel,
} from '@kodi/domain';
import { useSnackbar, useErrorSnackbar } from '../../components/snackbar-provider.tsx';
import { ListTable, RowCard, type ListColumn } from '../../components/ui/list-table.tsx';
import { useListState } from '../../components/ui/use-list-state.ts';
import { useDebounced } from '../../components/ui/use-debounced.ts';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { pickerQuery } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { announcementKeys, announcementsQuery, sendAnnouncement } from './messages-api.ts';

const columns: ListColumn[] = [
  { key: 'created_at', label: 'Date' },
  { key: 'property', label: 'To' },
  { key: 'subject', label: 'Subject' },
  { key: 'recipients', label: 'Tenants', align: 'right' },
  { key: 'counts', label: 'Delivery' },
];

const when = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const channelName = (c: string) => (messageChannel.labels as Record<string, string>)[c] ?? c;

/** 'SMS: 12 sent, 1 queued, 2 skipped' per channel, a line each. */
const delivery = (a: Announcement) =>
  a.channels.map((c) => {
    const n = a.counts[c] ?? { queued: 0, sent: 0, failed: 0, skipped: 0 };
    const parts = (['sent', 'queued', 'failed', 'skipped'] as const)
      .filter((k) => n[k] > 0)
      .map((k) => `${n[k]} ${k}`);
    return `${channelName(c)}: ${parts.length ? parts.join(', ') : 'none'}`;
  });

const newKey = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

type Choice = { value: number; label: string };
const choiceOf = (row: { id: number; name?: unknown }): Choice => ({
  value: row.id,
  label: typeof row.name === 'string' && row.name ? row.name : `#${row.id}`,
});

/**
 * The property an announcement goes to, or none (all): a search the server answers (20 at a time,
 * never the whole table) and a native select of its matches. Not the shared Autocomplete picker: the
 * page ships in the Messages page's chunk, and the picker there would regroup the chunks the other
 * pages share (the bundle's budget).
 */
const PropertyChoice = ({
  value,
  onChange,
  error,
}: {
  value: Choice | null;
  onChange: (c: Choice | null) => void;
  error: string | undefined;
}) => {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const list = useQuery(pickerQuery('properties', q));
  const found = (list.data?.rows ?? []).map(choiceOf);
  const choices = value && !found.some((c) => c.value === value.value) ? [value, ...found] : found;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
      <TextField
        label="Find a property"
        size="small"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        sx={{ flex: 1 }}
      />
      <TextField
        select
        size="small"
        label="Property"
        value={value ? String(value.value) : ''}
        onChange={(e) => onChange(choices.find((c) => String(c.value) === e.target.value) ?? null)}
        error={!!error}
        helperText={error ?? 'All properties: the tenants of every property.'}
        sx={{ flex: 1 }}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        <option value="">All properties</option>
        {choices.map((c) => (
          <option key={c.value} value={String(c.value)}>
            {c.label}
          </option>
        ))}
      </TextField>
    </Stack>
  );
};

/** The form of a new announcement (admins and editors): a property or all, the channels, the text. */
const AnnouncementForm = () => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [property, setProperty] = useState<Choice | null>(null);
  const [channels, setChannels] = useState<MessageChannel[]>(['sms']);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  // made once per announcement: a retry of the same one (a lost answer, a double tap) sends it once
  const [key, setKey] = useState(newKey);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const send = useMutation({
    mutationFn: () =>
      sendAnnouncement({
        property_id: property?.value ?? null,
        channels,
        subject,
        body,
        idempotency_key: key,
      }),
    onSuccess: async (a) => {
      await queryClient.invalidateQueries({ queryKey: announcementKeys.all });
      showSnackbar({
        message: `Announcement queued for ${a.recipients} tenant${a.recipients === 1 ? '' : 's'}.`,
        severity: 'success',
      });
      setSubject('');
      setBody('');
      setFields({});
      setError(null);
      setKey(newKey());
    },
    onError: (e) => {
      setFields(isApiError(e) ? (e.fields ?? {}) : {});
      setError(errorMessage(e, 'Could not send the announcement.'));
    },
  });

  const toggle = (c: MessageChannel, on: boolean) =>
    setChannels((cs) => (on ? [...cs, c] : cs.filter((x) => x !== c)));

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack
        component="form"
        spacing={2}
        aria-label="New announcement"
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate();
        }}
      >
        <Typography variant="h6" component="h2">
          New announcement
        </Typography>
        <PropertyChoice value={property} onChange={setProperty} error={fields.property_id} />
        <FormControl error={!!fields.channels} component="fieldset" variant="standard">
          <FormLabel component="legend">Channels</FormLabel>
          <FormGroup row>
            {messageChannel.values.map((c) => (
              <FormControlLabel
                key={c}
                control={
                  <Checkbox checked={channels.includes(c)} onChange={(e) => toggle(c, e.target.checked)} />
                }
                label={messageChannel.labels[c]}
              />
            ))}
          </FormGroup>
          {fields.channels && <FormHelperText>{fields.channels}</FormHelperText>}
        </FormControl>
        <TextField
          label="Subject"
          required
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          error={!!fields.subject}
          helperText={fields.subject}
          slotProps={{ htmlInput: { maxLength: ANNOUNCEMENT_SUBJECT_MAX } }}
        />
        <TextField
          label="Message"
          required
          multiline
          minRows={3}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          error={!!fields.body}
          helperText={fields.body ?? `${body.length} / ${ANNOUNCEMENT_BODY_MAX}`}
          slotProps={{ htmlInput: { maxLength: ANNOUNCEMENT_BODY_MAX } }}
        />
        {error && Object.keys(fields).length === 0 && (
          <Typography role="alert" color="error" variant="body2">
            {error}
          </Typography>
        )}
        <Box>
          <Button type="submit" variant="contained" disabled={send.isPending}>
            Send announcement
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
};

/** The announcements sent, newest first, with what their messages became. */
const AnnouncementList = () => {
  const listState = useListState();
  const list = useQuery(announcementsQuery(listState.params));
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? errorMessage(list.error, 'Failed to load announcements.') : null;
  useErrorSnackbar(loadError);
  return (
    <ListTable
      label="Announcements"
      list={listState}
      query={list}
      emptyText={loadError ?? 'No announcements yet.'}
      columns={columns}
      cards={rows.map((a) => (
        <RowCard
          key={a.id}
          title={a.subject}
          titleLabel="Subject"
          fields={[
            { label: 'Date', value: when(a.created_at) },
            { label: 'To', value: a.property_name ?? 'All properties' },
            { label: 'Tenants', value: a.recipients },
            { label: 'Delivery', value: delivery(a).join('; ') },
          ]}
        />
      ))}
    >
      {rows.map((a) => (
        <TableRow key={a.id} hover>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(a.created_at)}</TableCell>
          <TableCell>{a.property_name ?? 'All properties'}</TableCell>
          <TableCell sx={{ minWidth: 160 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {a.subject}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
              {a.body.length > 120 ? `${a.body.slice(0, 117)}…` : a.body}
            </Typography>
          </TableCell>
          <TableCell align="right">{a.recipients}</TableCell>
          <TableCell sx={{ minWidth: 180 }}>
            {delivery(a).map((line) => (
              <Typography key={line} variant="body2">
                {line}
              </Typography>
            ))}
          </TableCell>
          <TableCell />
        </TableRow>
      ))}
    </ListTable>
  );
};

/**
 * 'Announcements' (issue 29, under Messages): a notice to every tenant with an active lease on a
 * property, or on any, by the channels chosen (admins and editors send; every staff role reads the
 * list and what each one's messages became).
 */
export const AnnouncementsPage = () => {
  const { user } = useSession();
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          Announcements
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          A notice to the tenants of a property or of every property, by the channels chosen. Each tenant gets
          it once per channel; the message log shows each message.
        </Typography>
      </Box>
      {canEdit(user) && <AnnouncementForm />}
      <AnnouncementList />
    </Stack>
  );
};
