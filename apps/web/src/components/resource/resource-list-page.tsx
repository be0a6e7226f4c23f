import { Fragment, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Edit from '@mui/icons-material/Edit';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import Search from '@mui/icons-material/Search';
import Visibility from '@mui/icons-material/Visibility';
import { useQuery } from '@tanstack/react-query';
import { allows, type EntityDefinition, type FieldKind } from '@kodi/domain';
import { listQuery, useCompanyMoney, useResourceMutations, type ResourceRow } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { useSnackbar } from '../snackbar-provider.tsx';
import { ConfirmDeleteDialog } from './confirm-delete-dialog.tsx';
import { ExportMenu } from './export-menu.tsx';
import { fieldByName, formatValue } from './format.tsx';
import { actionErrorText, loadErrorText } from './messages.ts';
import { ResourceDetailsDialog } from './resource-details-dialog.tsx';
import { ResourceFormDialog, type FormMode } from './resource-form-dialog.tsx';
import type { ResourceExtras } from './types.ts';
import { useDebounced } from './use-debounced.ts';

export const SEARCH_DEBOUNCE_MS = 300;
export const PAGE_SIZES = [10, 25, 50, 100];

/** Dates, money and chips stay on one line; names and text get room; long text wraps. */
const cellSx = (kind: FieldKind | undefined) =>
  kind === 'date' || kind === 'money' || kind === 'enum' || kind === 'percent' || kind === 'boolean'
    ? { whiteSpace: 'nowrap' }
    : kind === 'textarea'
      ? { minWidth: 180, maxWidth: 320 }
      : { minWidth: 120 };

/** The Actions column stays in view when a wide table scrolls sideways. */
const stickyActions = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: 'inset 1px 0 0 rgba(0, 0, 0, 0.08)',
  whiteSpace: 'nowrap',
} as const;

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

export type ResourceListPageProps = {
  def: EntityDefinition;
  extras?: ResourceExtras;
};

type FormState = { open: boolean; mode: FormMode; key: number };

/**
 * An entity's list page: title, server search (300 ms debounce), a server-paged and server-sorted
 * table with the definition's columns, optional expandable rows, row actions by permission, Add,
 * Export, and the form, details and delete dialogs.
 */
