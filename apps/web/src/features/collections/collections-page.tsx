import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Check from '@mui/icons-material/Check';
import Close from '@mui/icons-material/Close';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import LinkIcon from '@mui/icons-material/Link';
import LinkOff from '@mui/icons-material/LinkOff';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  formatDate,
  formatMoney,
  isAdmin,
  isCompanyAdmin,
  statementLineStatuses,
  statementSourceLabels,
  statementSources,
  type StatementLine,
  type StatementLineStatus,
  type StatementSource,
  type StatementUpload,
} from '@kodi/domain';
import { useErrorSnackbar, useSnackbar } from '../../components/snackbar-provider.tsx';
import { ListTable, RowAction, RowCard, type ListColumn } from '../../components/ui/list-table.tsx';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { ServerPicker, usePickerSearch, type PickerChoice } from '../../components/ui/search-picker.tsx';
import { useListState } from '../../components/ui/use-list-state.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { pickerQuery, resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import { ConfirmDeleteDialog } from '../../components/resource/confirm-delete-dialog.tsx';
import { useSession } from '../../lib/session.ts';
import { usePhone } from '../../lib/use-phone.ts';
import {
  collectionKeys,
  deleteStatement,
  ignoreLine,
  linesQuery,
  matchLine,
  statementsQuery,
  unmatchLine,
  uploadStatement,
} from './collections-api.ts';
import { useT, type Translate } from '../../lib/i18n.ts';

const statusChip: Record<StatementLineStatus, 'success' | 'warning' | 'error' | 'default'> = {
  matched: 'success',
  suggested: 'warning',
  unmatched: 'error',
  ignored: 'default',
};

const lineColumns = (t: Translate): ListColumn[] => [
  { key: 'date', label: t('collections.date'), sortField: 'date' },
  { key: 'amount', label: t('collections.amount'), sortField: 'amount', align: 'right' },
  { key: 'payer', label: t('collections.payer') },
  { key: 'reference', label: t('collections.reference') },
  { key: 'status', label: t('collections.status'), sortField: 'status' },
  { key: 'match', label: t('collections.lease') },
];

const useMoney = () => {
  const company = useCompanyMoney();
  const { language } = useT();
  return (n: number) => formatMoney(n, company.currency, company.decimals, language);
};

