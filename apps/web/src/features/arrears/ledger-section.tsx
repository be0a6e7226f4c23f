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
import { useT, type Translate } from '../../lib/i18n.ts';
import { useTexts } from '../../lib/texts.ts';

/** 'Balance due', 'Credit' or 'Settled', with the amount. */
export const balanceText = (balance: number, money: (n: number) => string, t: Translate): string =>
  balance > 0
    ? t('lease.balanceDue', { amount: money(balance) })
    : balance < 0
      ? t('lease.credit', { amount: money(-balance) })
      : t('lease.settledBalance');

/**
 * The 'Ledger' of a lease in its details dialog: rent charges, late fees and other charges and their
 * waivers, completed payments, the deposit and its settlement, with the running balance (computed on
 * the server by the domain's ledger rules), and the tenant statement as a PDF.
 */
export const LedgerSection = ({ occupancyId }: { occupancyId: number }) => {
  const headingId = useId();
  useTexts('entity'); // shown on the leases' page and the arrears page
  const { t, language } = useT();
  const company = useCompanyMoney();
  const money = (n: number) => formatMoney(n, company.currency, company.decimals, language);
  const { showSnackbar } = useSnackbar();
  const [downloading, setDownloading] = useState(false);
  const query = useQuery(ledgerQuery(occupancyId));

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(`/occupancy/${occupancyId}/statement.pdf`, `statement_${occupancyId}.pdf`);
    } catch (e) {
      showSnackbar({ message: errorMessage(e, t('lease.statementFailed')), severity: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  const ledger = query.data;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id={headingId} variant="h6" component="h3">
          {t('lease.ledger')}
        </Typography>
        {ledger && (
          <Chip
            label={balanceText(ledger.balance, money, t)}
            color={ledger.balance > 0 ? 'warning' : ledger.balance < 0 ? 'info' : 'success'}
            size="small"
            data-testid="ledger-balance"
          />
        )}
        <Box sx={{ flexGrow: 1 }} />
        <PdfButton size="small" variant="outlined" busy={downloading} onClick={() => void download()}>
          {t('lease.downloadStatement')}
        </PdfButton>
      </Stack>
      {query.isPending ? (
        <Box role="status" sx={{ display: 'flex', gap: 1.5, alignItems: 'center', py: 2 }}>
          <CircularProgress size={20} aria-hidden="true" />
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('lease.loading')}
          </Typography>
        </Box>
      ) : query.isError || !ledger ? (
        <Alert severity="error">{errorMessage(query.error, t('lease.ledgerLoadFailed'))}</Alert>
      ) : ledger.entries.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', py: 1 }}>
          {t('lease.ledgerEmpty')}
        </Typography>
      ) : (
        <>
          <TableContainer sx={{ maxHeight: 320, border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Table size="small" stickyHeader aria-labelledby={headingId}>
              <TableHead>
                <TableRow>
                  <HeadCell>{t('lease.date')}</HeadCell>
                  <HeadCell>{t('lease.description')}</HeadCell>
                  <HeadCell align="right">{t('lease.amount')}</HeadCell>
                  <HeadCell align="right">{t('lease.balance')}</HeadCell>
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
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(e.date, language)}</TableCell>
                      <TableCell>
                        {e.description}
                        {deposit && ` ${t('lease.notInBalance')}`}
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
            {t('lease.ledgerNote', { date: formatDate(ledger.as_of, language) })}
          </Typography>
        </>
      )}
    </Box>
  );
};
