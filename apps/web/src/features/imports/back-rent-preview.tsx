import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatDate, formatMoney, formatNumber, type ImportBackRent } from '@kodi/domain';
import { useCompanyMoney } from '../../lib/resources.ts';

/**
 * What an import of leases charges as back rent (issue 25), before the user commits: the total, and
 * the leases concerned (their row, external_ref, tenant, unit, start, charges and total).
 */
export const BackRentPreview = ({ backRent }: { backRent: ImportBackRent }) => {
  const money = useCompanyMoney();
  const fmt = (n: number) => formatMoney(n, money.currency, money.decimals);
  const { leases, charges, total, rows } = backRent;
  return (
    <>
      <Alert severity="warning" data-testid="import-back-rent">
        {formatNumber(leases)} {leases === 1 ? 'lease starts' : 'leases start'} in the past:{' '}
        {formatNumber(charges)} rent {charges === 1 ? 'charge' : 'charges'} ({fmt(total)}) will be posted. Set
        an opening balance (and its date) for the leases where some was paid.
      </Alert>
      <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
        <Table size="small" aria-label="Back rent">
          <TableHead>
            <TableRow>
              <TableCell>Row</TableCell>
              <TableCell>External Ref</TableCell>
              <TableCell>Tenant</TableCell>
              <TableCell>Unit</TableCell>
              <TableCell>Start Date</TableCell>
              <TableCell align="right">Rent charges</TableCell>
              <TableCell align="right">Total</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.row}>
                <TableCell>{r.row}</TableCell>
                <TableCell>{r.external_ref ?? ''}</TableCell>
                <TableCell>{r.tenant}</TableCell>
                <TableCell>{r.unit}</TableCell>
                <TableCell>{formatDate(r.start_date)}</TableCell>
                <TableCell align="right">{formatNumber(r.charges)}</TableCell>
                <TableCell align="right">{fmt(r.total)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </>
  );
};
