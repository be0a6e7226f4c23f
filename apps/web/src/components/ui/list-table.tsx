import { createContext, Fragment, useContext, useDeferredValue, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import type { SxProps, Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell, { type TableCellProps } from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { formatNumber } from '@kodi/domain';
import { usePhone } from '../../lib/use-phone.ts';
import { useT } from '../../lib/i18n.ts';
import { PAGE_SIZES, type ListState } from './use-list-state.ts';
import { visuallyHidden } from './visually-hidden.ts';

type SortHeadCellProps = {
  label: string;
  /** The sort field; without it the column does not sort. */
  field?: string | undefined;
  sort: string | undefined;
  onSort: (field: string) => void;
  align?: TableCellProps['align'];
};

/** A column heading; a sortable one toggles the sort (ascending, descending, none). */
const SortHeadCell = ({ label, field, sort, onSort, align }: SortHeadCellProps) => {
  const active = !!field && (sort === field || sort === `-${field}`);
  const direction = sort === `-${field}` ? 'desc' : 'asc';
  return (
    <TableCell
      sortDirection={active ? direction : false}
      align={align}
      sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
    >
      {field ? (
        <TableSortLabel active={active} direction={direction} onClick={() => onSort(field)}>
          {label}
        </TableSortLabel>
      ) : (
        label
      )}
    </TableCell>
  );
};

type TableMessageRowProps = { colSpan: number; text: string; status?: boolean };

/** One row across the table with a message ('Fetching data...', the empty text). */
const TableMessageRow = ({ colSpan, text, status = false }: TableMessageRowProps) => (
  <TableRow>
    <TableCell colSpan={colSpan} align="center" sx={{ py: 4, color: 'text.secondary' }}>
      <span role={status ? 'status' : undefined}>{text}</span>
    </TableCell>
  </TableRow>
);

type RowActionProps = {
  label: string;
  icon: ReactNode;
  color?: 'error' | 'primary';
  onClick?: () => void;
  /** A link rather than a button. */
  to?: string;
};

/**
 * Inside a phone's row cards: a row's actions go without their tooltips (a touch screen shows none;
 * each action keeps its accessible name), which keeps a page of cards light to draw on a slow phone
 * (issue 26, total blocking time).
 */
const InCards = createContext(false);

/** A row's small icon button, named (and, on a wide screen, titled) by its label. */
export const RowAction = ({ label, icon, color, onClick, to }: RowActionProps) => {
  const button =
    to === undefined ? (
      <IconButton size="small" aria-label={label} color={color} onClick={onClick}>
        {icon}
      </IconButton>
    ) : (
      <IconButton size="small" aria-label={label} color={color} component={RouterLink} to={to}>
        {icon}
      </IconButton>
    );
  return useContext(InCards) ? button : <Tooltip title={label}>{button}</Tooltip>;
};

/** A field of a row's card: its label and value (`data-card-field`: the 360 px test finds it). */
export type CardField = { label: string; value: ReactNode };

type RowCardProps = {
  /** The card's first line (the row's name, or its first field) and the label it stands for. */
  title: ReactNode;
  titleLabel: string;
  fields: CardField[];
  /** before the fields (a checkbox) */
  leading?: ReactNode;
  /** the row's actions, under its fields */
  actions?: ReactNode;
};

/**
 * A row of a list on a phone (issue 26, 'On a phone'): its main fields as label and value, wrapping
 * within the screen's width, then its actions. Plain elements styled once by the list around them
 * (`cardListSx`): a page of 25 cards is hundreds of elements, and a styled component each would
 * cost a slow phone's main thread most of the page's start-up.
 */
export const RowCard = ({ title, titleLabel, fields, leading, actions }: RowCardProps) => (
  <li data-testid="row-card">
    <div className="card-main">
      {leading}
      <div className="card-body">
        <p className="card-title" data-card-field={titleLabel}>
          {title}
        </p>
        <dl>
          {fields.map((f) => (
            <Fragment key={f.label}>
              <dt>{f.label}</dt>
              <dd data-card-field={f.label}>{f.value}</dd>
            </Fragment>
          ))}
        </dl>
      </div>
    </div>
    {actions && <div className="card-actions">{actions}</div>}
  </li>
);

/** The styles of a list of `RowCard`s, set once on the list. */
const cardListSx: SxProps<Theme> = (theme) => ({
  listStyle: 'none',
  m: 0,
  p: 1,
  display: 'grid',
  gap: 1,
  '& > li': {
    border: 1,
    borderColor: 'divider',
    borderRadius: 1,
    px: 1.5,
    py: 1,
    minWidth: 0,
  },
  '& .card-main': { display: 'flex', gap: 1, alignItems: 'flex-start' },
  '& .card-body': { flex: 1, minWidth: 0 },
  '& .card-title': { ...theme.typography.subtitle2, overflowWrap: 'anywhere', m: 0, mb: 0.5 },
  '& dl': {
    ...theme.typography.body2,
    display: 'grid',
    gridTemplateColumns: 'minmax(0, auto) minmax(0, 1fr)',
    columnGap: 1.5,
    rowGap: 0.25,
    m: 0,
  },
  '& dt': { color: 'text.secondary', overflowWrap: 'anywhere' },
  '& dd': { m: 0, overflowWrap: 'anywhere', minWidth: 0 },
  '& .card-actions': { display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', mt: 0.5 },
});

/** A list of `RowCard`s (a list's rows on a phone), named by `label`. */
export const CardList = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box component="ul" aria-label={label} sx={cardListSx}>
    <InCards.Provider value={true}>{children}</InCards.Provider>
  </Box>
);

/** A column of a list: its heading, and the sort field when it sorts. */
export type ListColumn = {
  key: string;
  label: string;
  sortField?: string | undefined;
  align?: TableCellProps['align'];
};

/** What the table needs of the list's query. */
type PageQuery = {
  data?: { rows: readonly unknown[]; total: number; more?: boolean } | undefined;
  isPending: boolean;
  isFetching: boolean;
};

type ListTableProps = {
  /** The table's accessible name. */
  label: string;
  tableSx?: SxProps<Theme>;
  list: ListState;
  query: PageQuery;
  /** Tell assistive technology 'Loading ... Please wait' while fetching. */
  announceLoading?: boolean;
  /** Shown instead of the rows when there are none. */
  emptyText: string;
  columns: ListColumn[];
  /** A heading cell before the columns' (an extra first column). */
  headStart?: ReactNode;
  /** The Actions heading's styles (besides the bold). */
  actionsSx?: Record<string, string | number>;
  /** The rows. */
  children: ReactNode;
  /** The rows as cards (`RowCard`s), shown instead of the table on a phone. */
  cards?: ReactNode;
  paginationSx?: SxProps<Theme>;
  /** Rows after the table's rows (a totals row), in the table only. */
  footer?: ReactNode;
};

/** A server-paged table: the loading bar, the headings, the rows (or a message) and the pagination. */
export const ListTable = ({
  label,
  tableSx,
  list,
  query,
  announceLoading = false,
  emptyText,
  columns,
  headStart,
  actionsSx,
  children,
  cards,
  paginationSx,
  footer,
}: ListTableProps) => {
  const phone = usePhone();
  const { page, pageSize } = list;
  // A page of rows is drawn in a transition, which React renders in slices, yielding to the browser
  // between them: the answer's own update is synchronous (React Query's store), and drawing 25 cards
  // at once would hold a phone's main thread for a long task (issue 26, total blocking time). Until
  // then the previous rows (or 'Fetching data...') stay.
  const { t, language } = useT();
  const number = (n: number) => formatNumber(n, 0, language);
  const shown = useDeferredValue({ data: query.data, pending: query.isPending, cards, children, footer });
  const total = shown.data?.total ?? 0;
  // more rows than the server counted: the pagination goes on while pages come full
  const more = shown.data?.more === true && (shown.data.rows.length === pageSize || page * pageSize < total);
  const fetching = query.isFetching;
  const columnCount = columns.length + 1 + (headStart ? 1 : 0);
  return (
    <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
      <Box sx={{ height: 4 }}>
        {fetching && <LinearProgress aria-hidden="true" />}
        {fetching && announceLoading && (
          <Box role="status" sx={visuallyHidden}>
            {t('shell.pleaseWait')}
          </Box>
        )}
      </Box>
      {phone && cards !== undefined ? (
        shown.pending || !shown.data?.rows.length ? (
          <Typography
            role={shown.pending ? 'status' : undefined}
            sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}
          >
            {shown.pending ? t('shell.fetching') : emptyText}
          </Typography>
        ) : (
          <CardList label={label}>{shown.cards}</CardList>
        )
      ) : (
        <TableContainer>
          <Table size="small" aria-label={label} sx={tableSx}>
            <TableHead>
              <TableRow>
                {headStart}
                {columns.map((col) => (
                  <SortHeadCell
                    key={col.key}
                    label={col.label}
                    field={col.sortField}
                    sort={list.sort}
                    onSort={list.toggleSort}
                    align={col.align}
                  />
                ))}
                <TableCell align="right" sx={{ fontWeight: 600, ...actionsSx }}>
                  {t('shell.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.pending ? (
                <TableMessageRow colSpan={columnCount} text={t('shell.fetching')} status />
              ) : !shown.data?.rows.length ? (
                <TableMessageRow colSpan={columnCount} text={emptyText} />
              ) : (
                <>
                  {shown.children}
                  {shown.footer}
                </>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {/* drawn with the rows: on the first load the rows come in where nothing was, and move nothing
          visible (the footer waits below the fold, app-shell.tsx) */}
      {shown.data && (
        <TablePagination
          component="div"
          count={more ? -1 : total}
          page={more ? page : total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / pageSize) - 1))}
          labelDisplayedRows={({ from, to, count }) =>
            count === -1
              ? t('shell.rowsOfMore', { from: number(from), to: number(to), total: number(total) })
              : t('shell.rowsOf', { from: number(from), to: number(to), count: number(count) })
          }
          labelRowsPerPage={t('shell.rowsPerPage')}
          getItemAriaLabel={(type) => t('shell.goToPage', { type })}
          rowsPerPage={pageSize}
          rowsPerPageOptions={phone ? [] : PAGE_SIZES}
          showFirstButton={!phone}
          showLastButton={!phone}
          sx={[
            phone
              ? { '& .MuiTablePagination-toolbar': { px: 1 }, '& .MuiTablePagination-actions': { ml: 1 } }
              : {},
            ...(Array.isArray(paginationSx) ? paginationSx : [paginationSx]),
          ]}
          onPageChange={(_e, p) => list.setPage(p)}
          onRowsPerPageChange={(e) => {
            list.setPageSize(Number(e.target.value));
            list.setPage(0);
          }}
        />
      )}
    </Paper>
  );
};
