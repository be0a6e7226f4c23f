import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Visibility from '@mui/icons-material/Visibility';
import { useQuery } from '@tanstack/react-query';
import { auditAction, auditNoun, auditSummary, type AuditLogEntry, type Language } from '@kodi/domain';
import { useErrorSnackbar } from '../../components/snackbar-provider.tsx';
import { ExportMenu } from '../../components/resource/export-menu.tsx';
import { ListTable, RowAction, type ListColumn } from '../../components/ui/list-table.tsx';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { useListState } from '../../components/ui/use-list-state.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useT, type Translate, type TranslateDerived } from '../../lib/i18n.ts';
import { auditLogQuery, filterQuery, type AuditFilters } from './audit-log-api.ts';

const columns = (t: Translate): ListColumn[] => [
  { key: 'at', label: t('audit.at'), sortField: 'at' },
  { key: 'user_email', label: t('audit.user') },
  { key: 'title', label: t('audit.whatHappened'), sortField: 'action' },
  { key: 'record', label: t('audit.record'), sortField: 'entity' },
  { key: 'summary', label: t('audit.summary') },
  { key: 'changes', label: t('audit.changes') },
];

const LOCALES: Record<Language, string> = { en: 'en-US', sw: 'sw-KE', fr: 'fr-FR' };

const when = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'medium', timeStyle: 'medium' }).format(
    new Date(iso),
  );

/** 'Unit #12', 'Statement line #40' (the noun in the page's language: `audit.noun.<table>`). */
const recordText = (e: AuditLogEntry, td: TranslateDerived) => {
  const noun = auditNoun(e.entity);
  return `${noun === undefined ? e.entity.replace(/_/g, ' ') : td(`audit.noun.${e.entity}`, noun)} #${e.record_id}`;
};

/** The stored summary, when the entry has one (the server answers 'Created units #7' otherwise). */
const ownSummary = (e: AuditLogEntry) =>
  e.summary === auditSummary({ action: e.action, entity: e.entity, record_id: e.record_id, summary: '' })
    ? null
    : e.summary;

const SHOWN_LINES = 3;

/** The first changed fields, a line each; the whole list is in the entry's dialog. */
const ChangeLines = ({ entry }: { entry: AuditLogEntry }) => {
  const { t } = useT();
  return entry.details.length === 0 ? (
    '—'
  ) : (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {entry.details.slice(0, SHOWN_LINES).map((line, i) => (
        <li key={i}>{line}</li>
      ))}
      {entry.details.length > SHOWN_LINES && (
        <Box component="li" sx={{ listStyle: 'none', color: 'text.secondary' }}>
          {t('audit.andMore', { count: entry.details.length - SHOWN_LINES })}
        </Box>
      )}
    </Box>
  );
};

const EntryDialog = ({ entry, onClose }: { entry: AuditLogEntry; onClose: () => void }) => {
  const summary = ownSummary(entry);
  const { t, td, language } = useT();
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{entry.title}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ mb: summary ? 1 : 2 }}>
          {when(entry.at, language)} · {entry.user_email ?? t('audit.noUser')} · {recordText(entry, td)}
        </Typography>
        {summary && (
          <Typography variant="body2" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
            {summary}
          </Typography>
        )}
        {entry.details.length === 0 ? (
          <Typography variant="body2">{t('audit.noFieldChanged')}</Typography>
        ) : (
          <Box
            component="ul"
            aria-label={t('audit.changes')}
            sx={{ m: 0, pl: 2.5, overflowWrap: 'anywhere' }}
          >
            {entry.details.map((line, i) => (
              <li key={i}>
                <Typography variant="body2">{line}</Typography>
              </li>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('shell.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * 'Audit Log' (Administration, admins and company admins): every change of the company's records,
 * the sign-ins, access and settings changes, imports, statement matches and webhook deliveries,
 * newest first, filtered and exported. Read-only.
 */
export const AuditLogPage = () => {
  const { t, td, language } = useT();
  const listState = useListState({ resetPageOnSort: true });
  const [filters, setFilters] = useState<AuditFilters>({});
  const [shown, setShown] = useState<AuditLogEntry | null>(null);
  const list = useQuery(auditLogQuery({ ...listState.params, ...filters }));
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? errorMessage(list.error, t('audit.loadFailed')) : null;
  useErrorSnackbar(loadError);
  const set = (key: keyof AuditFilters) => (e: { target: { value: string } }) => {
    setFilters((f) => ({ ...f, [key]: e.target.value }));
    listState.setPage(0);
  };

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('audit.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('audit.intro')}
        </Typography>
      </Box>
      <ListToolbar label={t('audit.search')} value={listState.search} onChange={listState.setSearch}>
        <TextField
          select
          size="small"
          label={t('audit.action')}
          value={filters.action ?? ''}
          onChange={set('action')}
          sx={{ minWidth: 150 }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('shell.all')}</option>
          {auditAction.values.map((a) => (
            <option key={a} value={a}>
              {td(`audit.actionName.${a}`, auditAction.labels[a])}
            </option>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('audit.entity')}
          placeholder="payments"
          value={filters.entity ?? ''}
          onChange={set('entity')}
          sx={{ width: 140 }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label={t('audit.from')}
          value={filters.from ?? ''}
          onChange={set('from')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label={t('audit.to')}
          value={filters.to ?? ''}
          onChange={set('to')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <ExportMenu
          path="audit-log"
          headers={columns(t).map((c) => c.label)}
          q={listState.search}
          sort={listState.params.sort}
          more={filterQuery(filters)}
          errorText={(e) => errorMessage(e, t('audit.exportFailed'))}
        />
      </ListToolbar>
      <ListTable
        label={t('audit.title')}
        list={listState}
        query={list}
        emptyText={loadError ?? t('audit.empty')}
        columns={columns(t)}
      >
        {rows.map((e) => (
          <TableRow key={e.id} hover>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(e.at, language)}</TableCell>
            <TableCell sx={{ minWidth: 150, overflowWrap: 'anywhere' }}>{e.user_email ?? '—'}</TableCell>
            <TableCell sx={{ minWidth: 140, fontWeight: 500 }}>{e.title}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{recordText(e, td)}</TableCell>
            <TableCell sx={{ minWidth: 160, overflowWrap: 'anywhere' }}>{ownSummary(e) ?? '—'}</TableCell>
            <TableCell sx={{ minWidth: 220, overflowWrap: 'anywhere' }}>
              <ChangeLines entry={e} />
            </TableCell>
            <TableCell align="right">
              <RowAction
                label={t('audit.viewEntry')}
                icon={<Visibility fontSize="small" />}
                onClick={() => setShown(e)}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      {shown && <EntryDialog entry={shown} onClose={() => setShown(null)} />}
    </Stack>
  );
};
