import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { formatDate, formatNumber, localDayIso } from '@kodi/domain';
import { useT } from '../../lib/i18n.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { ExportButtons } from '../../components/export-buttons.tsx';
import { Loading, ReportCard, bold, num } from './books-reports.tsx';
import { rentalTaxMonthQuery, rentalTaxYearQuery } from './report-queries.ts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const thisMonth = () => localDayIso().slice(0, 7);

type Figures = Record<string, string | number | null>;

/** Each landlord's figures in `columns` (amounts), and the totals. */
const LandlordTable = ({
  label,
  columns,
  rows,
  totals,
  decimals,
}: {
  label: string;
  columns: [key: string, heading: string][];
  rows: ({ kind: string; name: string; owner_id: number | null; tax_id: string | null } & Figures)[];
  totals: Figures;
  decimals: number;
}) => {
  const { t, language } = useT();
  const landlordName = (l: { kind: string; name: string }) =>
    l.kind === 'company' ? t('reports.ownProperties', { name: l.name }) : l.name;
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell sx={bold}>{t('reports.landlord')}</TableCell>
            {columns.map(([key, heading]) => (
              <TableCell key={key} sx={bold} align="right">
                {heading}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((l) => (
            <TableRow key={l.owner_id ?? 'company'} hover>
              <TableCell component="th" scope="row" sx={{ minWidth: 160 }}>
                {landlordName(l)}
                {l.tax_id ? ` · ${l.tax_id}` : ''}
              </TableCell>
              {columns.map(([key]) => (
                <TableCell key={key} align="right" sx={num}>
                  {l[key] === null || l[key] === undefined ? '' : formatNumber(l[key], decimals, language)}
                </TableCell>
              ))}
            </TableRow>
          ))}
          <TableRow>
            <TableCell component="th" scope="row" sx={bold}>
              {t('reports.total')}
            </TableCell>
            {columns.map(([key]) => (
              <TableCell
                key={key}
                align="right"
                sx={{ ...num, ...bold }}
                data-testid={`rental-tax-total-${key}`}
              >
                {formatNumber(totals[key] ?? 0, decimals, language)}
              </TableCell>
            ))}
          </TableRow>
        </TableBody>
      </Table>
    </TableContainer>
  );
};

/**
 * The landlords' rental tax (issue 27): a month (each landlord's gross rent received, the tax at the
 * company's rate, what was withheld from an owner, the due date) or a tax year (gross rent, expenses,
 * net), with the exports.
 */
export const RentalTaxReport = () => {
  const d = useCompanyMoney().decimals ?? 2;
  const { t, language } = useT();
  const [mode, setMode] = useState<'month' | 'year'>('month');
  const [month, setMonth] = useState(thisMonth);
  const [year, setYear] = useState(() => new Date().getFullYear() - 1);
  const validYear = Number.isInteger(year) && year >= 1900 && year <= 2199;
  const monthly = useQuery({ ...rentalTaxMonthQuery(month), enabled: mode === 'month' && MONTH.test(month) });
  const yearly = useQuery({ ...rentalTaxYearQuery(year), enabled: mode === 'year' && validYear });
  const answer = mode === 'month' ? monthly : yearly;
  return (
    <ReportCard
      title={t('reports.rentalTax')}
      inputs={
        <>
          <TextField
            select
            size="small"
            label={t('reports.figuresOf')}
            value={mode}
            onChange={(e) => setMode(e.target.value === 'year' ? 'year' : 'month')}
            sx={{ minWidth: 140 }}
          >
            <MenuItem value="month">{t('reports.aMonth')}</MenuItem>
            <MenuItem value="year">{t('reports.aTaxYear')}</MenuItem>
          </TextField>
          {mode === 'month' ? (
            <TextField
              label={t('reports.month')}
              type="month"
              size="small"
              value={month}
              onChange={(e) => setMonth(e.target.value)}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { placeholder: 'YYYY-MM' } }}
              error={!MONTH.test(month)}
            />
          ) : (
            <TextField
              label={t('reports.taxYearStart')}
              type="number"
              size="small"
              value={year}
              onChange={(e) => setYear(Number(e.target.value))}
              error={!validYear}
            />
          )}
        </>
      }
      exports={
        <ExportButtons
          path="/reports/rental-tax"
          params={mode === 'month' ? { month } : { tax_year: year }}
          label={t('reports.exportRentalTax')}
          filename="rental-tax"
        />
      }
    >
      {answer.isPending ? (
        <Loading />
      ) : answer.isError ? (
        <Alert severity="error">{errorMessage(answer.error, t('reports.rentalTaxLoadFailed'))}</Alert>
      ) : mode === 'month' && monthly.data ? (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('reports.rateLine', {
              rate: monthly.data.rate,
              date: formatDate(monthly.data.due_date, language),
            })}
          </Typography>
          <LandlordTable
            label={t('reports.monthTable')}
            columns={[
              ['gross_rent', t('reports.grossRent')],
              ['tax', t('reports.tax')],
              ['withheld', t('reports.withheld')],
            ]}
            rows={monthly.data.landlords}
            totals={monthly.data.totals}
            decimals={d}
          />
        </>
      ) : yearly.data ? (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('reports.taxYearLine', { from: yearly.data.from, to: yearly.data.to })}
          </Typography>
          <LandlordTable
            label={t('reports.yearTable')}
            columns={[
              ['gross_rent', t('reports.grossRent')],
              ['expenses', t('reports.expenses')],
              ['net', t('reports.net')],
            ]}
            rows={yearly.data.landlords}
            totals={yearly.data.totals}
            decimals={d}
          />
        </>
      ) : null}
    </ReportCard>
  );
};