export const ResourceListPage = ({ def, extras }: ResourceListPageProps) => {
  const { user } = useSession();
  const money = useCompanyMoney();
  const { showSnackbar } = useSnackbar();
  const { ui } = def;

  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState<string | undefined>(undefined);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [form, setForm] = useState<FormState>({ open: false, mode: { kind: 'create' }, key: 0 });
  const [detailsId, setDetailsId] = useState<number | null>(null);
  const [toDelete, setToDelete] = useState<ResourceRow | null>(null);
  const { remove } = useResourceMutations(def.name);

  useEffect(() => setPage(0), [q]);

  const list = useQuery(listQuery(def.name, { page, pageSize, q: q || undefined, sort }));
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const loadError = list.isError ? loadErrorText(def, list.error) : null;

  useEffect(() => {
    if (loadError)
      showSnackbar({ message: loadError, severity: 'error', autoHideDuration: ui.timeouts.error });
  }, [loadError, showSnackbar, ui.timeouts.error]);

  // A page emptied by a delete: step back to the last page that has rows.
  useEffect(() => {
    if (list.data && !list.isFetching && list.data.rows.length === 0 && page > 0) {
      setPage(Math.max(0, Math.ceil(list.data.total / pageSize) - 1));
    }
  }, [list.data, list.isFetching, page, pageSize]);

  const canCreate = allows(def.access.create, user);
  const canUpdate = def.ui.editDeleteShownToAll || allows(def.access.update, user);
  const canDelete = def.ui.editDeleteShownToAll || allows(def.access.delete, user);
  const expandable = !!ui.expandField;
  const columnCount = def.columns.length + 1 + (expandable ? 1 : 0);

  const openForm = (mode: FormMode) => setForm((f) => ({ open: true, mode, key: f.key + 1 }));

  const toggleSort = (field: string) =>
    setSort((current) => (current === field ? `-${field}` : current === `-${field}` ? undefined : field));

  const toggleExpanded = (id: number) =>
    setExpanded((set) => {
      const next = new Set(set);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete.id);
      showSnackbar({
        message: ui.messages.deleted,
        severity: 'success',
        autoHideDuration: ui.timeouts.success,
      });
    } catch (e) {
      showSnackbar({
        message: actionErrorText(def, e, ui.messages.deleteFailed),
        severity: 'error',
        autoHideDuration: ui.timeouts.deleteError,
      });
    } finally {
      setToDelete(null);
    }
  };

  const bodyMessage = (text: string, status = false) => (
    <TableRow>
      <TableCell colSpan={columnCount} align="center" sx={{ py: 4, color: 'text.secondary' }}>
        <span role={status ? 'status' : undefined}>{text}</span>
      </TableCell>
    </TableRow>
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1">
        {ui.title}
      </Typography>

      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <TextField
          label={ui.searchLabel}
          type="search"
          size="small"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          sx={{ flexGrow: 1, maxWidth: { sm: 480 } }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Box sx={{ flexGrow: 1 }} />
        <ExportMenu def={def} headers={def.columns.map((c) => c.label)} q={q} sort={sort} />
        {canCreate && (
          <Button variant="contained" startIcon={<Add />} onClick={() => openForm({ kind: 'create' })}>
            {def.ui.formTitle.create.replace(/^New /, 'Add ')}
          </Button>
        )}
      </Stack>

      <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
        <Box sx={{ height: 4 }}>
          {list.isFetching && (
            <>
              <LinearProgress aria-hidden="true" />
              <Box role="status" sx={visuallyHidden}>
                Loading ... Please wait
              </Box>
            </>
          )}
        </Box>
        <TableContainer>
          <Table size="small" aria-label={ui.title}>
            <TableHead>
              <TableRow>
                {expandable && (
                  <TableCell padding="checkbox">
                    <Box component="span" sx={visuallyHidden}>
                      Expand
                    </Box>
                  </TableCell>
                )}
                {def.columns.map((col) => {
                  const sortable = col.sortable && def.sort.includes(col.field);
                  const active = sort === col.field || sort === `-${col.field}`;
                  const direction = sort === `-${col.field}` ? 'desc' : 'asc';
                  return (
                    <TableCell
                      key={col.field}
                      sortDirection={active ? direction : false}
                      align={col.kind === 'money' ? 'right' : 'left'}
                      sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                    >
                      {sortable ? (
                        <TableSortLabel
                          active={active}
                          direction={direction}
                          onClick={() => toggleSort(col.field)}
                        >
                          {col.label}
                        </TableSortLabel>
                      ) : (
                        col.label
                      )}
                    </TableCell>
                  );
                })}
                <TableCell align="right" sx={{ ...stickyActions, fontWeight: 600 }}>
                  Actions
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.isPending
                ? bodyMessage('Fetching data...', true)
                : rows.length === 0
                  ? bodyMessage(loadError ?? ui.emptyText)
                  : rows.map((row) => {
                      const isOpen = expanded.has(row.id);
                      const expandText = ui.expandField ? row[ui.expandField] : undefined;
                      return (
                        <Fragment key={row.id}>
                          <TableRow
                            hover
                            sx={expandable ? { '& > td': { borderBottom: 'unset' } } : undefined}
                          >
                            {expandable && (
                              <TableCell padding="checkbox">
                                <IconButton
                                  size="small"
                                  aria-label={isOpen ? 'Collapse row' : 'Expand row'}
                                  aria-expanded={isOpen}
                                  onClick={() => toggleExpanded(row.id)}
                                >
                                  {isOpen ? <KeyboardArrowUp /> : <KeyboardArrowDown />}
                                </IconButton>
                              </TableCell>
                            )}
                            {def.columns.map((col) => (
                              <TableCell
                                key={col.field}
                                align={col.kind === 'money' ? 'right' : 'left'}
                                sx={cellSx(col.kind ?? fieldByName(def, col.field)?.kind)}
                              >
                                {extras?.cells?.[col.field]?.(row) ??
                                  formatValue(def, col.field, row, money, col.kind)}
                              </TableCell>
                            ))}
                            <TableCell align="right" sx={stickyActions}>
                              <Tooltip title="View details">
                                <IconButton
                                  size="small"
                                  aria-label="View details"
                                  onClick={() => setDetailsId(row.id)}
                                >
                                  <Visibility fontSize="small" />
                                </IconButton>
                              </Tooltip>
                              {canUpdate && (
                                <Tooltip title="Edit">
                                  <IconButton
                                    size="small"
                                    aria-label="Edit"
                                    color="primary"
                                    onClick={() => openForm({ kind: 'edit', id: row.id })}
                                  >
                                    <Edit fontSize="small" />
                                  </IconButton>
                                </Tooltip>
                              )}
                              {canDelete && (
                                <Tooltip title="Delete">
                                  <IconButton
                                    size="small"
                                    aria-label="Delete"
                                    color="error"
                                    onClick={() => setToDelete(row)}
                                  >
                                    <DeleteOutline fontSize="small" />
                                  </IconButton>
                                </Tooltip>
                              )}
                              {extras?.rowActions?.map((action) => (
                                <Tooltip key={action.label} title={action.label}>
                                  <IconButton
                                    size="small"
                                    aria-label={action.label}
                                    component={RouterLink}
                                    to={action.to(row)}
                                  >
                                    {action.icon}
                                  </IconButton>
                                </Tooltip>
                              ))}
                            </TableCell>
                          </TableRow>
                          {expandable && (
                            <TableRow>
                              <TableCell colSpan={columnCount} sx={{ py: 0 }}>
                                <Collapse in={isOpen} timeout="auto" unmountOnExit>
                                  <Typography variant="body2" sx={{ py: 1.5, pl: 7, whiteSpace: 'pre-wrap' }}>
                                    {typeof expandText === 'string' && expandText.trim()
                                      ? expandText
                                      : ui.expandEmpty}
                                  </Typography>
                                </Collapse>
                              </TableCell>
                            </TableRow>
                          )}
                        </Fragment>
                      );
                    })}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={total}
          page={total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / pageSize) - 1))}
          rowsPerPage={pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_e, p) => setPage(p)}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
        />
      </Paper>

      <ResourceFormDialog
        key={form.key}
        def={def}
        extras={extras}
        open={form.open}
        mode={form.mode}
        onClose={() => setForm((f) => ({ ...f, open: false }))}
        onSaved={(_record, kind) => {
          if (kind === 'create') setPage(0);
        }}
      />
      <ResourceDetailsDialog def={def} extras={extras} id={detailsId} onClose={() => setDetailsId(null)} />
      <ConfirmDeleteDialog
        open={toDelete !== null}
        text={toDelete ? ui.deleteConfirm(toDelete) : ''}
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Stack>
  );
};
