import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import { useQuery } from '@tanstack/react-query';
import {
  arrearsColumns,
  arrearsSortFields,
  formatDate,
  formatMoney,
  formatNumber,
  todayIso,
  type ArrearsRow,
  type Column,
} from '@kodi/domain';
import { ExportMenu } from '../../components/resource/export-menu.tsx';
import { useErrorSnackbar } from '../../components/snackbar-provider.tsx';
import { ListTable, RowAction, type ListColumn } from '../../components/ui/list-table.tsx';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { PropertyFilter } from '../../components/property-filter.tsx';
import { useSelectedProperty } from '../../lib/property-filter.ts';
import { useListState } from '../../components/ui/use-list-state.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { arrearsQuery, arrearsSummaryQuery } from './arrears-queries.ts';
import { LedgerSection } from './ledger-section.tsx';

const LOAD_FAILED = 'Failed to load arrears.';

const sortable = (col: Column) =>
  col.sortable && (arrearsSortFields as readonly string[]).includes(col.field);

const exportHeaders = arrearsColumns.map((c) => c.label);

const listColumns: ListColumn[] = arrearsColumns.map((col) => ({
  key: col.field,
  label: col.label,
  sortField: sortable(col) ? col.field : undefined,
  align: col.kind === 'money' ? 'right' : 'left',
}));

/**
 * 'Arrears' (Finance, admins and editors): every lease with an overdue balance, its unpaid charges
 * by how long they have been overdue, and its last payment. Searched, sorted and paged on the server;
 * a row opens the lease's ledger.
 */
export const ArrearsPage = () => {
  const company = useCompanyMoney();
  const money = (n: number | null) => (n === null ? '—' : formatMoney(n, company.currency, company.decimals));
  const listState = useListState({ resetPageOnSort: true });
  const { q, sort, setPage } = listState;
  const [ledgerOf, setLedgerOf] = useState<ArrearsRow | null>(null);
  const { propertyId } = useSelectedProperty();
  useEffect(() => setPage(0), [propertyId, setPage]);

  const list = useQuery(arrearsQuery({ ...listState.params, propertyId: propertyId ?? undefined }));
  const summary = useQuery(arrearsSummaryQuery(propertyId));
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? errorMessage(list.error, LOAD_FAILED) : null;

  useErrorSnackbar(loadError);

  const cell = (row: ArrearsRow, col: Column) => {
    const value = row[col.field as keyof ArrearsRow];
    if (col.kind === 'money') return money(value as number | null);
    if (col.kind === 'date') return value ? formatDate(String(value)) : '—';
    return String(value ?? '');
  };

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
            ` Total overdue: ${money(summary.data.total)} on ${formatNumber(summary.data.leases)} ${
              summary.data.leases === 1 ? 'lease' : 'leases'
            }.`}
        </Typography>
      </Box>

      <ListToolbar
        label="Search Arrears (Tenant, Unit)"
        value={listState.search}
        onChange={listState.setSearch}
      >
        <PropertyFilter />
        <ExportMenu
          path="arrears"
          headers={exportHeaders}
          q={q}
          sort={sort}
          more={{ property_id: propertyId ?? undefined }}
          errorText={(e) => errorMessage(e, 'The export failed.')}
        />
      </ListToolbar>

      <ListTable
        label="Arrears"
        list={listState}
        query={list}
        emptyText={loadError ?? (q ? 'No leases in arrears match your search.' : 'No leases in arrears.')}
        columns={listColumns}
      >
        {rows.map((row) => (
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
              <RowAction
                label="View ledger"
                icon={<ReceiptLong fontSize="small" />}
                onClick={() => setLedgerOf(row)}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>

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
