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

const statusChip: Record<StatementLineStatus, 'success' | 'warning' | 'error' | 'default'> = {
  matched: 'success',
  suggested: 'warning',
  unmatched: 'error',
  ignored: 'default',
};

const lineColumns: ListColumn[] = [
  { key: 'date', label: 'Date', sortField: 'date' },
  { key: 'amount', label: 'Amount', sortField: 'amount', align: 'right' },
  { key: 'payer', label: 'Payer' },
  { key: 'reference', label: 'Reference' },
  { key: 'status', label: 'Status', sortField: 'status' },
  { key: 'match', label: 'Lease' },
];

const useMoney = () => {
  const company = useCompanyMoney();
  return (n: number) => formatMoney(n, company.currency, company.decimals);
};

/** The upload: source, file (and a mapping for other layouts), with the browser's upload progress. */
const UploadCard = ({ onDone }: { onDone: (u: StatementUpload) => void }) => {
  const [source, setSource] = useState<StatementSource>('mtn_momo');
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: () => {
      if (!file) throw new Error('Choose a CSV or xlsx file.');
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
      setError(errorMessage(e, 'The upload failed.'));
    },
  });
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        Upload a statement
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label="Source"
          value={source}
          onChange={(e) => setSource(e.target.value as StatementSource)}
          sx={{ minWidth: 220 }}
        >
          {statementSources.map((s) => (
            <MenuItem key={s} value={s}>
              {statementSourceLabels[s]}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" component="label">
          {file ? file.name : 'Choose file'}
          <input
            hidden
            type="file"
            aria-label="Statement file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Button>
        <Button variant="contained" disabled={!file || upload.isPending} onClick={() => upload.mutate()}>
          Upload
        </Button>
      </Stack>
      {source === 'custom' && (
        <TextField
          label="Mapping (JSON)"
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
            aria-label="Upload progress"
          />
          <Typography variant="caption">
            {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Matching the lines…'}
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

export const deleteStatementText = (fileName: string) =>
  `Delete statement ${fileName}? The payments its lines made are voided (their receipts say so), its lines are removed, and the file can be uploaded again.`;

/** The statements with their totals: received, matched, posted; company admins may delete one. */
const StatementsTable = () => {
  const money = useMoney();
  const { user } = useSession();
  const { showSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const statements = useQuery(statementsQuery({ page: 0, pageSize: 5 }));
  const [toDelete, setToDelete] = useState<{ id: number; file_name: string } | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => deleteStatement(id),
    onSuccess: async (done) => {
      showSnackbar({
        message: `Statement deleted: ${done.lines_removed} lines removed, ${done.payments_voided.length} payments voided.`,
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
        message: errorMessage(e, 'The statement could not be deleted.'),
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
      text={toDelete ? deleteStatementText(toDelete.file_name) : ''}
      busy={remove.isPending}
      onCancel={() => setToDelete(null)}
      onConfirm={() => toDelete && remove.mutate(toDelete.id)}
    />
  );
  const linesOf = (s: (typeof rows)[number]) =>
    `${s.new_lines}${s.duplicate_lines > 0 ? ` (+${s.duplicate_lines} seen)` : ''}`;
  const deleteOf = (s: (typeof rows)[number]) => (
    <RowAction
      label={`Delete statement ${s.file_name}`}
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
          aria-label="Statements"
          sx={{ listStyle: 'none', m: 0, p: 1, display: 'grid', gap: 1 }}
        >
          {rows.map((s) => (
            <RowCard
              key={s.id}
              titleLabel="Statement"
              title={s.file_name}
              fields={[
                {
                  label: 'Source',
                  value: `${statementSourceLabels[s.source]} · ${formatDate(s.created_at)}`,
                },
                { label: 'Lines', value: linesOf(s) },
                { label: 'Received', value: money(s.received) },
                { label: 'Matched', value: money(s.matched) },
                { label: 'Posted', value: money(s.posted) },
                { label: 'Open', value: s.open_lines },
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
      <Table size="small" aria-label="Statements">
        <TableHead>
          <TableRow>
            {['Statement', 'Lines', 'Received', 'Matched', 'Posted', 'Open', ...(mayDelete ? [''] : [])].map(
              (h, i) => (
                <TableCell
                  key={h}
                  align={i === 0 ? 'left' : 'right'}
                  sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                >
                  {h}
                </TableCell>
              ),
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((s) => (
            <TableRow key={s.id}>
              <TableCell sx={{ minWidth: 140 }}>
                {s.file_name}
                <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
                  {statementSourceLabels[s.source]} · {formatDate(s.created_at)}
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
      noOptionsText="No lease matches."
    />
  );
};

let nextKey = 1;

/** Match by hand: one lease or several (a split), the amounts adding up to the line. */
const MatchDialog = ({ line, onClose }: { line: StatementLine; onClose: (done: boolean) => void }) => {
  const money = useMoney();
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
    onError: (e) => setError(errorMessage(e, 'Could not match the line.')),
  });
  const set = (key: number, patch: Partial<Allocation>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="sm">
      <DialogTitle>Match {money(line.amount)}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {formatDate(line.date)} · {line.payer_name ?? line.payer_phone ?? 'Unknown payer'}
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
                  label={`Lease ${i + 1}`}
                  value={r.lease}
                  onChange={(lease) => set(r.key, { lease })}
                />
              </Box>
              <Stack direction="row" spacing={1} sx={{ flex: 1, alignItems: 'center' }}>
                <TextField
                  size="small"
                  label="Amount"
                  type="number"
                  value={r.amount}
                  onChange={(e) => set(r.key, { amount: e.target.value })}
                  fullWidth
                />
                {rows.length > 1 && (
                  <IconButton
                    aria-label={`Remove lease ${i + 1}`}
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
              Split across another lease
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
                {`Split across ${line.tenant_name ?? 'the tenant'}'s ${theirs.length} leases`}
              </Button>
            )}
          </Stack>
          <Typography variant="body2" sx={{ color: total === target ? 'success.main' : 'error.main' }}>
            Allocated {money(total / 100)} of {money(line.amount)}
          </Typography>
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>Cancel</Button>
        <Button
          variant="contained"
          disabled={save.isPending || total !== target || rows.some((r) => !r.lease)}
          onClick={() => save.mutate()}
        >
          Match
        </Button>
      </DialogActions>
    </Dialog>
  );
};

const IgnoreDialog = ({ line, onClose }: { line: StatementLine; onClose: (done: boolean) => void }) => {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => ignoreLine(line.id, reason),
    onSuccess: () => onClose(true),
    onError: (e) => setError(errorMessage(e, 'Could not ignore the line.')),
  });
  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="xs">
      <DialogTitle>Ignore this line</DialogTitle>
      <DialogContent dividers>
        <TextField
          autoFocus
          label="Reason"
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
        <Button onClick={() => onClose(false)}>Cancel</Button>
        <Button variant="contained" disabled={!reason.trim() || save.isPending} onClick={() => save.mutate()}>
          Ignore
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
  const { user } = useSession();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const listState = useListState({ resetPageOnSort: true });
  const [status, setStatus] = useState<StatementLineStatus | ''>('');
  const [matching, setMatching] = useState<StatementLine | null>(null);
  const [ignoring, setIgnoring] = useState<StatementLine | null>(null);
  const [result, setResult] = useState<StatementUpload | null>(null);
  const lines = useQuery(linesQuery(listState.params, status));
  const loadError = lines.isError ? errorMessage(lines.error, 'Failed to load the lines.') : null;
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
            ? `Matched: payment made for ${line.tenant_name ?? 'the lease'}.`
            : 'Unmatched: its payments were voided.',
        severity: 'success',
      });
      refresh();
    },
    onError: (e) =>
      showSnackbar({ message: errorMessage(e, 'Could not change the line.'), severity: 'error' }),
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
    <Chip size="small" label={line.status} color={statusChip[line.status]} />
  );
  const leaseOf = (line: StatementLine) => (
    <>
      {line.tenant_name
        ? `${line.tenant_name}${line.unit_name ? ` · ${line.unit_name}` : ' (several leases)'}`
        : '—'}
      {line.status === 'suggested' && caption(`${line.confidence}% sure`)}
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
          label={`Accept: ${line.tenant_name ?? ''} · ${line.unit_name ?? ''}`}
          icon={<Check fontSize="small" />}
          onClick={() => act.mutate({ line, kind: 'accept' })}
        />
      )}
      {(line.status === 'suggested' || line.status === 'unmatched') && (
        <>
          <RowAction
            label="Match by hand"
            icon={<LinkIcon fontSize="small" />}
            onClick={() => setMatching(line)}
          />
          <RowAction
            label="Ignore"
            icon={<DeleteOutline fontSize="small" />}
            onClick={() => setIgnoring(line)}
          />
        </>
      )}
      {line.status === 'matched' && isAdmin(user) && (
        <RowAction
          label="Unmatch (voids its payments)"
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
          Collections
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          Mobile-money and bank statements matched to tenants. Each transaction is kept once: overlapping
          statements can be uploaded freely.
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
          {`${result.lines} lines read: ${result.new_lines} new, ${result.duplicate_lines} seen before; ${result.matched} matched, ${result.suggested} suggested, ${result.unmatched} unmatched.`}
        </Alert>
      )}
      <StatementsTable />

      <ListToolbar
        label="Search lines (payer, reference, tenant, unit)"
        value={listState.search}
        onChange={listState.setSearch}
      >
        <TextField
          select
          size="small"
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as StatementLineStatus | '');
            listState.setPage(0);
          }}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="">Open first (all)</MenuItem>
          {statementLineStatuses.map((s) => (
            <MenuItem key={s} value={s}>
              {s[0]?.toUpperCase()}
              {s.slice(1)}
            </MenuItem>
          ))}
        </TextField>
      </ListToolbar>

      <ListTable
        label="Statement lines"
        list={listState}
        query={lines}
        emptyText={loadError ?? 'No money received yet: upload a statement.'}
        columns={lineColumns}
        cards={rows.map((line) => (
          <RowCard
            key={line.id}
            titleLabel="Amount"
            title={`${amountOf(line)} · ${formatDate(line.date)}`}
            fields={[
              { label: 'Payer', value: payerOf(line) },
              { label: 'Reference', value: referenceOf(line) },
              { label: 'Status', value: statusOf(line) },
              { label: 'Lease', value: leaseOf(line) },
            ]}
            actions={actionsOf(line)}
          />
        ))}
      >
        {rows.map((line) => (
          <TableRow key={line.id} hover>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(line.date)}</TableCell>
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
