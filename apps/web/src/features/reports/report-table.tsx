import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { REPORT_TOTAL_LABEL, formatNumber, type ReportLine } from '@kodi/domain';

type ReportTableProps = { caption: string; months: string[]; lines: ReportLine[]; decimals: number };

const monthLabel = (m: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${m}-01T00:00:00Z`),
  );

/** The total column stands apart, after the months, and stays in view while the months scroll sideways. */
const totalSx = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: 'inset 1px 0 0 rgba(0, 0, 0, 0.12)',
  whiteSpace: 'nowrap',
} as const;

/** Report lines by month and their total over the range: thousands separators, 0 for empty, totals in bold. */
export const ReportTable = ({ caption, months, lines, decimals }: ReportTableProps) => (
  <TableContainer sx={{ overflowX: 'auto' }}>
    <Table size="small" aria-label={caption}>
      <TableHead>
        <TableRow>
          <TableCell
            sx={{ fontWeight: 700, minWidth: 200, position: 'sticky', left: 0, bgcolor: 'background.paper' }}
          >
            Item
          </TableCell>
          {months.map((m) => (
            <TableCell key={m} align="right" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
              {monthLabel(m)}
            </TableCell>
          ))}
          <TableCell align="right" sx={{ fontWeight: 700, ...totalSx }}>
            {REPORT_TOTAL_LABEL}
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {lines.map((line) => (
          <TableRow key={line.label} hover>
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
              {line.label}
            </TableCell>
            {months.map((m) => (
              <TableCell
                key={m}
                align="right"
                sx={{ fontWeight: line.kind === 'total' ? 700 : 400, fontVariantNumeric: 'tabular-nums' }}
              >
                {formatNumber(line.values[m] ?? 0, decimals)}
              </TableCell>
            ))}
            <TableCell align="right" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums', ...totalSx }}>
              {formatNumber(line.total, decimals)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </TableContainer>
);
