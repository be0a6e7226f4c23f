import { useState, type ReactNode } from 'react';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatDate, formatNumber, localDayIso } from '@kodi/domain';
import { useT } from '../../lib/i18n.ts';
import { useAccountLabel } from '../../lib/account-label.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { ExportButtons } from '../../components/export-buttons.tsx';
import {
  LEDGER_PAGE,
  balanceSheetQuery,
  dayParams,
  generalLedgerQuery,
  ledgerAccountsQuery,
  ledgerParams,
  trialBalanceQuery,
  type BalanceSheetLine,
  type DayScope,
} from './report-queries.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The balance sheet's computed equity lines as the server names them (features/reports/books-reports.ts). */
const EARLIER_YEARS = "Earlier years' result";
const YEAR_RESULT = "The year's result";

export const Loading = () => {
  const { t } = useT();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 2 }}>
      <CircularProgress size={20} />
      <Typography>{t('reports.fetching')}</Typography>
    </Stack>
  );
};

export const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
export const bold = { fontWeight: 700 } as const;

/** A report's card: its title, its inputs and exports, then its body. */
export const ReportCard = ({
  title,
  inputs,
  exports,
  children,
}: {
  title: string;
  inputs: ReactNode;
  exports: ReactNode;
  children: ReactNode;
}) => (
  <Card>
    <CardContent>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Typography variant="h5" component="h2">
          {title}
        </Typography>
        {exports}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        {inputs}
      </Stack>
      {children}
    </CardContent>
  </Card>
);

const DayField = ({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
}) => (
  <TextField
    label={label}
    type="date"
    size="small"
    value={value}
    onChange={(e) => onChange(e.target.value)}
    slotProps={{ inputLabel: { shrink: true } }}
    error={!DAY.test(value)}
  />
);

/**
 * A report as of a day (the trial balance, the balance sheet): its card with the day and the exports,
 * then its answer, loading, failed or shown by `children`.
 */
const AsOfReport = <T, K extends QueryKey>({
  title,
  what,
  failed,
  path,
  filename,
  propertyId,
  query,
  children,
}: {
  title: string;
  /** 'the trial balance': the exports' label */
  what: string;
  /** 'Failed to load the trial balance.' */
  failed: string;
  path: string;
  filename: string;
  propertyId: number | null;
  query: (scope: DayScope) => UseQueryOptions<T, Error, T, K>;
  children: (data: T) => ReactNode;
}) => {
  const { t } = useT();
  const [asOf, setAsOf] = useState(localDayIso);
  const scope = { asOf, propertyId };
  const answer = useQuery({ ...query(scope), enabled: DAY.test(asOf) });
  return (
    <ReportCard
      title={title}
      inputs={<DayField label={t('reports.asOf')} value={asOf} onChange={setAsOf} />}
      exports={<ExportButtons path={path} params={dayParams(scope)} label={what} filename={filename} />}
    >
      {answer.isPending ? (
        <Loading />
      ) : answer.isError ? (
        <Alert severity="error">{errorMessage(answer.error, failed)}</Alert>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }}>{children(answer.data)}</TableContainer>
      )}
    </ReportCard>
  );
};

