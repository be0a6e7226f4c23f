import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatMoney, outsideBalance } from '@kodi/domain';
import { errorMessage } from '../../lib/api-client.ts';
import { downloadFile, useCompanyMoney } from '../../lib/resources.ts';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { HeadCell } from '../../components/ui/head-cell.tsx';
import { PdfButton } from '../../components/ui/pdf-button.tsx';
import { ledgerQuery } from './arrears-queries.ts';

/** 'Balance due', 'Credit' or 'Settled', with the amount. */
export const balanceText = (balance: number, money: (n: number) => string): string =>
  balance > 0 ? `Balance due ${money(balance)}` : balance < 0 ? `Credit ${money(-balance)}` : 'Settled';

/**
 * The 'Ledger' of a lease in its details dialog: rent charges, late fees and other charges and their
 * waivers, completed payments, the deposit and its settlement, with the running balance (computed on
 * the server by the domain's ledger rules), and the tenant statement as a PDF.
 */
export const LedgerSection = ({ occupancyId }: { occupancyId: number }) => {
  const headingId = useId();
  const company = useCompanyMoney();
  const money = (n: number) => formatMoney(n, company.currency, company.decimals);
  const { showSnackbar } = useSnackbar();
  const [downloading, setDownloading] = useState(false);
  const query = useQuery(ledgerQuery(occupancyId));

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(`/occupancy/${occupancyId}/statement.pdf`, `statement_${occupancyId}.pdf`);
    } catch (e) {
      showSnackbar({ message: errorMessage(e, 'The statement could not be downloaded.'), severity: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  const ledger = query.data;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id={headingId} variant="h6" component="h3">
          Ledger
        </Typography>
        {ledger && (
          <Chip
            label={balanceText(ledger.balance, money)}
            color={ledger.balance > 0 ? 'warning' : ledger.balance < 0 ? 'info' : 'success'}
            size="small"
            data-testid="ledger-balance"
          />
        )}
        <Box sx={{ flexGrow: 1 }} />
        <PdfButton size="small" variant="outlined" busy={downloading} onClick={() => void download()}>
          Download statement
        </PdfButton>
      </Stack>
      {query.isPending ? (
        <Box role="status" sx={{ display: 'flex', gap: 1.5, alignItems: 'center', py: 2 }}>
          <CircularProgress size={20} aria-hidden="true" />
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            Loading ... Please wait
          </Typography>
        </Box>
      ) : query.isError || !ledger ? (
        <Alert severity="error">{errorMessage(query.error, 'Failed to load the ledger.')}</Alert>
      ) : ledger.entries.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', py: 1 }}>
          No rent has fallen due and no payment has been recorded yet.
        </Typography>
      ) : (
        <>
          <TableContainer sx={{ maxHeight: 320, border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Table size="small" stickyHeader aria-labelledby={headingId}>
              <TableHead>
                <TableRow>
                  <HeadCell>Date</HeadCell>
                  <HeadCell>Description</HeadCell>
                  <HeadCell align="right">Amount</HeadCell>
                  <HeadCell align="right">Balance</HeadCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {ledger.entries.map((e, i) => {
                  const deposit = outsideBalance.has(e.kind);
                  return (
                    <TableRow
                      key={`${e.date}-${e.kind}-${i}`}
                      data-kind={e.kind}
                      sx={deposit ? { '& td': { color: 'text.secondary', fontStyle: 'italic' } } : undefined}
                    >
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(e.date)}</TableCell>
                      <TableCell>
                        {e.description}
                        {deposit && ' (not part of the balance)'}
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {money(e.amount)}
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {deposit ? '' : money(e.balance)}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
          <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.5 }}>
            As of {formatDate(ledger.as_of)}. Each rent period is charged in full on its first day, at the
            rate in force that day; payments pay the oldest charges first, late fees and other charges
            included.
          </Typography>
        </>
      )}
    </Box>
  );
};
