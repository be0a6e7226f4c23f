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

export const Loading = () => (
  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 2 }}>
    <CircularProgress size={20} />
    <Typography>Fetching data...</Typography>
  </Stack>
);

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
  path,
  filename,
  propertyId,
  query,
  children,
}: {
  title: string;
  path: string;
  filename: string;
  propertyId: number | null;
  query: (scope: DayScope) => UseQueryOptions<T, Error, T, K>;
  children: (data: T) => ReactNode;
}) => {
  const [asOf, setAsOf] = useState(localDayIso);
  const scope = { asOf, propertyId };
  const answer = useQuery({ ...query(scope), enabled: DAY.test(asOf) });
  const what = `the ${title.toLowerCase()}`;
  return (
    <ReportCard
      title={title}
      inputs={<DayField label="As of" value={asOf} onChange={setAsOf} />}
      exports={<ExportButtons path={path} params={dayParams(scope)} label={what} filename={filename} />}
    >
      {answer.isPending ? (
        <Loading />
      ) : answer.isError ? (
        <Alert severity="error">{errorMessage(answer.error, `Failed to load ${what}.`)}</Alert>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }}>{children(answer.data)}</TableContainer>
      )}
    </ReportCard>
  );
};

/** The trial balance: each account on its debit or credit side as of a day, and the equal totals. */
export const TrialBalanceReport = ({ propertyId }: { propertyId: number | null }) => {
  const decimals = useCompanyMoney().decimals ?? 2;
  return (
    <AsOfReport
      title="Trial Balance"
      path="/reports/trial-balance"
      filename="trial-balance"
      propertyId={propertyId}
      query={trialBalanceQuery}
    >
      {(tb) => (
        <Table size="small" aria-label="Trial Balance">
          <TableHead>
            <TableRow>
              <TableCell sx={bold}>Code</TableCell>
              <TableCell sx={bold}>Account</TableCell>
              <TableCell sx={bold} align="right">
                Debit
              </TableCell>
              <TableCell sx={bold} align="right">
                Credit
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {tb.accounts.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>No account has a balance on this day.</TableCell>
              </TableRow>
            )}
            {tb.accounts.map((a) => (
              <TableRow key={a.id} hover>
                <TableCell>{a.code}</TableCell>
                <TableCell component="th" scope="row" sx={{ minWidth: 160 }}>
                  {a.name}
                </TableCell>
                <TableCell align="right" sx={num}>
                  {Number(a.debit) === 0 ? '' : formatNumber(a.debit, decimals)}
                </TableCell>
                <TableCell align="right" sx={num}>
                  {Number(a.credit) === 0 ? '' : formatNumber(a.credit, decimals)}
                </TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell />
              <TableCell component="th" scope="row" sx={bold}>
                Total
              </TableCell>
              <TableCell align="right" sx={{ ...num, ...bold }} data-testid="trial-balance-debit">
                {formatNumber(tb.total_debit, decimals)}
              </TableCell>
              <TableCell align="right" sx={{ ...num, ...bold }} data-testid="trial-balance-credit">
                {formatNumber(tb.total_credit, decimals)}
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
      title="General Ledger"
      inputs={
        <>
          <TextField
            select
            label="Account"
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
                {a.code} {a.name}
              </MenuItem>
            ))}
          </TextField>
          <DayField label="From" value={from} onChange={(v) => (setFrom(v), setPage(1))} />
          <DayField label="To" value={to} onChange={(v) => (setTo(v), setPage(1))} />
        </>
      }
      exports={
        chosen === null ? null : (
          <ExportButtons
            path="/reports/general-ledger"
            params={ledgerParams(scope)}
            label="the general ledger"
            filename="general-ledger"
          />
        )
      }
    >
      {!valid ? (
        <Alert severity="warning">The start day must not be after the end day.</Alert>
      ) : accounts.isError ? (
        <Alert severity="error">{errorMessage(accounts.error, 'Failed to load the accounts.')}</Alert>
      ) : gl.isPending ? (
        <Loading />
      ) : gl.isError ? (
        <Alert severity="error">{errorMessage(gl.error, 'Failed to load the general ledger.')}</Alert>
      ) : (
        <>
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label="General Ledger">
              <TableHead>
                <TableRow>
                  <TableCell sx={bold}>Date</TableCell>
                  <TableCell sx={bold}>Memo</TableCell>
                  <TableCell sx={bold} align="right">
                    Debit
                  </TableCell>
                  <TableCell sx={bold} align="right">
                    Credit
                  </TableCell>
                  <TableCell sx={bold} align="right">
                    Balance
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                <TableRow>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(gl.data.from)}</TableCell>
                  <TableCell component="th" scope="row" sx={bold}>
                    Opening balance
                  </TableCell>
                  <TableCell />
                  <TableCell />
                  <TableCell align="right" sx={{ ...num, ...bold }}>
                    {formatNumber(gl.data.opening_balance, decimals)}
                  </TableCell>
                </TableRow>
                {gl.data.lines.map((l) => (
                  <TableRow key={l.line_id} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(l.date)}</TableCell>
                    <TableCell sx={{ minWidth: 200 }}>{l.memo}</TableCell>
                    <TableCell align="right" sx={num}>
                      {Number(l.debit) === 0 ? '' : formatNumber(l.debit, decimals)}
                    </TableCell>
                    <TableCell align="right" sx={num}>
                      {Number(l.credit) === 0 ? '' : formatNumber(l.credit, decimals)}
                    </TableCell>
                    <TableCell align="right" sx={num}>
                      {formatNumber(l.balance, decimals)}
                    </TableCell>
                  </TableRow>
                ))}
                <TableRow>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(gl.data.to)}</TableCell>
                  <TableCell component="th" scope="row" sx={bold}>
                    Closing balance
                  </TableCell>
                  <TableCell align="right" sx={{ ...num, ...bold }}>
                    {formatNumber(gl.data.total_debit, decimals)}
                  </TableCell>
                  <TableCell align="right" sx={{ ...num, ...bold }}>
                    {formatNumber(gl.data.total_credit, decimals)}
                  </TableCell>
                  <TableCell align="right" sx={{ ...num, ...bold }}>
                    {formatNumber(gl.data.closing_balance, decimals)}
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
  lines,
  total,
  decimals,
}: {
  title: string;
  lines: BalanceSheetLine[];
  total: string;
  decimals: number;
}) => (
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
          {l.name}
        </TableCell>
        <TableCell align="right" sx={num}>
          {formatNumber(l.balance, decimals)}
        </TableCell>
      </TableRow>
    ))}
    <TableRow>
      <TableCell component="th" scope="row" sx={bold}>
        Total {title.toLowerCase()}
      </TableCell>
      <TableCell align="right" sx={{ ...num, ...bold }}>
        {formatNumber(total, decimals)}
      </TableCell>
    </TableRow>
  </>
);

/** The balance sheet: assets = liabilities + equity, with earlier years' and the year's result. */
export const BalanceSheetReport = ({ propertyId }: { propertyId: number | null }) => {
  const decimals = useCompanyMoney().decimals ?? 2;
  return (
    <AsOfReport
      title="Balance Sheet"
      path="/reports/balance-sheet"
      filename="balance-sheet"
      propertyId={propertyId}
      query={balanceSheetQuery}
    >
      {(bs) => (
        <Table size="small" aria-label="Balance Sheet">
          <TableBody>
            <SheetSection title="Assets" lines={bs.assets} total={bs.total_assets} decimals={decimals} />
            <SheetSection
              title="Liabilities"
              lines={bs.liabilities}
              total={bs.total_liabilities}
              decimals={decimals}
            />
            <SheetSection title="Equity" lines={bs.equity} total={bs.total_equity} decimals={decimals} />
            <TableRow>
              <TableCell component="th" scope="row" sx={bold}>
                Total liabilities and equity
              </TableCell>
              <TableCell align="right" sx={{ ...num, ...bold }}>
                {formatNumber(bs.total_liabilities_and_equity, decimals)}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      )}
    </AsOfReport>
  );
};
