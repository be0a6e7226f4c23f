import { Fragment, lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import Chip from '@mui/material/Chip';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Edit from '@mui/icons-material/Edit';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import Visibility from '@mui/icons-material/Visibility';
import { useQuery } from '@tanstack/react-query';
import {
  allows,
  cardColumns,
  formatDate,
  type EntityDefinition,
  type FieldKind,
  type Language,
} from '@kodi/domain';
import {
  listQuery,
  useCompanyMoney,
  useResourceMutations,
  type ListFilter,
  type ResourceRow,
} from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { useT } from '../../lib/i18n.ts';
import { useLocalizedDefinition } from '../../lib/entity-text.ts';
import { useSelectedProperty } from '../../lib/property-filter.ts';
import { whenIdle } from '../../lib/when-idle.ts';
import { PropertyFilter } from '../property-filter.tsx';
import { useErrorSnackbar, useSnackbar } from '../snackbar-provider.tsx';
import { ListTable, RowAction, RowCard } from '../ui/list-table.tsx';
import { ListToolbar } from '../ui/list-toolbar.tsx';
import { useListState } from '../ui/use-list-state.ts';
import { visuallyHidden } from '../ui/visually-hidden.ts';
import { ConfirmDeleteDialog } from './confirm-delete-dialog.tsx';
import { ExportMenu } from './export-menu.tsx';
import { fieldByName, formatValue } from './format.tsx';
import { actionErrorText, loadErrorText } from './messages.ts';
import type { FormMode } from './resource-form-dialog.tsx';
import type { ResourceExtras } from './types.ts';

// The form and details dialogs (the forms' validation, react-hook-form, each entity's form parts) are
// not part of the list's first load: fetched once the page is idle, or when first opened.
const loadFormDialog = () => import('./resource-form-dialog.tsx');
const loadDetailsDialog = () => import('./resource-details-dialog.tsx');
const ResourceFormDialog = lazy(() => loadFormDialog().then((m) => ({ default: m.ResourceFormDialog })));
const ResourceDetailsDialog = lazy(() =>
  loadDetailsDialog().then((m) => ({ default: m.ResourceDetailsDialog })),
);

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

type LinkFilter = { filter: ListFilter; label: string; params: string[] };

/**
 * The filters a link puts in the URL: an enum field's value (`?status=occupied`) and a date range
 * (`?from=2026-05-01&to=2026-05-31`, of `date_field` or the list's first date column), shown as chips.
 */
const linkFilters = (
  def: EntityDefinition,
  params: URLSearchParams,
  own: string | undefined,
  language: Language,
): LinkFilter[] => {
  const out: LinkFilter[] = [];
  for (const f of def.fields) {
    const value = params.get(f.name);
    if (f.kind !== 'enum' || f.name === own || !value || !f.options?.values.includes(value)) continue;
    out.push({
      filter: { field: f.name, value },
      label: `${f.label}: ${f.options.labels[value] ?? value}`,
      params: [f.name],
    });
  }
  const day = (k: string) => {
    const v = params.get(k);
    return v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null;
  };
  const from = day('from');
  const to = day('to');
  const dateField =
    def.fields.find((f) => f.name === params.get('date_field') && f.kind === 'date') ??
    def.columns.map((c) => fieldByName(def, c.field)).find((f) => f?.kind === 'date');
  if ((from || to) && dateField) {
    const range = [from ? formatDate(from, language) : '…', to ? formatDate(to, language) : '…'].join(' – ');
    out.push({
      filter: { field: dateField.name, from, to },
      label: `${dateField.label}: ${range}`,
      params: ['from', 'to', 'date_field'],
    });
  }
  return out;
};

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
export const ResourceListPage = ({ def: definition, extras }: ResourceListPageProps) => {
  // the definition's texts in the page's language (issue 30): the dialogs get it from here
  const def = useLocalizedDefinition(definition);
  const { t, language } = useT();
  const { user } = useSession();
  const money = useCompanyMoney();
  const { showSnackbar } = useSnackbar();
  const { ui } = def;

  const listState = useListState();
  const { q, page, setPage, pageSize, sort } = listState;
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [form, setForm] = useState<FormState>({ open: false, mode: { kind: 'create' }, key: 0 });
  const [detailsId, setDetailsId] = useState<number | null>(null);
  // mounted from its first opening on (it closes with its transition)
  const [detailsUsed, setDetailsUsed] = useState(false);
  if (detailsId !== null && !detailsUsed) setDetailsUsed(true);
  const [toDelete, setToDelete] = useState<ResourceRow | null>(null);
  const { remove } = useResourceMutations(def.name);
  useEffect(
    () =>
      whenIdle(() => {
        void loadFormDialog();
        void loadDetailsDialog();
      }),
    [],
  );

  // the rows of one property (`?property_id=`), for the lists that take one
  const { propertyId: selectedProperty } = useSelectedProperty();
  const propertyId = def.byProperty ? (selectedProperty ?? undefined) : undefined;
  useEffect(() => setPage(0), [propertyId, setPage]);
  // the list filtered by one enum field's value (`extras.filterField`: payments by status)
  const filterField = extras?.filterField ? fieldByName(def, extras.filterField) : undefined;
  const [params, setParams] = useSearchParams();
  const [filterValue, setFilterValue] = useState(() =>
    filterField ? (params.get(filterField.name) ?? '') : '',
  );
  useEffect(() => setPage(0), [filterValue, setPage]);
  const filter = filterField && filterValue ? { field: filterField.name, value: filterValue } : undefined;
  // what a link asked for (issue 26: the dashboard's figures): `?status=available`, `?from=&to=`
  const urlFilters = useMemo(
    () => linkFilters(def, params, filterField?.name, language),
    [def, params, filterField?.name, language],
  );
  const filters: ListFilter[] = [...(filter ? [filter] : []), ...urlFilters.map((f) => f.filter)];
  const clearUrlFilters = () =>
    setParams(
      (p) => {
        for (const f of urlFilters) for (const k of f.params) p.delete(k);
        return p;
      },
      { replace: true },
    );
  const list = useQuery(
    listQuery(def.name, {
      ...listState.params,
      propertyId,
      ...(filters.length === 1 ? { filter: filters[0] } : filters.length > 1 ? { filter: filters } : {}),
    }),
  );
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? loadErrorText(def, list.error) : null;

  useErrorSnackbar(loadError, ui.timeouts.error);

  // A page emptied by a delete: step back to the last page that has rows.
  useEffect(() => {
    if (list.data && !list.isFetching && list.data.rows.length === 0 && page > 0) {
      setPage(Math.max(0, Math.ceil(list.data.total / pageSize) - 1));
    }
  }, [list.data, list.isFetching, page, pageSize, setPage]);

  const canCreate = allows(def.access.create, user);
  const canUpdate = def.ui.editDeleteShownToAll || allows(def.access.update, user);
  const canDelete = def.ui.editDeleteShownToAll || allows(def.access.delete, user);
  const expandable = !!ui.expandField;
  const columnCount = def.columns.length + 1 + (expandable ? 1 : 0);
  const columns = def.columns.map((col) => ({
    key: col.field,
    label: col.label,
    sortField: col.sortable && def.sort.includes(col.field) ? col.field : undefined,
    align: col.kind === 'money' ? ('right' as const) : ('left' as const),
  }));

  const mainColumns = cardColumns(def);
  const cellOf = (row: ResourceRow, field: string, kind: FieldKind | undefined) =>
    extras?.cells?.[field]?.(row) ?? formatValue(def, field, row, money, kind);
  const rowActions = (row: ResourceRow) => (
    <>
      <RowAction
        label={t('resource.viewDetails')}
        icon={<Visibility fontSize="small" />}
        onClick={() => setDetailsId(row.id)}
      />
      {canUpdate && (
        <RowAction
          label={t('shell.edit')}
          icon={<Edit fontSize="small" />}
          color="primary"
          onClick={() => openForm({ kind: 'edit', id: row.id })}
        />
      )}
      {canDelete && (
        <RowAction
          label={t('shell.delete')}
          icon={<DeleteOutline fontSize="small" />}
          color="error"
          onClick={() => setToDelete(row)}
        />
      )}
      {extras?.rowActions?.map((action) => (
        <RowAction key={action.label} label={t(action.label)} icon={action.icon} to={action.to(row)} />
      ))}
    </>
  );

  const openForm = (mode: FormMode) => setForm((f) => ({ open: true, mode, key: f.key + 1 }));

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

  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1">
        {ui.title}
      </Typography>

      <ListToolbar label={ui.searchLabel} value={listState.search} onChange={listState.setSearch}>
        {def.byProperty && <PropertyFilter />}
        {filterField && (
          <TextField
            select
            size="small"
            label={filterField.label}
            value={filterValue}
            onChange={(e) => setFilterValue(e.target.value)}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="">{t('shell.all')}</MenuItem>
            {(filterField.options?.values ?? []).map((value) => (
              <MenuItem key={value} value={value}>
                {filterField.options?.labels[value] ?? value}
              </MenuItem>
            ))}
          </TextField>
        )}
        <ExportMenu
          path={def.name}
          headers={definition.columns.map((c) => c.label)}
          q={q}
          sort={sort}
          more={{ property_id: propertyId, filter: filters.length > 0 ? JSON.stringify(filters) : undefined }}
          errorText={(e) => actionErrorText(def, e, t('shell.exportFailed'))}
          errorMs={ui.timeouts.error}
          showProgress
        />
        {canCreate && (
          <Button variant="contained" startIcon={<Add />} onClick={() => openForm({ kind: 'create' })}>
            {language === 'en' ? def.ui.formTitle.create.replace(/^New /, 'Add ') : def.ui.formTitle.create}
          </Button>
        )}
      </ListToolbar>

      {urlFilters.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          {urlFilters.map((f) => (
            <Chip
              key={f.label}
              label={f.label}
              onDelete={clearUrlFilters}
              color="primary"
              variant="outlined"
            />
          ))}
        </Stack>
      )}

      <ListTable
        label={ui.title}
        list={listState}
        query={list}
        announceLoading
        emptyText={loadError ?? ui.emptyText}
        columns={columns}
        headStart={
          expandable && (
            <TableCell padding="checkbox">
              <Box component="span" sx={visuallyHidden}>
                Expand
              </Box>
            </TableCell>
          )
        }
        actionsSx={stickyActions}
        cards={rows.map((row) => {
          const [first, ...rest] = mainColumns;
          return (
            <RowCard
              key={row.id}
              titleLabel={first?.label ?? ''}
              title={first ? cellOf(row, first.field, first.kind) : `#${row.id}`}
              fields={rest.map((col) => ({ label: col.label, value: cellOf(row, col.field, col.kind) }))}
              actions={rowActions(row)}
            />
          );
        })}
      >
        {rows.map((row) => {
          const isOpen = expanded.has(row.id);
          const expandText = ui.expandField ? row[ui.expandField] : undefined;
          return (
            <Fragment key={row.id}>
              <TableRow hover sx={expandable ? { '& > td': { borderBottom: 'unset' } } : undefined}>
                {expandable && (
                  <TableCell padding="checkbox">
                    <IconButton
                      size="small"
                      aria-label={isOpen ? t('resource.collapseRow') : t('resource.expandRow')}
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
                    {cellOf(row, col.field, col.kind)}
                  </TableCell>
                ))}
                <TableCell align="right" sx={stickyActions}>
                  {rowActions(row)}
                </TableCell>
              </TableRow>
              {expandable && (
                <TableRow>
                  <TableCell colSpan={columnCount} sx={{ py: 0 }}>
                    <Collapse in={isOpen} timeout="auto" unmountOnExit>
                      <Typography variant="body2" sx={{ py: 1.5, pl: 7, whiteSpace: 'pre-wrap' }}>
                        {typeof expandText === 'string' && expandText.trim() ? expandText : ui.expandEmpty}
                      </Typography>
                    </Collapse>
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          );
        })}
      </ListTable>

      <Suspense fallback={null}>
        {form.key > 0 && (
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
        )}
        {detailsUsed && (
          <ResourceDetailsDialog
            def={def}
            extras={extras}
            id={detailsId}
            onClose={() => setDetailsId(null)}
          />
        )}
      </Suspense>
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