/** The trial balance: each account on its debit or credit side as of a day, and the equal totals. */
export const TrialBalanceReport = ({ propertyId }: { propertyId: number | null }) => {
  const decimals = useCompanyMoney().decimals ?? 2;
  const { t, language } = useT();
  const label = useAccountLabel();
  return (
    <AsOfReport
      title={t('reports.trialBalance')}
      what={t('reports.exportTrialBalance')}
      failed={t('reports.trialBalanceLoadFailed')}
      path="/reports/trial-balance"
      filename="trial-balance"
      propertyId={propertyId}
      query={trialBalanceQuery}
    >
      {(tb) => (
        <Table size="small" aria-label={t('reports.trialBalance')}>
          <TableHead>
            <TableRow>
              <TableCell sx={bold}>{t('reports.code')}</TableCell>
              <TableCell sx={bold}>{t('reports.account')}</TableCell>
              <TableCell sx={bold} align="right">
                {t('reports.debit')}
              </TableCell>
              <TableCell sx={bold} align="right">
                {t('reports.credit')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {tb.accounts.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>{t('reports.noBalance')}</TableCell>
              </TableRow>
            )}
            {tb.accounts.map((a) => (
              <TableRow key={a.id} hover>
                <TableCell>{a.code}</TableCell>
                <TableCell component="th" scope="row" sx={{ minWidth: 160 }}>
                  {label(a)}
                </TableCell>
                <TableCell align="right" sx={num}>
                  {Number(a.debit) === 0 ? '' : formatNumber(a.debit, decimals, language)}
                </TableCell>
                <TableCell align="right" sx={num}>
                  {Number(a.credit) === 0 ? '' : formatNumber(a.credit, decimals, language)}
                </TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell />
              <TableCell component="th" scope="row" sx={bold}>
                {t('reports.total')}
              </TableCell>
              <TableCell align="right" sx={{ ...num, ...bold }} data-testid="trial-balance-debit">
                {formatNumber(tb.total_debit, decimals, language)}
              </TableCell>
              <TableCell align="right" sx={{ ...num, ...bold }} data-testid="trial-balance-credit">
                {formatNumber(tb.total_credit, decimals, language)}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      )}
    </AsOfReport>
  );
};

/** An account's general ledger: opening balance, its lines with the running balance, closing balance. */
export const GeneralLedgerReport = ({ propertyId }: { propertyId: number | null }) => {
  const decimals = useCompanyMoney().decimals ?? 2;
  const { t, language } = useT();
  const label = useAccountLabel();
  const accounts = useQuery(ledgerAccountsQuery());
  const [accountId, setAccountId] = useState<number | null>(null);
  const [to, setTo] = useState(localDayIso);
  const [from, setFrom] = useState(() => `${localDayIso().slice(0, 4)}-01-01`);
  const [page, setPage] = useState(1);
  const chosen = accountId ?? accounts.data?.[0]?.id ?? null;
  const valid = DAY.test(from) && DAY.test(to) && from <= to;
  const scope = { accountId: chosen ?? 0, from, to, page, propertyId };
  const gl = useQuery({ ...generalLedgerQuery(scope), enabled: chosen !== null && valid });
  return (
    <ReportCard
      title={t('reports.generalLedger')}
      inputs={
        <>
          <TextField
            select
            label={t('reports.account')}
            size="small"
            value={chosen ?? ''}
            onChange={(e) => {
              setAccountId(Number(e.target.value));
              setPage(1);
            }}
            sx={{ minWidth: 240 }}
          >
            {(accounts.data ?? []).map((a) => (
              <MenuItem key={a.id} value={a.id}>
                {a.code} {label(a)}
              </MenuItem>
            ))}
          </TextField>
          <DayField label={t('reports.fromDay')} value={from} onChange={(v) => (setFrom(v), setPage(1))} />
          <DayField label={t('reports.toDay')} value={to} onChange={(v) => (setTo(v), setPage(1))} />
        </>
      }
      exports={
        chosen === null ? null : (
          <ExportButtons
            path="/reports/general-ledger"
            params={ledgerParams(scope)}
            label={t('reports.exportGeneralLedger')}
            filename="general-ledger"
          />
        )
      }
    >
      {!valid ? (
        <Alert severity="warning">{t('reports.dayOrder')}</Alert>
      ) : accounts.isError ? (
        <Alert severity="error">{errorMessage(accounts.error, t('reports.accountsLoadFailed'))}</Alert>
      ) : gl.isPending ? (
        <Loading />
      ) : gl.isError ? (
        <Alert severity="error">{errorMessage(gl.error, t('reports.generalLedgerLoadFailed'))}</Alert>
      ) : (
        <>
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={t('reports.generalLedger')}>
              <TableHead>
                <TableRow>
                  <TableCell sx={bold}>{t('reports.date')}</TableCell>
                  <TableCell sx={bold}>{t('reports.memo')}</TableCell>
                  <TableCell sx={bold} align="right">
                    {t('reports.debit')}
                  </TableCell>
                  <TableCell sx={bold} align="right">
                    {t('reports.credit')}
                  </TableCell>
                  <TableCell sx={bold} align="right">
                    {t('reports.balance')}
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                <TableRow>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(gl.data.from, language)}</TableCell>
                  <TableCell component="th" scope="row" sx={bold}>
                    {t('reports.openingBalance')}
                  </TableCell>
                  <TableCell />
                  <TableCell />
                  <TableCell align="right" sx={{ ...num, ...bold }}>
                    {formatNumber(gl.data.opening_balance, decimals, language)}
                  </TableCell>
                </TableRow>
                {gl.data.lines.map((l) => (
                  <TableRow key={l.line_id} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(l.date, language)}</TableCell>
                    <TableCell sx={{ minWidth: 200 }}>{l.memo}</TableCell>
                    <TableCell align="right" sx={num}>
                      {Number(l.debit) === 0 ? '' : formatNumber(l.debit, decimals, language)}
                    </TableCell>
                    <TableCell align="right" sx={num}>
                      {Number(l.credit) === 0 ? '' : formatNumber(l.credit, decimals, language)}
                    </TableCell>
                    <TableCell align="right" sx={num}>
                      {formatNumber(l.balance, decimals, language)}
                    </TableCell>
                  </TableRow>
                ))}
                <TableRow>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(gl.data.to, language)}</TableCell>
                  <TableCell component="th" scope="row" sx={bold}>
                    {t('reports.closingBalance')}
                  </TableCell>
                  <TableCell align="right" sx={{ ...num, ...bold }}>
                    {formatNumber(gl.data.total_debit, decimals, language)}
                  </TableCell>
                  <TableCell align="right" sx={{ ...num, ...bold }}>
                    {formatNumber(gl.data.total_credit, decimals, language)}
                  </TableCell>
                  <TableCell align="right" sx={{ ...num, ...bold }}>
                    {formatNumber(gl.data.closing_balance, decimals, language)}
                  </TableCell>
                </TableRow>
              </TableBody>
            </Table>
          </TableContainer>
          {gl.data.total > LEDGER_PAGE && (
            <Pagination
              sx={{ mt: 2 }}
              count={Math.ceil(gl.data.total / LEDGER_PAGE)}
              page={page}
              onChange={(_, p) => setPage(p)}
            />
          )}
        </>
      )}
    </ReportCard>
  );
};