/** The upload: source, file (and a mapping for other layouts), with the browser's upload progress. */
const UploadCard = ({ onDone }: { onDone: (u: StatementUpload) => void }) => {
  const [source, setSource] = useState<StatementSource>('mtn_momo');
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { t, td } = useT();
  const upload = useMutation({
    mutationFn: () => {
      if (!file) throw new Error(t('collections.chooseCsvXlsx'));
      setError(null);
      setProgress(0);
      return uploadStatement({ source, file, mapping }, setProgress);
    },
    onSuccess: (u) => {
      setProgress(null);
      onDone(u);
    },
    onError: (e) => {
      setProgress(null);
      setError(errorMessage(e, t('collections.uploadFailed')));
    },
  });
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('collections.uploadStatement')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label={t('collections.source')}
          value={source}
          onChange={(e) => setSource(e.target.value as StatementSource)}
          sx={{ minWidth: 220 }}
        >
          {statementSources.map((s) => (
            <MenuItem key={s} value={s}>
              {td(`collections.source.${s}`, statementSourceLabels[s])}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" component="label">
          {file ? file.name : t('collections.chooseFile')}
          <input
            hidden
            type="file"
            aria-label={t('collections.statementFile')}
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Button>
        <Button variant="contained" disabled={!file || upload.isPending} onClick={() => upload.mutate()}>
          {t('collections.upload')}
        </Button>
      </Stack>
      {source === 'custom' && (
        <TextField
          label={t('collections.mapping')}
          placeholder='{ "Txn": "transaction_id", "When": "date", "Paid": "amount", "Mobile": "payer_phone" }'
          value={mapping}
          onChange={(e) => setMapping(e.target.value)}
          fullWidth
          multiline
          minRows={2}
          size="small"
          sx={{ mt: 2 }}
        />
      )}
      {progress !== null && (
        <Box sx={{ mt: 2 }}>
          <LinearProgress
            variant={progress < 1 ? 'determinate' : 'indeterminate'}
            value={Math.round(progress * 100)}
            aria-label={t('collections.uploadProgress')}
          />
          <Typography variant="caption">
            {progress < 1
              ? t('collections.uploadingPercent', { percent: Math.round(progress * 100) })
              : t('collections.matchingLines')}
          </Typography>
        </Box>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
    </Paper>
  );
};

export const deleteStatementText = (fileName: string, t: Translate) =>
  t('collections.deleteText', { file: fileName });

/** The statements with their totals: received, matched, posted; company admins may delete one. */
const StatementsTable = () => {
  const money = useMoney();
  const { t, td, language } = useT();
  const { user } = useSession();
  const { showSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const statements = useQuery(statementsQuery({ page: 0, pageSize: 5 }));
  const [toDelete, setToDelete] = useState<{ id: number; file_name: string } | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => deleteStatement(id),
    onSuccess: async (done) => {
      showSnackbar({
        message: t('collections.deleted', {
          lines: done.lines_removed,
          payments: done.payments_voided.length,
        }),
        severity: 'success',
        autoHideDuration: 5000,
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
        queryClient.invalidateQueries({ queryKey: resourceKeys.all }),
      ]);
    },
    onError: (e) =>
      showSnackbar({
        message: errorMessage(e, t('collections.deleteFailed')),
        severity: 'error',
        autoHideDuration: 5000,
      }),
    onSettled: () => setToDelete(null),
  });
  const mayDelete = isCompanyAdmin(user);
  const phone = usePhone();
  const rows = statements.data?.rows ?? [];
  if (rows.length === 0) return null;
  const confirm = (
    <ConfirmDeleteDialog
      open={toDelete !== null}
      text={toDelete ? deleteStatementText(toDelete.file_name, t) : ''}
      busy={remove.isPending}
      onCancel={() => setToDelete(null)}
      onConfirm={() => toDelete && remove.mutate(toDelete.id)}
    />
  );
  const linesOf = (s: (typeof rows)[number]) =>
    s.duplicate_lines > 0
      ? t('collections.linesSeen', { lines: s.new_lines, seen: s.duplicate_lines })
      : String(s.new_lines);
  const sourceOf = (s: (typeof rows)[number]) =>
    `${td(`collections.source.${s.source}`, statementSourceLabels[s.source])} · ${formatDate(s.created_at, language)}`;
  const deleteOf = (s: (typeof rows)[number]) => (
    <RowAction
      label={t('collections.deleteStatement', { file: s.file_name })}
      icon={<DeleteOutline fontSize="small" />}
      color="error"
      onClick={() => setToDelete(s)}
    />
  );
  // on a phone, cards (issue 26): the table's last columns were off screen
  if (phone)
    return (
      <Paper variant="outlined">
        {confirm}
        <Box
          component="ul"
          aria-label={t('collections.statements')}
          sx={{ listStyle: 'none', m: 0, p: 1, display: 'grid', gap: 1 }}
        >
          {rows.map((s) => (
            <RowCard
              key={s.id}
              titleLabel={t('collections.statement')}
              title={s.file_name}
              fields={[
                { label: t('collections.source'), value: sourceOf(s) },
                { label: t('collections.lines'), value: linesOf(s) },
                { label: t('collections.received'), value: money(s.received) },
                { label: t('collections.matched'), value: money(s.matched) },
                { label: t('collections.posted'), value: money(s.posted) },
                { label: t('collections.open'), value: s.open_lines },
              ]}
              actions={mayDelete ? deleteOf(s) : undefined}
            />
          ))}
        </Box>
      </Paper>
    );
  return (
    <TableContainer component={Paper} variant="outlined">
      {confirm}
      <Table size="small" aria-label={t('collections.statements')}>
        <TableHead>
          <TableRow>
            {(['statement', 'lines', 'received', 'matched', 'posted', 'open'] as const)
              .map((h) => t(`collections.${h}`))
              .concat(mayDelete ? [''] : [])
              .map((h, i) => (
                <TableCell
                  key={h}
                  align={i === 0 ? 'left' : 'right'}
                  sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                >
                  {h}
                </TableCell>
              ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((s) => (
            <TableRow key={s.id}>
              <TableCell sx={{ minWidth: 140 }}>
                {s.file_name}
                <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
                  {sourceOf(s)}
                </Typography>
              </TableCell>
              <TableCell align="right">{linesOf(s)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {money(s.received)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {money(s.matched)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {money(s.posted)}
              </TableCell>
              <TableCell align="right">{s.open_lines}</TableCell>
              {mayDelete && (
                <TableCell align="right" padding="checkbox">
                  {deleteOf(s)}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

type LeaseRow = { id: number; tenant_name?: string | null; unit_name?: string | null };
type Allocation = { key: number; lease: PickerChoice<number> | null; amount: string };

/** One allocation's lease: searched on the server by tenant or unit. */
const LeasePicker = ({
  value,
  onChange,
  label,
}: {
  value: PickerChoice<number> | null;
  onChange: (c: PickerChoice<number> | null) => void;
  label: string;
}) => {
  const search = usePickerSearch<number>();
  const { t } = useT();
  const leases = useQuery({ ...pickerQuery('occupancy', search.q), enabled: search.open });
  const choices = ((leases.data?.rows ?? []) as LeaseRow[]).map((l) => ({
    value: l.id,
    label: `${l.tenant_name ?? '?'} · ${l.unit_name ?? '?'}`,
  }));
  // every lease offered while searching (issue 26): the one chosen fills the candidate even when the
  // search has moved on (the box showing its label asks the server again)
  const seen = useRef(new Map<number, PickerChoice<number>>());
  for (const c of choices) seen.current.set(c.value, c);
  return (
    <ServerPicker
      label={label}
      size="small"
      search={search}
      choices={value && !choices.some((c) => c.value === value.value) ? [value, ...choices] : choices}
      selected={value}
      onChange={(v) =>
        onChange(v === null ? null : (seen.current.get(v) ?? (v === value?.value ? value : null)))
      }
      fetching={leases.isFetching}
      noOptionsText={t('collections.noLeaseMatches')}
    />
  );
};

let nextKey = 1;

/** Match by hand: one lease or several (a split), the amounts adding up to the line. */
const MatchDialog = ({ line, onClose }: { line: StatementLine; onClose: (done: boolean) => void }) => {
  const money = useMoney();
  const { t, language } = useT();
  const initial: PickerChoice<number> | null =
    line.occupancy_id !== null
      ? { value: line.occupancy_id, label: `${line.tenant_name ?? '?'} · ${line.unit_name ?? '?'}` }
      : null;
  const [rows, setRows] = useState<Allocation[]>([
    { key: nextKey++, lease: initial, amount: String(line.amount) },
  ]);
  const [error, setError] = useState<string | null>(null);
  // a tenant with several leases: offer them all, to split the money between them
  const tenantLeases = useQuery({
    ...pickerQuery('occupancy', line.tenant_name ?? ''),
    enabled: line.occupancy_id === null && !!line.tenant_name,
  });
  const theirs = ((tenantLeases.data?.rows ?? []) as (LeaseRow & { tenant_id?: number })[]).filter(
    (l) => l.tenant_id === line.tenant_id,
  );
  const total = rows.reduce((s, r) => s + Math.round(Number(r.amount || 0) * 100), 0);
  const target = Math.round(line.amount * 100);
  const save = useMutation({
    mutationFn: () =>
      matchLine(
        line.id,
        rows.map((r) => ({ occupancy_id: r.lease?.value ?? 0, amount: Number(r.amount) })),
      ),
    onSuccess: () => onClose(true),
    onError: (e) => setError(errorMessage(e, t('collections.matchFailed'))),
  });
  const set = (key: number, patch: Partial<Allocation>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="sm">
      <DialogTitle>{t('collections.matchTitle', { amount: money(line.amount) })}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {formatDate(line.date, language)} ·{' '}
          {line.payer_name ?? line.payer_phone ?? t('collections.unknownPayer')}
          {line.reference ? ` · ${line.reference}` : ''}
        </Typography>
        {line.match_reason && (
          <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
            {line.match_reason}
          </Typography>
        )}
        <Stack spacing={2}>
          {rows.map((r, i) => (
            <Stack key={r.key} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Box sx={{ flex: 2 }}>
                <LeasePicker
                  label={t('collections.leaseN', { n: i + 1 })}
                  value={r.lease}
                  onChange={(lease) => set(r.key, { lease })}
                />
              </Box>
              <Stack direction="row" spacing={1} sx={{ flex: 1, alignItems: 'center' }}>
                <TextField
                  size="small"
                  label={t('collections.amount')}
                  type="number"
                  value={r.amount}
                  onChange={(e) => set(r.key, { amount: e.target.value })}
                  fullWidth
                />
                {rows.length > 1 && (
                  <IconButton
                    aria-label={t('collections.removeLeaseN', { n: i + 1 })}
                    onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
                  >
                    <Close fontSize="small" />
                  </IconButton>
                )}
              </Stack>
            </Stack>
          ))}
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
            <Button
              size="small"
              onClick={() => setRows((rs) => [...rs, { key: nextKey++, lease: null, amount: '' }])}
            >
              {t('collections.splitAnother')}
            </Button>
            {theirs.length > 1 && (
              <Button
                size="small"
                onClick={() =>
                  setRows(
                    theirs.map((l, i) => ({
                      key: nextKey++,
                      lease: { value: l.id, label: `${l.tenant_name ?? '?'} · ${l.unit_name ?? '?'}` },
                      amount: i === 0 ? String(line.amount) : '',
                    })),
                  )
                }
              >
                {t('collections.splitTenant', {
                  tenant: line.tenant_name ?? t('collections.theTenant'),
                  count: theirs.length,
                })}
              </Button>
            )}
          </Stack>
          <Typography variant="body2" sx={{ color: total === target ? 'success.main' : 'error.main' }}>
            {t('collections.allocated', { allocated: money(total / 100), total: money(line.amount) })}
          </Typography>
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{t('collections.cancel')}</Button>
        <Button
          variant="contained"
          disabled={save.isPending || total !== target || rows.some((r) => !r.lease)}
          onClick={() => save.mutate()}
        >
          {t('collections.match')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

const IgnoreDialog = ({ line, onClose }: { line: StatementLine; onClose: (done: boolean) => void }) => {
  const [reason, setReason] = useState('');
  const { t } = useT();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => ignoreLine(line.id, reason),
    onSuccess: () => onClose(true),
    onError: (e) => setError(errorMessage(e, t('collections.ignoreFailed'))),
  });
  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="xs">
      <DialogTitle>{t('collections.ignoreTitle')}</DialogTitle>
      <DialogContent dividers>
        <TextField
          autoFocus
          label={t('collections.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          fullWidth
          size="small"
        />
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{t('collections.cancel')}</Button>
        <Button variant="contained" disabled={!reason.trim() || save.isPending} onClick={() => save.mutate()}>
          {t('collections.ignore')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * 'Collections' (Finance; admins and editors): upload a mobile-money or bank statement, see its lines
 * matched to leases (the open ones first), accept a suggestion in one click, match by hand or split
 * across leases, ignore what is not rent; admins unmatch (the payments made are voided).
 */
export const CollectionsPage = () => {
  const money = useMoney();
  const { t, td, language } = useT();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const listState = useListState({ resetPageOnSort: true });
  const [status, setStatus] = useState<StatementLineStatus | ''>('');
  const [matching, setMatching] = useState<StatementLine | null>(null);
  const [ignoring, setIgnoring] = useState<StatementLine | null>(null);
  const [result, setResult] = useState<StatementUpload | null>(null);
  const lines = useQuery(linesQuery(listState.params, status));
  const loadError = lines.isError ? errorMessage(lines.error, t('collections.loadFailed')) : null;
  useErrorSnackbar(loadError);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: collectionKeys.all });

  const act = useMutation({
    mutationFn: ({ line, kind }: { line: StatementLine; kind: 'accept' | 'unmatch' }) =>
      kind === 'accept'
        ? matchLine(line.id, [{ occupancy_id: line.occupancy_id ?? 0, amount: line.amount }])
        : unmatchLine(line.id),
    onSuccess: (line, { kind }) => {
      showSnackbar({
        message:
          kind === 'accept'
            ? t('collections.matchedFor', { tenant: line.tenant_name ?? t('collections.theLease') })
            : t('collections.unmatchedDone'),
        severity: 'success',
      });
      refresh();
    },
    onError: (e) =>
      showSnackbar({ message: errorMessage(e, t('collections.changeFailed')), severity: 'error' }),
  });

  const closed = (done: boolean) => {
    setMatching(null);
    setIgnoring(null);
    if (done) refresh();
  };

  // a line's parts, in the table's cells or on its card at phone width (issue 26)
  const rows = lines.data?.rows ?? [];
  const amountOf = (line: StatementLine) => `${line.direction === 'out' ? '−' : ''}${money(line.amount)}`;
  const caption = (text: string) => (
    <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
      {text}
    </Typography>
  );
  const payerOf = (line: StatementLine) => (
    <>
      {line.payer_name ?? '—'}
      {line.payer_phone && caption(line.payer_phone)}
    </>
  );
  const referenceOf = (line: StatementLine) => (
    <>
      {line.reference ?? '—'}
      {caption(line.transaction_id)}
    </>
  );
  const statusOf = (line: StatementLine) => (
    <Chip
      size="small"
      label={td(`collections.lineStatus.${line.status}`, line.status)}
      color={statusChip[line.status]}
    />
  );
  const leaseOf = (line: StatementLine) => (
    <>
      {line.tenant_name
        ? line.unit_name
          ? `${line.tenant_name} · ${line.unit_name}`
          : t('collections.severalLeases', { tenant: line.tenant_name })
        : '—'}
      {line.status === 'suggested' && caption(t('collections.sure', { percent: line.confidence }))}
      {line.ignore_reason && caption(line.ignore_reason)}
      {line.match_reason &&
        (line.status === 'suggested' || line.status === 'unmatched') &&
        caption(line.match_reason)}
    </>
  );
  const actionsOf = (line: StatementLine) => (
    <>
      {line.status === 'suggested' && line.occupancy_id !== null && (
        <RowAction
          label={t('collections.accept', { tenant: line.tenant_name ?? '', unit: line.unit_name ?? '' })}
          icon={<Check fontSize="small" />}
          onClick={() => act.mutate({ line, kind: 'accept' })}
        />
      )}
      {(line.status === 'suggested' || line.status === 'unmatched') && (
        <>
          <RowAction
            label={t('collections.matchByHand')}
            icon={<LinkIcon fontSize="small" />}
            onClick={() => setMatching(line)}
          />
          <RowAction
            label={t('collections.ignore')}
            icon={<DeleteOutline fontSize="small" />}
            onClick={() => setIgnoring(line)}
          />
        </>
      )}
      {line.status === 'matched' && isAdmin(user) && (
        <RowAction
          label={t('collections.unmatch')}
          color="error"
          icon={<LinkOff fontSize="small" />}
          onClick={() => act.mutate({ line, kind: 'unmatch' })}
        />
      )}
    </>
  );

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('collections.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('collections.intro')}
        </Typography>
      </Box>

      <UploadCard
        onDone={(u) => {
          setResult(u);
          refresh();
        }}
      />
      {result && (
        <Alert severity="success" onClose={() => setResult(null)} role="status">
          {t('collections.uploadResult', {
            lines: result.lines,
            new: result.new_lines,
            seen: result.duplicate_lines,
            matched: result.matched,
            suggested: result.suggested,
            unmatched: result.unmatched,
          })}
        </Alert>
      )}
      <StatementsTable />

      <ListToolbar label={t('collections.search')} value={listState.search} onChange={listState.setSearch}>
        <TextField
          select
          size="small"
          label={t('collections.status')}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as StatementLineStatus | '');
            listState.setPage(0);
          }}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="">{t('collections.openFirst')}</MenuItem>
          {statementLineStatuses.map((s) => (
            <MenuItem key={s} value={s}>
              {td(`collections.statusOption.${s}`, `${s[0]?.toUpperCase() ?? ''}${s.slice(1)}`)}
            </MenuItem>
          ))}
        </TextField>
      </ListToolbar>

      <ListTable
        label={t('collections.statementLines')}
        list={listState}
        query={lines}
        emptyText={loadError ?? t('collections.empty')}
        columns={lineColumns(t)}
        cards={rows.map((line) => (
          <RowCard
            key={line.id}
            titleLabel={t('collections.amount')}
            title={`${amountOf(line)} · ${formatDate(line.date, language)}`}
            fields={[
              { label: t('collections.payer'), value: payerOf(line) },
              { label: t('collections.reference'), value: referenceOf(line) },
              { label: t('collections.status'), value: statusOf(line) },
              { label: t('collections.lease'), value: leaseOf(line) },
            ]}
            actions={actionsOf(line)}
          />
        ))}
      >
        {rows.map((line) => (
          <TableRow key={line.id} hover>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(line.date, language)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
              {amountOf(line)}
            </TableCell>
            <TableCell sx={{ minWidth: 130 }}>{payerOf(line)}</TableCell>
            <TableCell sx={{ minWidth: 120 }}>{referenceOf(line)}</TableCell>
            <TableCell>{statusOf(line)}</TableCell>
            <TableCell sx={{ minWidth: 140 }}>{leaseOf(line)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {actionsOf(line)}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      {matching && <MatchDialog line={matching} onClose={closed} />}
      {ignoring && <IgnoreDialog line={ignoring} onClose={closed} />}
    </Stack>
  );
};
