import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import {
  REPORT_TOTAL_LABEL,
  formatNumber,
  intlLocales,
  reportLineLabel,
  type Language,
  type ReportLine,
} from '@kodi/domain';
import { useT, type TranslateDerived } from '../../lib/i18n.ts';

type ReportTableProps = { caption: string; months: string[]; lines: ReportLine[]; decimals: number };

const monthLabel = (m: string, language: Language) =>
  new Intl.DateTimeFormat(intlLocales[language], { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${m}-01T00:00:00Z`),
  );

/**
 * A line's label in the page's language (issue 30): `reports.line.<key>`, with its category's,
 * method's or source's `reports.item.<item>` (keys from the domain's lists: reportItemKeys).
 */
export const lineText = (line: ReportLine, td: TranslateDerived): string => {
  const { key, item } = line.text;
  return item === undefined
    ? td(`reports.line.${key}`, line.label)
    : td(`reports.line.${key}`, line.label, { item: td(`reports.item.${item}`, reportLineLabel(item)) });
};

/** The total column stands apart, after the months, and stays in view while the months scroll sideways. */
const totalSx = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: 'inset 1px 0 0 rgba(0, 0, 0, 0.12)',
  whiteSpace: 'nowrap',
} as const;

/** Report lines by month and their total over the range: thousands separators, 0 for empty, totals in bold. */
export const ReportTable = ({ caption, months, lines, decimals }: ReportTableProps) => {
  const { t, td, language } = useT();
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={caption}>
        <TableHead>
          <TableRow>
            <TableCell
              sx={{
                fontWeight: 700,
                minWidth: 200,
                position: 'sticky',
                left: 0,
                bgcolor: 'background.paper',
              }}
            >
              {t('reports.itemHeading')}
            </TableCell>
            {months.map((m) => (
              <TableCell key={m} align="right" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                {monthLabel(m, language)}
              </TableCell>
            ))}
            <TableCell align="right" sx={{ fontWeight: 700, ...totalSx }}>
              {td('reports.total', REPORT_TOTAL_LABEL)}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={`${line.text.key}.${line.text.item ?? ''}`} hover>
              <TableCell
                component="th"
                scope="row"
                sx={{
                  fontWeight: line.kind === 'total' ? 700 : 400,
                  position: 'sticky',
                  left: 0,
                  bgcolor: 'background.paper',
                }}
              >
                {lineText(line, td)}
              </TableCell>
              {months.map((m) => (
                <TableCell
                  key={m}
                  align="right"
                  sx={{ fontWeight: line.kind === 'total' ? 700 : 400, fontVariantNumeric: 'tabular-nums' }}
                >
                  {formatNumber(line.values[m] ?? 0, decimals, language)}
                </TableCell>
              ))}
              <TableCell
                align="right"
                sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums', ...totalSx }}
              >
                {formatNumber(line.total, decimals, language)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
