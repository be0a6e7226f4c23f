import TableCell, { type TableCellProps } from '@mui/material/TableCell';

/** A bold column heading of a plain (not sortable) table. */
export const HeadCell = ({
  sx,
  ...props
}: Omit<TableCellProps, 'sx'> & { sx?: Record<string, string | number> }) => (
  <TableCell {...props} sx={{ fontWeight: 600, ...sx }} />
);
