import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { cashFlowLines, incomeStatementLines, intlLocales, resolveRange, type Language } from '@kodi/domain';
import { useT } from '../../lib/i18n.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { PropertyFilter } from '../../components/property-filter.tsx';
import { useSelectedProperty } from '../../lib/property-filter.ts';
import { ReportTable } from './report-table.tsx';
import { ExportButtons } from '../../components/export-buttons.tsx';
import { BalanceSheetReport, GeneralLedgerReport, TrialBalanceReport } from './books-reports.tsx';
import { RentalTaxReport } from './rental-tax-report.tsx';
import {
  cashFlowQuery,
  incomeStatementBasisQuery,
  reportParams,
  type IncomeBasis,
  type MonthRange,
  type ReportScope,
} from './report-queries.ts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The charts' amounts, short ('1.5M', '1,5 M'), in the page's language. */
const yAxisOf = (language: Language) => {
  const compact = new Intl.NumberFormat(intlLocales[language], {
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  return [{ valueFormatter: (v: number | null) => compact.format(v ?? 0), width: 56 }];
};

/** The tabs, by the URL's `report` (their labels: `reports.tabMonthly`, ...). */
const TABS = ['monthly', 'trial-balance', 'general-ledger', 'balance-sheet', 'rental-tax'] as const;
type TabValue = (typeof TABS)[number];

/**
 * Financial Reports: the monthly income statement (cash or accrual basis) and cash flow, with charts,
 * and the books' reports (trial balance, general ledger, balance sheet) and the landlords' rental tax, each with its exports; the
 * tab shown is the URL's `report`.
 */
export const FinancialReportsPage = () => {
  const [params, setParams] = useSearchParams();
  const { propertyId } = useSelectedProperty();
  const { t } = useT();
  const raw = params.get('report');
  const tab: TabValue = TABS.some((value) => value === raw) ? (raw as TabValue) : 'monthly';
  const tabLabels: Record<TabValue, string> = {
    monthly: t('reports.tabMonthly'),
    'trial-balance': t('reports.tabTrialBalance'),
    'general-ledger': t('reports.tabGeneralLedger'),
    'balance-sheet': t('reports.tabBalanceSheet'),
    'rental-tax': t('reports.tabRentalTax'),
  };
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('reports.title')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' } }}>
        <Tabs
          value={tab}
          onChange={(_, v: TabValue) =>
            setParams(
              (p) => {
                const next = new URLSearchParams(p);
                if (v === 'monthly') next.delete('report');
                else next.set('report', v);
                return next;
              },
              { replace: true },
            )
          }
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label={t('reports.tabsLabel')}
          sx={{ flexGrow: 1, minWidth: 0 }}
        >
          {TABS.map((value) => (
            <Tab key={value} value={value} label={tabLabels[value]} />
          ))}
        </Tabs>
        <PropertyFilter />
      </Stack>
      {tab === 'monthly' && <MonthlyReports />}
      {tab === 'trial-balance' && <TrialBalanceReport propertyId={propertyId} />}
      {tab === 'general-ledger' && <GeneralLedgerReport propertyId={propertyId} />}
      {tab === 'balance-sheet' && <BalanceSheetReport propertyId={propertyId} />}
      {tab === 'rental-tax' && <RentalTaxReport />}
    </Box>
  );
};

/** The monthly income statement and cash flow, with charts and exports. */
const MonthlyReports = () => {
  const money = useCompanyMoney();
  const { t, language } = useT();
  const yAxis = yAxisOf(language);
  const [basis, setBasis] = useState<IncomeBasis>('cash');
  const decimals = money.decimals ?? 2;
  const [draft, setDraft] = useState<MonthRange>(() => resolveRange({}));
  const [shownMonths, setRange] = useState<MonthRange>(draft);
  const { propertyId } = useSelectedProperty();
  const range: ReportScope = { ...shownMonths, propertyId };
  const valid = MONTH.test(draft.from) && MONTH.test(draft.to) && draft.from <= draft.to;

  const income = useQuery(incomeStatementBasisQuery(range, basis));
  const cash = useQuery(cashFlowQuery(range));
  const months = income.data?.map((m) => m.month) ?? [];

  return (
    <Box>
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
          label={t('reports.from')}
          type="month"
          size="small"
          value={draft.from}
          onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
          error={!valid}
        />
        <TextField
          label={t('reports.to')}
          type="month"
          size="small"
          value={draft.to}
          onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
          error={!valid}
          helperText={valid ? ' ' : t('reports.monthOrder')}
        />
        <Button type="submit" variant="contained" disabled={!valid}>
          {t('reports.show')}
        </Button>
      </Stack>

      <Card sx={{ mb: 3 }}>
        <CardContent>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1 }}
          >
            <Typography variant="h5" component="h2">
              {t('reports.incomeStatement')}
            </Typography>
            <ExportButtons
              path="/income-statement"
              params={{ ...reportParams(range), basis }}
              label={t('reports.exportIncomeStatement')}
              filename="income-statement"
            />
          </Stack>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={basis}
            onChange={(_, v: IncomeBasis | null) => v && setBasis(v)}
            aria-label={t('reports.basis')}
            sx={{ mb: 1 }}
          >
            <ToggleButton value="cash">{t('reports.cashBasis')}</ToggleButton>
            <ToggleButton value="accrual">{t('reports.accrualBasis')}</ToggleButton>
          </ToggleButtonGroup>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {basis === 'cash' ? t('reports.cashBasisHelp') : t('reports.accrualBasisHelp')}
          </Typography>
          {income.isPending ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 2 }}>
              <CircularProgress size={20} />
              <Typography>{t('reports.fetching')}</Typography>
            </Stack>
          ) : income.isError ? (
            <Alert severity="error">{errorMessage(income.error, t('reports.incomeLoadFailed'))}</Alert>
          ) : (
            <>
              <BarChart
                height={280}
                xAxis={[{ scaleType: 'band', data: months }]}
                yAxis={yAxis}
                series={[
                  {
                    data: income.data.map((m) => m.rental_income + m.late_fees + m.other_income),
                    label: t('reports.chartIncome'),
                  },
                  { data: income.data.map((m) => m.total_expenses), label: t('reports.chartExpenses') },
                  { data: income.data.map((m) => m.net_income), label: t('reports.chartNetIncome') },
                ]}
              />
              <ReportTable
                caption={t('reports.incomeStatement')}
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
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1 }}
          >
            <Typography variant="h5" component="h2">
              {t('reports.cashFlow')}
            </Typography>
            <ExportButtons
              path="/cash-flow"
              params={reportParams(range)}
              label={t('reports.exportCashFlow')}
              filename="cash-flow"
            />
          </Stack>
          {cash.isPending ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 2 }}>
              <CircularProgress size={20} />
              <Typography>{t('reports.fetching')}</Typography>
            </Stack>
          ) : cash.isError ? (
            <Alert severity="error">{errorMessage(cash.error, t('reports.cashFlowLoadFailed'))}</Alert>
          ) : (
            <>
              {/* the month-end balances as bars: one chart kind for the page (issue 26: its code, the largest
                  page's, is within the 400 KB budget only with one) */}
              <BarChart
                height={260}
                xAxis={[{ scaleType: 'band', data: cash.data.map((m) => m.month) }]}
                yAxis={yAxis}
                series={[
                  { data: cash.data.map((m) => m.closing_balance), label: t('reports.chartClosingBalance') },
                ]}
              />
              <ReportTable
                caption={t('reports.cashFlow')}
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
