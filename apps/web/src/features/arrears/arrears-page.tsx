import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Sms from '@mui/icons-material/Sms';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import PhoneAndroid from '@mui/icons-material/PhoneAndroid';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  agingBuckets,
  canEdit,
  arrearsColumns,
  arrearsSortFields,
  formatDate,
  formatMoney,
  formatNumber,
  localDayIso,
  type AgingBucket,
  type ArrearsRemindAnswer,
  type ArrearsRow,
  type Column,
} from '@kodi/domain';
import { ExportMenu } from '../../components/resource/export-menu.tsx';
import { useErrorSnackbar, useSnackbar } from '../../components/snackbar-provider.tsx';
import { ListTable, RowAction, RowCard, type ListColumn } from '../../components/ui/list-table.tsx';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { PropertyFilter } from '../../components/property-filter.tsx';
import { useSelectedProperty } from '../../lib/property-filter.ts';
import { useListState } from '../../components/ui/use-list-state.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { lazyPart } from '../../components/lazy-part.tsx';
import { providersOnQuery } from '../../components/payment-requests/payment-request-queries.ts';
import { arrearsQuery, arrearsSummaryQuery, remindArrears } from './arrears-queries.ts';
import { LedgerSection } from './ledger-section.tsx';
import { useT, type Translate, type TranslateDerived } from '../../lib/i18n.ts';

/** Request payment's dialog: loaded when first opened, not with the page. */
const RequestPaymentDialog = lazyPart(
  () => import('../../components/payment-requests/request-payment-dialog.tsx'),
  'RequestPaymentDialog',
);

/** The fields of a row's card on a phone, after the tenant's name. */
const CARD_FIELDS = ['tenant_phone', 'unit_name', 'balance', 'days_over_90', 'last_payment_date'] as const;

/** Who a reminder goes to: the rows chosen, or every lease in arrears. */
type RemindTarget = { kind: 'rows'; rows: ArrearsRow[] } | { kind: 'all'; count: number };

/** 'Reminders queued: 2. Not sent (no address): 1. Already sent today: 1.' */
export const remindSummary = (a: ArrearsRemindAnswer, t: Translate): string =>
  [
    t('arrears.remindQueued', { count: a.queued }),
    a.skipped > 0 ? t('arrears.remindSkipped', { count: a.skipped }) : '',
    a.already > 0 ? t('arrears.remindAlready', { count: a.already }) : '',
  ]
    .filter(Boolean)
    .join(' ');

const sortable = (col: Column) =>
  col.sortable && (arrearsSortFields as readonly string[]).includes(col.field);

const exportHeaders = arrearsColumns.map((c) => c.label);

/**
 * The table's columns at a desktop's width (every one fits at 1366 px, issue 26): the phone under the
 * tenant's name and the last payment's amount under its date; the amounts without the currency, which
 * the page's line names. The exports and the cards keep every column.
 */
const TABLE_HIDDEN = new Set(['tenant_phone', 'last_payment_amount']);
const tableColumns = arrearsColumns.filter((c) => !TABLE_HIDDEN.has(c.field));

/** A column's heading in the page's language (`arrears.column.<field>`, its English the column's label). */
const columnLabel = (col: Column, td: TranslateDerived) => td(`arrears.column.${col.field}`, col.label);

const listColumns = (td: TranslateDerived): ListColumn[] =>
  tableColumns.map((col) => ({
    key: col.field,
    label: columnLabel(col, td),
    sortField: sortable(col) ? col.field : undefined,
    align: col.kind === 'money' ? 'right' : 'left',
  }));

/**
 * 'Arrears' (Finance, admins and editors): every lease with an overdue balance, its unpaid charges
 * by how long they have been overdue, and its last payment. Searched, sorted and paged on the server;
 * a row opens the lease's ledger.
 */
