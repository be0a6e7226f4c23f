import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import GridOn from '@mui/icons-material/GridOn';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { cashFlowLines, incomeStatementLines, resolveRange } from '@kodi/domain';
import { errorMessage } from '../../lib/api-client.ts';
import { downloadFile, useCompanyMoney } from '../../lib/resources.ts';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { PropertyFilter } from '../../components/property-filter.tsx';
import { useSelectedProperty } from '../../lib/property-filter.ts';
import { ReportTable } from './report-table.tsx';
import {
  cashFlowQuery,
  incomeStatementQuery,
  reportParams,
  type MonthRange,
  type ReportScope,
} from './report-queries.ts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const yAxis = [{ valueFormatter: (v: number | null) => compact.format(v ?? 0), width: 56 }];

type ExportButtonsProps = { path: string; range: ReportScope; label: string };

const ExportButtons = ({ path, range, label }: ExportButtonsProps) => {
  const { showSnackbar } = useSnackbar();
  const [busy, setBusy] = useState<'xlsx' | 'pdf' | null>(null);
  const run = async (fmt: 'xlsx' | 'pdf') => {
    setBusy(fmt);
    try {
      await downloadFile(`${path}/export`, `${path.slice(1)}.${fmt}`, { fmt, ...reportParams(range) });
    } catch (e) {
      showSnackbar({
        message: errorMessage(e, 'The export failed.'),
        severity: 'error',
        autoHideDuration: 6000,
      });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack direction="row" spacing={1}>
      <Button
        size="small"
        variant="outlined"
        startIcon={<GridOn />}
        loading={busy === 'xlsx'}
        loadingPosition="start"
        onClick={() => void run('xlsx')}
        aria-label={`Export ${label} to Excel`}
      >
        Excel
      </Button>
      <Button
        size="small"
        variant="outlined"
        startIcon={<PictureAsPdf />}
        loading={busy === 'pdf'}
        loadingPosition="start"
        onClick={() => void run('pdf')}
        aria-label={`Export ${label} to PDF`}
      >
        PDF
      </Button>
    </Stack>
  );
};

/** Financial Reports: the monthly income statement and cash flow, with charts and exports. */
export const FinancialReportsPage = () => {
  const money = useCompanyMoney();
  const decimals = money.decimals ?? 2;
  const [draft, setDraft] = useState<MonthRange>(() => resolveRange({}));
  const [shownMonths, setRange] = useState<MonthRange>(draft);
  const { propertyId } = useSelectedProperty();
  const range: ReportScope = { ...shownMonths, propertyId };
  const valid = MONTH.test(draft.from) && MONTH.test(draft.to) && draft.from <= draft.to;

  const income = useQuery(incomeStatementQuery(range));
  const cash = useQuery(cashFlowQuery(range));
  const months = income.data?.map((m) => m.month) ?? [];

  return (
    <Box>
      <Typography variant="h4" component="h1" gutterBottom>
        Financial Reports
      </Typography>
      <Stack
        component="form"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 3, alignItems: { sm: 'center' } }}
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) setRange(draft);
        }}
      >
        <TextField
          label="From"
          type="month"
          size="small"
          value={draft.from}
          onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
          error={!valid}
        />
        <TextField
          label="To"
          type="month"
          size="small"
          value={draft.to}
          onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
          error={!valid}
          helperText={valid ? ' ' : 'The start month must not be after the end month.'}
        />
        <Button type="submit" variant="contained" disabled={!valid}>
          Show
        </Button>
        <PropertyFilter />
      </Stack>

      <Card sx={{ mb: 3 }}>
        <CardContent>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
            <Typography variant="h5" component="h2">
              Monthly Income Statement
            </Typography>
            <ExportButtons path="/income-statement" range={range} label="the income statement" />
          </Stack>
          {income.isPending ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 2 }}>
              <CircularProgress size={20} />
              <Typography>Fetching data...</Typography>
            </Stack>
          ) : income.isError ? (
            <Alert severity="error">
              {errorMessage(income.error, 'Failed to load the income statement.')}
            </Alert>
          ) : (
            <>
              <BarChart
                height={280}
                xAxis={[{ scaleType: 'band', data: months }]}
                yAxis={yAxis}
                series={[
                  {
                    data: income.data.map((m) => m.rental_income + m.late_fees + m.other_income),
                    label: 'Income',
                  },
                  { data: income.data.map((m) => m.total_expenses), label: 'Expenses' },
                  { data: income.data.map((m) => m.net_income), label: 'Net Operating Income' },
                ]}
              />
              <ReportTable
                caption="Monthly Income Statement"
                months={months}
                lines={incomeStatementLines(income.data)}
                decimals={decimals}
              />
            </>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
            <Typography variant="h5" component="h2">
              Cash Flow Statement
            </Typography>
            <ExportButtons path="/cash-flow" range={range} label="the cash flow statement" />
          </Stack>
          {cash.isPending ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 2 }}>
              <CircularProgress size={20} />
              <Typography>Fetching data...</Typography>
            </Stack>
          ) : cash.isError ? (
            <Alert severity="error">
              {errorMessage(cash.error, 'Failed to load the cash flow statement.')}
            </Alert>
          ) : (
            <>
              <LineChart
                height={260}
                xAxis={[{ scaleType: 'point', data: cash.data.map((m) => m.month) }]}
                yAxis={yAxis}
                series={[
                  { data: cash.data.map((m) => m.closing_balance), label: 'Closing balance', area: true },
                ]}
              />
              <ReportTable
                caption="Cash Flow Statement"
                months={cash.data.map((m) => m.month)}
                lines={cashFlowLines(cash.data)}
                decimals={decimals}
              />
            </>
          )}
        </CardContent>
      </Card>
    </Box>
  );
};