const SheetSection = ({
  title,
  totalTitle,
  lines,
  total,
  decimals,
}: {
  title: string;
  /** 'Total assets' */
  totalTitle: string;
  lines: BalanceSheetLine[];
  total: string;
  decimals: number;
}) => {
  const { t, language } = useT();
  const label = useAccountLabel();
  // the computed lines of the equity (an id of none): the server's English, in the page's language
  const lineName = (l: BalanceSheetLine) =>
    l.id !== null
      ? label(l)
      : l.name === EARLIER_YEARS
        ? t('reports.earlierYearsResult')
        : l.name === YEAR_RESULT
          ? t('reports.yearResult')
          : l.name;
  return (
    <>
      <TableRow>
        <TableCell colSpan={2} sx={{ ...bold, bgcolor: 'action.hover' }}>
          {title}
        </TableCell>
      </TableRow>
      {lines.map((l) => (
        <TableRow key={`${title}-${l.id ?? l.name}`} hover>
          <TableCell component="th" scope="row" sx={{ pl: 3 }}>
            {l.code ? `${l.code} ` : ''}
            {lineName(l)}
          </TableCell>
          <TableCell align="right" sx={num}>
            {formatNumber(l.balance, decimals, language)}
          </TableCell>
        </TableRow>
      ))}
      <TableRow>
        <TableCell component="th" scope="row" sx={bold}>
          {totalTitle}
        </TableCell>
        <TableCell align="right" sx={{ ...num, ...bold }}>
          {formatNumber(total, decimals, language)}
        </TableCell>
      </TableRow>
    </>
  );
};

/** The balance sheet: assets = liabilities + equity, with earlier years' and the year's result. */
export const BalanceSheetReport = ({ propertyId }: { propertyId: number | null }) => {
  const decimals = useCompanyMoney().decimals ?? 2;
  const { t, language } = useT();
  return (
    <AsOfReport
      title={t('reports.balanceSheet')}
      what={t('reports.exportBalanceSheet')}
      failed={t('reports.balanceSheetLoadFailed')}
      path="/reports/balance-sheet"
      filename="balance-sheet"
      propertyId={propertyId}
      query={balanceSheetQuery}
    >
      {(bs) => (
        <Table size="small" aria-label={t('reports.balanceSheet')}>
          <TableBody>
            <SheetSection
              title={t('reports.assets')}
              totalTitle={t('reports.totalAssets')}
              lines={bs.assets}
              total={bs.total_assets}
              decimals={decimals}
            />
            <SheetSection
              title={t('reports.liabilities')}
              totalTitle={t('reports.totalLiabilities')}
              lines={bs.liabilities}
              total={bs.total_liabilities}
              decimals={decimals}
            />
            <SheetSection
              title={t('reports.equity')}
              totalTitle={t('reports.totalEquity')}
              lines={bs.equity}
              total={bs.total_equity}
              decimals={decimals}
            />
            <TableRow>
              <TableCell component="th" scope="row" sx={bold}>
                {t('reports.totalLiabilitiesEquity')}
              </TableCell>
              <TableCell align="right" sx={{ ...num, ...bold }}>
                {formatNumber(bs.total_liabilities_and_equity, decimals, language)}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      )}
    </AsOfReport>
  );
};
