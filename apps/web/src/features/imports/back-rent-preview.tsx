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
  const { t, language } = useT();
  const fmt = (n: number) => formatMoney(n, money.currency, money.decimals, language);
  const { leases, charges, total, rows } = backRent;
  return (
    <>
      <Alert severity="warning" data-testid="import-back-rent">
        {t('imports.backRent', { leases, charges, total: fmt(total) })}
      </Alert>
      <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
        <Table size="small" aria-label={t('imports.backRentTable')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('imports.row')}</TableCell>
              <TableCell>{t('imports.externalRef')}</TableCell>
              <TableCell>{t('imports.tenant')}</TableCell>
              <TableCell>{t('imports.unit')}</TableCell>
              <TableCell>{t('imports.startDate')}</TableCell>
              <TableCell align="right">{t('imports.rentCharges')}</TableCell>
              <TableCell align="right">{t('imports.total')}</TableCell>
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
