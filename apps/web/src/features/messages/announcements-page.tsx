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
  intlLocales,
  messageChannel,
  type Announcement,
  type Language,
  type MessageChannel,
} from '@kodi/domain';
import { useT, type Translate, type TranslateDerived } from '../../lib/i18n.ts';
import { useSnackbar, useErrorSnackbar } from '../../components/snackbar-provider.tsx';
import { ListTable, RowCard, type ListColumn } from '../../components/ui/list-table.tsx';
import { useListState } from '../../components/ui/use-list-state.ts';
import { useDebounced } from '../../components/ui/use-debounced.ts';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { pickerQuery } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { announcementKeys, announcementsQuery, sendAnnouncement } from './messages-api.ts';

const columns = (t: Translate): ListColumn[] => [
  { key: 'created_at', label: t('messages.ann.col.date') },
  { key: 'property', label: t('messages.ann.col.to') },
  { key: 'subject', label: t('messages.ann.col.subject') },
  { key: 'recipients', label: t('messages.ann.col.tenants'), align: 'right' },
  { key: 'counts', label: t('messages.ann.col.delivery') },
];

const when = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(intlLocales[language], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

const channelName = (c: string, td: TranslateDerived) =>
  td(`messages.channel.${c}`, (messageChannel.labels as Record<string, string>)[c] ?? c);

/** 'SMS: 12 sent, 1 queued, 2 skipped' per channel, a line each. */
const delivery = (a: Announcement, t: Translate, td: TranslateDerived) =>
  a.channels.map((c) => {
    const n = a.counts[c] ?? { queued: 0, sent: 0, failed: 0, skipped: 0 };
    const parts = (['sent', 'queued', 'failed', 'skipped'] as const)
      .filter((k) => n[k] > 0)
      .map((k) => t(`messages.count.${k}`, { count: n[k] }));
    return t('messages.ann.channelLine', {
      channel: channelName(c, td),
      counts: parts.length ? parts.join(', ') : t('messages.ann.none'),
    });
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
  const { t } = useT();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const list = useQuery(pickerQuery('properties', q));
  const found = (list.data?.rows ?? []).map(choiceOf);
  const choices = value && !found.some((c) => c.value === value.value) ? [value, ...found] : found;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
      <TextField
        label={t('messages.ann.findProperty')}
        size="small"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        sx={{ flex: 1 }}
      />
      <TextField
        select
        size="small"
        label={t('messages.ann.property')}
        value={value ? String(value.value) : ''}
        onChange={(e) => onChange(choices.find((c) => String(c.value) === e.target.value) ?? null)}
        error={!!error}
        helperText={error ?? t('messages.ann.allPropertiesHelp')}
        sx={{ flex: 1 }}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        <option value="">{t('messages.ann.allProperties')}</option>
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
  const { t, td } = useT();
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
        message: t('messages.ann.queued', { count: a.recipients }),
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
      setError(errorMessage(e, t('messages.ann.sendFailed')));
    },
  });

  const toggle = (c: MessageChannel, on: boolean) =>
    setChannels((cs) => (on ? [...cs, c] : cs.filter((x) => x !== c)));

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack
        component="form"
        spacing={2}
        aria-label={t('messages.ann.new')}
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate();
        }}
      >
        <Typography variant="h6" component="h2">
          {t('messages.ann.new')}
        </Typography>
        <PropertyChoice value={property} onChange={setProperty} error={fields.property_id} />
        <FormControl error={!!fields.channels} component="fieldset" variant="standard">
          <FormLabel component="legend">{t('messages.ann.channels')}</FormLabel>
          <FormGroup row>
            {messageChannel.values.map((c) => (
              <FormControlLabel
                key={c}
                control={
                  <Checkbox checked={channels.includes(c)} onChange={(e) => toggle(c, e.target.checked)} />
                }
                label={channelName(c, td)}
              />
            ))}
          </FormGroup>
          {fields.channels && <FormHelperText>{fields.channels}</FormHelperText>}
        </FormControl>
        <TextField
          label={t('messages.ann.subject')}
          required
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          error={!!fields.subject}
          helperText={fields.subject}
          slotProps={{ htmlInput: { maxLength: ANNOUNCEMENT_SUBJECT_MAX } }}
        />
        <TextField
          label={t('messages.ann.message')}
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
            {t('messages.ann.send')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
};

/** The announcements sent, newest first, with what their messages became. */
const AnnouncementList = () => {
  const { t, td, language } = useT();
  const listState = useListState();
  const list = useQuery(announcementsQuery(listState.params));
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? errorMessage(list.error, t('messages.ann.loadFailed')) : null;
  useErrorSnackbar(loadError);
  return (
    <ListTable
      label={t('messages.announcements')}
      list={listState}
      query={list}
      emptyText={loadError ?? t('messages.ann.empty')}
      columns={columns(t)}
      cards={rows.map((a) => (
        <RowCard
          key={a.id}
          title={a.subject}
          titleLabel={t('messages.ann.col.subject')}
          fields={[
            { label: t('messages.ann.col.date'), value: when(a.created_at, language) },
            { label: t('messages.ann.col.to'), value: a.property_name ?? t('messages.ann.allProperties') },
            { label: t('messages.ann.col.tenants'), value: a.recipients },
            { label: t('messages.ann.col.delivery'), value: delivery(a, t, td).join('; ') },
          ]}
        />
      ))}
    >
      {rows.map((a) => (
        <TableRow key={a.id} hover>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(a.created_at, language)}</TableCell>
          <TableCell>{a.property_name ?? t('messages.ann.allProperties')}</TableCell>
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
            {delivery(a, t, td).map((line) => (
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
  const { t } = useT();
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('messages.announcements')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('messages.ann.intro')}
        </Typography>
      </Box>
      {canEdit(user) && <AnnouncementForm />}
      <AnnouncementList />
    </Stack>
  );
};
