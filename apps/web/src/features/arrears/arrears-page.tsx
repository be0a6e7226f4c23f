import { useEffect, useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FileDownload from '@mui/icons-material/FileDownload';
import GridOn from '@mui/icons-material/GridOn';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Search from '@mui/icons-material/Search';
import { useQuery } from '@tanstack/react-query';
import {
  arrearsColumns,
  arrearsSortFields,
  formatDate,
  formatMoney,
  todayIso,
  type ArrearsRow,
  type Column,
} from '@kodi/domain';
import { errorMessage } from '../../lib/api-client.ts';
import { exportList, useCompanyMoney, type ExportFormat } from '../../lib/resources.ts';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { useDebounced } from '../../components/resource/use-debounced.ts';
import { arrearsQuery, arrearsSummaryQuery } from './arrears-queries.ts';
import { LedgerSection } from './ledger-section.tsx';

const PAGE_SIZES = [10, 25, 50, 100];
const SEARCH_DEBOUNCE_MS = 300;
const LOAD_FAILED = 'Failed to load arrears.';

const sortable = (col: Column) =>
  col.sortable && (arrearsSortFields as readonly string[]).includes(col.field);

/** Export: 'Excel (xlsx)' or 'PDF' of the report (`GET /arrears/export`), in the order shown. */
const ArrearsExportMenu = ({ q, sort }: { q: string; sort: string | undefined }) => {
  const id = useId();
  const { showSnackbar } = useSnackbar();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fmt: ExportFormat) => {
    setAnchor(null);
    setBusy(true);
    try {
      await exportList(
        'arrears',
        fmt,
        arrearsColumns.map((c) => c.label),
        q,
        sort,
      );
    } catch (e) {
      showSnackbar({ message: errorMessage(e, 'The export failed.'), severity: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        id={`${id}-button`}
        variant="outlined"
        startIcon={<FileDownload />}
        aria-haspopup="menu"
        aria-controls={anchor ? `${id}-menu` : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        loading={busy}
        loadingPosition="start"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        Export
      </Button>
      <Menu
        id={`${id}-menu`}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': `${id}-button` } }}
      >
        <MenuItem onClick={() => void run('xlsx')}>
          <ListItemIcon>
            <GridOn fontSize="small" />
          </ListItemIcon>
          <ListItemText>Excel (xlsx)</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => void run('pdf')}>
          <ListItemIcon>
            <PictureAsPdf fontSize="small" />
          </ListItemIcon>
          <ListItemText>PDF</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
};

/**
 * 'Arrears' (Finance, admins and editors): every lease with an overdue balance, its unpaid charges
 * by how long they have been overdue, and its last payment. Searched, sorted and paged on the server;
 * a row opens the lease's ledger.
 */
export const ArrearsPage = () => {
  const company = useCompanyMoney();
  const money = (n: number | null) => (n === null ? '—' : formatMoney(n, company.currency, company.decimals));
  const { showSnackbar } = useSnackbar();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState<string | undefined>(undefined);
  const [ledgerOf, setLedgerOf] = useState<ArrearsRow | null>(null);

  useEffect(() => setPage(0), [q, sort]);

  const list = useQuery(arrearsQuery({ page, pageSize, q: q || undefined, sort }));
  const summary = useQuery(arrearsSummaryQuery());
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const loadError = list.isError ? errorMessage(list.error, LOAD_FAILED) : null;

  useEffect(() => {
    if (loadError) showSnackbar({ message: loadError, severity: 'error' });
  }, [loadError, showSnackbar]);

  const toggleSort = (field: string) =>
    setSort((current) => (current === field ? `-${field}` : current === `-${field}` ? undefined : field));

  const cell = (row: ArrearsRow, col: Column) => {
    const value = row[col.field as keyof ArrearsRow];
    if (col.kind === 'money') return money(value as number | null);
    if (col.kind === 'date') return value ? formatDate(String(value)) : '—';
    return String(value ?? '');
  };

  const columnCount = arrearsColumns.length + 1;
  const bodyMessage = (text: string, status = false) => (
    <TableRow>
      <TableCell colSpan={columnCount} align="center" sx={{ py: 4, color: 'text.secondary' }}>
        <span role={status ? 'status' : undefined}>{text}</span>
      </TableCell>
    </TableRow>
  );

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          Arrears
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          Leases with rent overdue on {formatDate(todayIso())}, by how long each unpaid charge has been
          overdue.
          {summary.data &&
            ` Total overdue: ${money(summary.data.total)} on ${summary.data.leases} ${
              summary.data.leases === 1 ? 'lease' : 'leases'
            }.`}
        </Typography>
      </Box>

      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <TextField
          label="Search Arrears (Tenant, Unit)"
          type="search"
          size="small"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          sx={{ flexGrow: 1, maxWidth: { sm: 480 } }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Box sx={{ flexGrow: 1 }} />
        <ArrearsExportMenu q={q} sort={sort} />
      </Stack>

      <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
        <Box sx={{ height: 4 }}>{list.isFetching && <LinearProgress aria-hidden="true" />}</Box>
        <TableContainer>
          <Table size="small" aria-label="Arrears">
            <TableHead>
              <TableRow>
                {arrearsColumns.map((col) => {
                  const active = sort === col.field || sort === `-${col.field}`;
                  const direction = sort === `-${col.field}` ? 'desc' : 'asc';
                  return (
                    <TableCell
                      key={col.field}
                      sortDirection={active ? direction : false}
                      align={col.kind === 'money' ? 'right' : 'left'}
                      sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                    >
                      {sortable(col) ? (
                        <TableSortLabel
                          active={active}
                          direction={direction}
                          onClick={() => toggleSort(col.field)}
                        >
                          {col.label}
                        </TableSortLabel>
                      ) : (
                        col.label
                      )}
                    </TableCell>
                  );
                })}
                <TableCell align="right" sx={{ fontWeight: 600 }}>
                  Actions
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.isPending
                ? bodyMessage('Fetching data...', true)
                : rows.length === 0
                  ? bodyMessage(
                      loadError ?? (q ? 'No leases in arrears match your search.' : 'No leases in arrears.'),
                    )
                  : rows.map((row) => (
                      <TableRow key={row.occupancy_id} hover>
                        {arrearsColumns.map((col) => (
                          <TableCell
                            key={col.field}
                            align={col.kind === 'money' ? 'right' : 'left'}
                            sx={{
                              whiteSpace: col.kind ? 'nowrap' : undefined,
                              minWidth: col.kind ? undefined : 140,
                              fontWeight: col.field === 'balance' ? 600 : undefined,
                            }}
                          >
                            {cell(row, col)}
                          </TableCell>
                        ))}
                        <TableCell align="right">
                          <Tooltip title="View ledger">
                            <IconButton
                              size="small"
                              aria-label="View ledger"
                              onClick={() => setLedgerOf(row)}
                            >
                              <ReceiptLong fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        </TableCell>
                      </TableRow>
                    ))}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={total}
          page={total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / pageSize) - 1))}
          rowsPerPage={pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_e, p) => setPage(p)}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
        />
      </Paper>

      <Dialog
        open={ledgerOf !== null}
        onClose={() => setLedgerOf(null)}
        maxWidth="md"
        fullWidth
        scroll="paper"
      >
        <DialogTitle>
          {ledgerOf ? `Ledger: ${ledgerOf.tenant_name} · ${ledgerOf.unit_name}` : 'Ledger'}
        </DialogTitle>
        <DialogContent dividers sx={{ pt: 0 }}>
          {ledgerOf && <LedgerSection occupancyId={ledgerOf.occupancy_id} />}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setLedgerOf(null)}>Close</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};