export const ArrearsPage = () => {
  const company = useCompanyMoney();
  const { t, td, language } = useT();
  const money = (n: number | null) =>
    n === null ? '—' : formatMoney(n, company.currency, company.decimals, language);
  const date = (d: string) => formatDate(d, language);
  const listState = useListState({ resetPageOnSort: true });
  const { q, sort, setPage } = listState;
  const [ledgerOf, setLedgerOf] = useState<ArrearsRow | null>(null);
  // 'Request payment' (issue 29): for those who may send prompts, when the company has a provider on
  const { user } = useSession();
  const mayPrompt = canEdit(user);
  const providersOn = useQuery({ ...providersOnQuery(), enabled: mayPrompt });
  const canPrompt = mayPrompt && (providersOn.data?.providers.length ?? 0) > 0;
  const [promptOf, setPromptOf] = useState<ArrearsRow | null>(null);
  // the dialog's code is fetched with its first opening, then kept drawn (closed) for the next rows
  const [promptLoaded, setPromptLoaded] = useState(false);
  const { propertyId } = useSelectedProperty();
  useEffect(() => setPage(0), [propertyId, setPage]);

  const [params, setParams] = useSearchParams();
  const rawBucket = params.get('bucket');
  const bucket = (agingBuckets as readonly string[]).includes(rawBucket ?? '')
    ? (rawBucket as AgingBucket)
    : undefined;
  useEffect(() => setPage(0), [bucket, setPage]);
  const clearBucket = () =>
    setParams(
      (p) => {
        p.delete('bucket');
        return p;
      },
      { replace: true },
    );

  const list = useQuery(arrearsQuery({ ...listState.params, propertyId: propertyId ?? undefined, bucket }));
  const summary = useQuery(arrearsSummaryQuery(propertyId));

  // the rows chosen for a reminder (kept across pages, by lease)
  const [selected, setSelected] = useState<ReadonlyMap<number, ArrearsRow>>(new Map());
  const pageRows = list.data?.rows ?? [];
  const allOnPage = pageRows.length > 0 && pageRows.every((r) => selected.has(r.occupancy_id));
  const toggle = (row: ArrearsRow) =>
    setSelected((m) => {
      const next = new Map(m);
      if (next.has(row.occupancy_id)) next.delete(row.occupancy_id);
      else next.set(row.occupancy_id, row);
      return next;
    });
  const togglePage = () =>
    setSelected((m) => {
      const next = new Map(m);
      for (const r of pageRows) {
        if (allOnPage) next.delete(r.occupancy_id);
        else next.set(r.occupancy_id, r);
      }
      return next;
    });
  const [remindOf, setRemindOf] = useState<RemindTarget | null>(null);
  const [channel, setChannel] = useState<'sms' | 'email' | 'whatsapp'>('sms');
  const { showSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const remind = useMutation({
    mutationFn: (target: RemindTarget) =>
      remindArrears(
        target.kind === 'all'
          ? { all: true, channel, ...(propertyId !== null ? { property_id: propertyId } : {}) }
          : { occupancy_ids: target.rows.map((r) => r.occupancy_id), channel },
      ),
    onSuccess: (answer) => {
      showSnackbar({ message: remindSummary(answer, t), severity: 'success', autoHideDuration: 6000 });
      setRemindOf(null);
      setSelected(new Map());
      void queryClient.invalidateQueries({ queryKey: resourceKeys.entity('messages') });
    },
    onError: (e) => showSnackbar({ message: errorMessage(e, t('arrears.remindFailed')), severity: 'error' }),
  });
  const totals = summary.data?.by_age;
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? errorMessage(list.error, t('arrears.loadFailed')) : null;

  useErrorSnackbar(loadError);

  const rowActions = (row: ArrearsRow) => (
    <>
      <RowAction
        label={t('arrears.remind')}
        icon={<Sms fontSize="small" />}
        onClick={() => setRemindOf({ kind: 'rows', rows: [row] })}
      />
      <RowAction
        label={t('arrears.viewLedger')}
        icon={<ReceiptLong fontSize="small" />}
        onClick={() => setLedgerOf(row)}
      />
      {canPrompt && (
        <RowAction
          label="Request payment"
          icon={<PhoneAndroid fontSize="small" />}
          onClick={() => {
            setPromptLoaded(true);
            setPromptOf(row);
          }}
        />
      )}
    </>
  );

  // the currency left out (the page's line names it): before the figure in English, after it in French
  const amount = (n: number | null) => (n === null ? '—' : money(n).replace(/^[^\d-]+|[^\d]+$/g, ''));
  const tableCell = (row: ArrearsRow, col: Column) => {
    if (col.field === 'tenant_name')
      return (
        <>
          {row.tenant_name}
          {row.tenant_phone && (
            <Typography variant="caption" component="span" sx={{ display: 'block', color: 'text.secondary' }}>
              {row.tenant_phone}
            </Typography>
          )}
        </>
      );
    if (col.field === 'last_payment_date')
      return row.last_payment_date ? (
        <>
          {date(row.last_payment_date)}
          <Typography variant="caption" component="span" sx={{ display: 'block', color: 'text.secondary' }}>
            {amount(row.last_payment_amount)}
          </Typography>
        </>
      ) : (
        '—'
      );
    if (col.kind === 'money') return amount(row[col.field as keyof ArrearsRow] as number | null);
    return cell(row, col);
  };

  const cell = (row: ArrearsRow, col: Column) => {
    const value = row[col.field as keyof ArrearsRow];
    if (col.kind === 'money') return money(value as number | null);
    if (col.kind === 'date') return value ? date(String(value)) : '—';
    return String(value ?? '');
  };

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('arrears.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('arrears.intro', { date: date(localDayIso()), currency: company.currency })}
        </Typography>
        {/* a line of its own, drawn when the total comes: the page's text above shows at once and
            does not grow then (issue 26: the largest text of the page is drawn with the page) */}
        <Typography variant="body2" sx={{ color: 'text.secondary', minHeight: '1.43em' }}>
          {summary.data &&
            t('arrears.totalOverdue', { amount: money(summary.data.total), count: summary.data.leases })}
        </Typography>
      </Box>

      <ListToolbar label={t('arrears.search')} value={listState.search} onChange={listState.setSearch}>
        <PropertyFilter />
        <ExportMenu
          path="arrears"
          headers={exportHeaders}
          q={q}
          sort={sort}
          more={{ property_id: propertyId ?? undefined, bucket }}
          errorText={(e) => errorMessage(e, t('shell.exportFailed'))}
        />
      </ListToolbar>

      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
        {bucket && (
          <Chip
            label={t('arrears.overdueBucket', { bucket })}
            onDelete={clearBucket}
            color="primary"
            variant="outlined"
          />
        )}
        <Button
          variant="contained"
          startIcon={<Sms />}
          disabled={selected.size === 0}
          onClick={() => setRemindOf({ kind: 'rows', rows: [...selected.values()] })}
        >
          {selected.size > 0
            ? t('arrears.remindSelectedCount', { count: selected.size })
            : t('arrears.remindSelected')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<Sms />}
          disabled={!summary.data || summary.data.leases === 0}
          onClick={() => setRemindOf({ kind: 'all', count: summary.data?.leases ?? 0 })}
        >
          {t('arrears.remindAll')}
        </Button>
      </Stack>

      <ListTable
        label={t('arrears.title')}
        list={listState}
        query={list}
        emptyText={loadError ?? (q ? t('arrears.emptySearch') : t('arrears.empty'))}
        columns={listColumns(td)}
        tableSx={{
          '& th, & td': { px: 0.75, fontSize: '0.8125rem' },
          // the headings wrap ('1–30 / days'): the columns are as wide as their amounts
          '& th': { whiteSpace: 'normal', lineHeight: 1.25, verticalAlign: 'bottom' },
        }}
        headStart={
          <TableCell padding="checkbox">
            <Checkbox
              size="small"
              checked={allOnPage}
              indeterminate={!allOnPage && pageRows.some((r) => selected.has(r.occupancy_id))}
              onChange={togglePage}
              slotProps={{ input: { 'aria-label': t('arrears.selectPage') } }}
            />
          </TableCell>
        }
        footer={
          totals && !bucket && !q ? (
            <TableRow sx={{ '& td': { fontWeight: 600, borderTop: 2, borderColor: 'divider' } }}>
              <TableCell />
              {tableColumns.map((col, i) => (
                <TableCell
                  key={col.field}
                  align={col.kind === 'money' ? 'right' : 'left'}
                  sx={{ whiteSpace: 'nowrap' }}
                >
                  {i === 0
                    ? t('arrears.total', { count: summary.data?.leases ?? 0 })
                    : col.field in totals
                      ? amount(totals[col.field as keyof typeof totals])
                      : ''}
                </TableCell>
              ))}
              <TableCell />
            </TableRow>
          ) : undefined
        }
        cards={rows.map((row) => (
          <RowCard
            key={row.occupancy_id}
            titleLabel={t('arrears.column.tenant_name')}
            title={row.tenant_name}
            leading={
              <Checkbox
                size="small"
                checked={selected.has(row.occupancy_id)}
                onChange={() => toggle(row)}
                slotProps={{ input: { 'aria-label': `Select ${row.tenant_name}` } }}
                sx={{ p: 0.5 }}
              />
            }
            fields={CARD_FIELDS.map((f) => {
              const col = arrearsColumns.find((c) => c.field === f) as Column;
              return { label: columnLabel(col, td), value: cell(row, col) };
            })}
            actions={rowActions(row)}
          />
        ))}
      >
        {rows.map((row) => (
          <TableRow key={row.occupancy_id} hover selected={selected.has(row.occupancy_id)}>
            <TableCell padding="checkbox">
              <Checkbox
                size="small"
                checked={selected.has(row.occupancy_id)}
                onChange={() => toggle(row)}
                slotProps={{ input: { 'aria-label': `Select ${row.tenant_name}` } }}
              />
            </TableCell>
            {tableColumns.map((col) => (
              <TableCell
                key={col.field}
                align={col.kind === 'money' ? 'right' : 'left'}
                sx={{
                  whiteSpace: col.kind ? 'nowrap' : undefined,
                  minWidth: col.kind ? undefined : 120,
                  fontWeight: col.field === 'balance' ? 600 : undefined,
                }}
              >
                {tableCell(row, col)}
              </TableCell>
            ))}
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {rowActions(row)}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>

      <Dialog open={remindOf !== null} onClose={() => setRemindOf(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{t('arrears.sendReminder')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {remindOf?.kind === 'all'
              ? t('arrears.remindToAll', { count: formatNumber(remindOf.count, 0, language) })
              : remindOf?.rows.length === 1
                ? t('arrears.remindToOne', {
                    tenant: remindOf.rows[0]?.tenant_name ?? '',
                    unit: remindOf.rows[0]?.unit_name ?? '',
                  })
                : t('arrears.remindToMany', { count: remindOf?.rows.length ?? 0 })}{' '}
            {t('arrears.remindHow')}
          </Typography>
          <RadioGroup
            aria-label={t('arrears.channel')}
            value={channel}
            onChange={(e) =>
              setChannel(e.target.value === 'email' || e.target.value === 'whatsapp' ? e.target.value : 'sms')
            }
          >
            <FormControlLabel value="sms" control={<Radio />} label={t('arrears.sms')} />
            <FormControlLabel value="email" control={<Radio />} label={t('arrears.email')} />
            <FormControlLabel value="whatsapp" control={<Radio />} label="WhatsApp" />
          </RadioGroup>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRemindOf(null)}>{t('shell.cancel')}</Button>
          <Button
            variant="contained"
            disabled={remind.isPending}
            onClick={() => remindOf && remind.mutate(remindOf)}
          >
            {t('arrears.send')}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog
        open={ledgerOf !== null}
        onClose={() => setLedgerOf(null)}
        maxWidth="md"
        fullWidth
        scroll="paper"
      >
        <DialogTitle>
          {ledgerOf
            ? t('arrears.ledgerOf', { tenant: ledgerOf.tenant_name, unit: ledgerOf.unit_name })
            : t('arrears.ledger')}
        </DialogTitle>
        <DialogContent dividers sx={{ pt: 0 }}>
          {ledgerOf && <LedgerSection occupancyId={ledgerOf.occupancy_id} />}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setLedgerOf(null)}>{t('shell.close')}</Button>
        </DialogActions>
      </Dialog>

      {promptLoaded && <RequestPaymentDialog lease={promptOf} onClose={() => setPromptOf(null)} />}
    </Stack>
  );
};
