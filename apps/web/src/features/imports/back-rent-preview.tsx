import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatDate, formatMoney, formatNumber, type ImportBackRent } from '@kodi/domain';
import { useCompanyMoney } from '../../lib/resources.ts';
import { useT } from '../../lib/i18n.ts';

/**
 * What an import of leases charges as back rent (issue 25), before the user commits: the total, and
 * the leases concerned (their row, external_ref, tenant, unit, start, charges and total).
 */
export const BackRentPreview = ({ backRent }: { backRent: ImportBackRent }) => {
  const money = useCompanyMoney();
  const { td, language } = useT();
  const fmt = (n: number) => formatMoney(n, money.currency, money.decimals, language);
  const { leases, charges, total, rows } = backRent;
  // the page's language (issue 30); until its catalogue is in, the English as it always was
  const english =
    `${formatNumber(leases)} ${leases === 1 ? 'lease starts' : 'leases start'} in the past: ` +
    `${formatNumber(charges)} rent ${charges === 1 ? 'charge' : 'charges'} (${fmt(total)}) will be posted. Set ` +
    'an opening balance (and its date) for the leases where some was paid.';
  return (
    <>
      <Alert severity="warning" data-testid="import-back-rent">
        {td('domainTexts.importBackRent', english, { leases, charges, total: fmt(total) })}
      </Alert>
      <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
        <Table size="small" aria-label={td('domainTexts.importBackRentLabel', 'Back rent')}>
          <TableHead>
            <TableRow>
              <TableCell>{td('domainTexts.importRow', 'Row')}</TableCell>
              <TableCell>{td('domainTexts.importExternalRef', 'External Ref')}</TableCell>
              <TableCell>{td('domainTexts.importTenant', 'Tenant')}</TableCell>
              <TableCell>{td('domainTexts.importUnit', 'Unit')}</TableCell>
              <TableCell>{td('domainTexts.importStartDate', 'Start Date')}</TableCell>
              <TableCell align="right">{td('domainTexts.importCharges', 'Rent charges')}</TableCell>
              <TableCell align="right">{td('domainTexts.importTotal', 'Total')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.row}>
                <TableCell>{r.row}</TableCell>
                <TableCell>{r.external_ref ?? ''}</TableCell>
                <TableCell>{r.tenant}</TableCell>
                <TableCell>{r.unit}</TableCell>
                <TableCell>{formatDate(r.start_date, language)}</TableCell>
                <TableCell align="right">{formatNumber(r.charges, 0, language)}</TableCell>
                <TableCell align="right">{fmt(r.total)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </>
  );
};
